// Drawing the timeline: the axis, lanes, event marks (binned when dense), labels placed so they
// do not overlap (findings first), gaps in place, reconnect links and markers. Pure: inputs in,
// SVG elements out; the component (Timeline.tsx) owns state and interaction.

import type { ReactNode } from 'react';
import type { AnalysisSnapshot, Finding, Stream } from '../../../core/model';
import { eventMethods, eventSeverity } from '../common/labels';
import { formatRel, visibleLine } from '../common/text';
import { lowerBound, niceStep, type View } from './timeline-geom';

export const AXIS_H = 20;

/**
 * Lane geometry. Full lanes leave room for two rows of labels above the marks and one below;
 * compact ones (when the lanes would not fit the room the panel has) one above and one below.
 */
export interface LaneGeom {
  h: number;
  /** Marks' y within a lane. */
  mark: number;
  /** Baseline of a label below the marks, from the marks' y. */
  below: number;
  compact: boolean;
}
export const LANES_FULL: LaneGeom = { h: 46, mark: 26, below: 17, compact: false };
export const LANES_COMPACT: LaneGeom = { h: 32, mark: 18, below: 12, compact: true };
/** Full lane height (tests, callers that do not care about the shape). */
export const LANE_H = LANES_FULL.h;
const BIN_CLASS = ['', ' res', ' warn', ' err'];

export function streamEnd(s: Stream): number {
  const last = s.events.length ? s.events[s.events.length - 1]!.t : s.start;
  return Math.max(s.end ?? last, last);
}

export const laneY = (i: number, g: LaneGeom = LANES_FULL) => i * g.h;
export const markY = (i: number, g: LaneGeom = LANES_FULL) => laneY(i, g) + g.mark;

export interface DrawInput {
  snap: AnalysisSnapshot;
  lanes: Stream[];
  laneOf: Map<string, number>;
  findings: Finding[];
  view: View;
  width: number;
  t0: number;
  /** `${lane}:${index}` of the selected event. */
  selKey: string | undefined;
  laneVisible(i: number): boolean;
  geom?: LaneGeom;
}

export function drawTimeline(input: DrawInput): { els: ReactNode[]; axisEls: ReactNode[]; labelEls: ReactNode[]; height: number } {
  const { snap, lanes, laneOf, findings, view, width, t0, selKey, laneVisible } = input;
  const g = input.geom ?? LANES_FULL;
  const laneY = (i: number) => i * g.h;
  const markY = (i: number) => i * g.h + g.mark;
  const span = Math.max(1e-6, view.end - view.start);
  const x = (t: number) => ((t - view.start) / span) * width;
  const gapFindings = findings.filter((f) => f.code === 'replay-gap' || f.code === 'live-gap');
  const labelEls: ReactNode[] = [];
  const height = lanes.length * g.h + 12;
  const els: ReactNode[] = [];
  const axisEls: ReactNode[] = [];

  // Axis
  const step = niceStep(span, width);
  const first = Math.ceil((view.start - t0) / step) * step + t0;
  axisEls.push(<rect key="axbg" className="tl-axis-bg" x={0} y={0} width={width} height={AXIS_H} />);
  lanes.forEach((_, i) => laneVisible(i) && els.push(<rect key={`lbg${i}`} className={`tl-lane-bg${i % 2 ? ' alt' : ''}`} x={0} y={laneY(i)} width={width} height={g.h} />));
  for (let t = first, n = 0; t <= view.end && n < 200; t += step, n++) {
    const px = x(t);
    els.push(<line key={`tk${n}`} className="tl-tick" x1={px} x2={px} y1={0} y2={height} />);
    axisEls.push(<line key={`tka${n}`} className="tl-tick" x1={px} x2={px} y1={AXIS_H - 5} y2={AXIS_H} />);
    axisEls.push(
      <text key={`tl${n}`} className="tl-tick-label" x={px + 3} y={13}>
        {formatRel(t - t0)}
      </text>,
    );
  }

  // Markers: navigations and the inspector's own capture gaps (drawn across all lanes).
  snap.markers.forEach((m, i) => {
    const px = x(m.t);
    if (px < -50 || px > width + 50) return;
    const cg = m.kind === 'capture-gap';
    els.push(<line key={`mk${i}`} className={cg ? 'tl-capgap' : 'tl-nav'} x1={px} x2={px} y1={0} y2={height} />);
    els.push(
      <text key={`mkt${i}`} className={cg ? 'tl-capgap-label' : 'tl-tick-label'} x={px + 3} y={height - 4}>
        {visibleLine(cg ? `⚑ ${m.text.startsWith('capture-gap') ? m.text : `capture-gap: ${m.text}`}` : `navigation ${m.text}`, 80)}
      </text>,
    );
  });


  // Gaps drawn in place, between the events on each side, with the missing ids. Computed first so
  // that the id labels leave room for the gap's label.
  const reserved = new Map<number, [number, number][]>();
  gapFindings.forEach((f: Finding, gi) => {
    const s = f.streamId ? snap.streams[f.streamId] : undefined;
    const li = s ? laneOf.get(s.id) : undefined;
    if (!s || li === undefined || !laneVisible(li)) return;
    const idx = f.eventIndex ?? (f.code === 'replay-gap' ? 0 : undefined);
    if (idx === undefined) return;
    const after = s.events[idx];
    const before = idx > 0 ? s.events[idx - 1] : undefined;
    const t1 = before ? before.t : s.start;
    const t2 = after ? after.t : streamEnd(s);
    let x1 = x(t1) + 5;
    const x2 = x(t2) - 5;
    const label = visibleLine(`ids ${f.missing ?? f.eventIds.join(', ')} missing`, 60);
    const need = Math.min(160, label.length * 6.2 + 10);
    // Too narrow at this zoom: draw it ending just before the event after the gap.
    if (x2 - x1 < need) x1 = x2 - need;
    const y = markY(li);
    const cx = (x1 + x2) / 2;
    const half = (label.length * 6.2) / 2 + 4;
    reserved.set(li, [...(reserved.get(li) ?? []), [cx - half, cx + half]]);
    els.push(<rect key={`gp${gi}`} className="tl-gap" x={x1} y={y - 7} width={Math.max(4, x2 - x1)} height={14} fill="url(#msi-hatch)" data-testid="timeline-gap" />);
    labelEls.push(
      <text key={`gpt${gi}`} className="tl-gap-label" x={cx} y={y + g.below + 1} textAnchor="middle">
        {label}
      </text>,
    );
  });

  lanes.forEach((s, li) => {
    if (!laneVisible(li)) return;
    const y = markY(li);
    const sx = x(s.start);
    const ex = x(streamEnd(s));
    els.push(<line key={`sp${li}`} className="tl-span" x1={sx} x2={Math.max(sx + 1, ex)} y1={y} y2={y} style={s.captureIncomplete ? { stroke: 'var(--capture)', strokeDasharray: '4 3', opacity: 1 } : undefined} />);
    els.push(<line key={`st${li}`} className="tl-span" x1={sx} x2={sx} y1={y - 6} y2={y + 6} />);
    if (s.status !== undefined && s.status >= 400) {
      els.push(
        <text key={`st4${li}`} className="tl-cut" x={sx + 5} y={y - 8}>
          {`✕ HTTP ${s.status}`}
        </text>,
      );
    }
    if (s.captureIncomplete) {
      els.push(
        <text key={`ci${li}`} className="tl-capgap-label" x={sx + 4} y={y + g.below - 2}>
          capture incomplete (inspector lost records)
        </text>,
      );
    }
    // Cut: a stream that ended without completing, or one that was resumed.
    if ((s.state === 'error' || s.state === 'aborted' || s.resumedBy.length) && s.state !== 'open') {
      const cut = s.state === 'error' || s.resumedBy.length > 0;
      els.push(
        <text key={`cut${li}`} className={s.state === 'error' ? 'tl-cut' : cut ? 'tl-link-label' : 'tl-tick-label'} x={ex + 4} y={y + 4}>
          {s.state === 'error' ? '✂ cut' : cut ? `■ ${s.state === 'complete' ? 'ended by server' : s.state}, resumed ↓` : `■ ${s.state}`}
        </text>,
      );
    }
    // Events: cull to the view; bin when dense.
    const a = Math.max(0, lowerBound(s.events, view.start) - 1);
    const b = Math.min(s.events.length, lowerBound(s.events, view.end) + 1);
    const dense = b - a > width / 5;
    let lastBin = -1;
    let lastRank = 0;
    let lastBinIdx = -1;
    // More marked events than room for marks: bin those too.
    const veryDense = dense && b - a > width;
    // Id labels: neighbours that would overlap are merged into one "first…last (n)" label.
    // Events with findings never merge with plain ones; a cluster that would overlap the previous
    // one goes on a second row below the lane line.
    type Cluster = { x: number; right: number; first: string; last: string; n: number; sev: 'err' | 'warn' | undefined; kind: string | undefined; key: string; below: boolean };
    let cluster: Cluster | undefined;
    const clusters: Cluster[] = [];
    const flush = () => {
      if (cluster) clusters.push(cluster);
      cluster = undefined;
    };
    const placeLabels = () => {
      // Findings first (they must be readable), then plain ids where room is left.
      const rows: [number, number][][] = [[], [...(reserved.get(li) ?? [])], []];
      const free = (row: number, l: number, r: number) => rows[row]!.every(([a, b]) => r <= a || l >= b);
      const ordered = [...clusters.filter((c) => c.sev), ...clusters.filter((c) => !c.sev && c.kind), ...clusters.filter((c) => !c.kind)];
      for (const c of ordered) {
        const text = c.n === 1 ? c.first : `${c.first}…${c.last}${c.n > 2 ? ` (${c.n})` : ''}`;
        if (c.n > 1) c.x = Math.max(2, c.x);
        const l = c.n === 1 ? c.x - (text.length * 6.2) / 2 : c.x;
        const r = l + text.length * 6.2 + 4;
        const row = free(0, l, r) ? 0 : free(1, l, r) ? 1 : c.kind && !g.compact && free(2, l, r) ? 2 : c.kind ? 0 : -1;
        if (row < 0) continue;
        rows[row]!.push([l, r]);
        labelEls.push(
          <text key={`el${c.key}`} className="tl-ev-label" x={c.x} y={row === 1 ? y + g.below : row === 2 ? y - 19 : y - 8} textAnchor={c.n === 1 ? 'middle' : 'start'} style={c.sev ? { fill: c.sev === 'err' ? 'var(--error)' : 'var(--warning)', fontWeight: 700 } : c.kind === 'named' ? { fill: 'var(--named)', fontWeight: 700 } : undefined}>
            {text}
          </text>,
        );
      }
    };
    for (let i = a; i < b; i++) {
      const e = s.events[i]!;
      const px = x(e.t);
      const key = `${li}:${i}`;
      const sev = e.findings.length ? (eventSeverity(snap.findings, s.id, i, e) === 'error' ? 'err' : 'warn') : undefined;
      const isRes = e.messages.some((m) => m.kind === 'result' || m.kind === 'error');
      // A named SSE event (not "message"): e.g. a server's explicit resync. Drawn as a diamond.
      const named = e.event !== 'message' && !e.synthetic;
      // Too many events for marks at this zoom: one 2px bar per 3px column, coloured by the
      // worst thing in it (finding > result > event). Zooming in brings the marks back.
      if (dense && key !== selKey && (veryDense || (!sev && !isRes && !named))) {
        const bin = Math.floor(px / 3);
        const rank = sev === 'err' ? 3 : sev === 'warn' ? 2 : isRes ? 1 : 0;
        if (bin === lastBin) {
          if (rank > lastRank && lastBinIdx >= 0) {
            els[lastBinIdx] = <rect key={`b${li}:${bin}`} className={`tl-bin${BIN_CLASS[rank]}`} x={bin * 3} y={y - 5} width={2} height={10} />;
            lastRank = rank;
          }
          continue;
        }
        lastBin = bin;
        lastRank = rank;
        lastBinIdx = els.length;
        els.push(<rect key={`b${li}:${bin}`} className={`tl-bin${BIN_CLASS[rank]}`} x={bin * 3} y={y - 5} width={2} height={10} />);
        continue;
      }
      // Long (opaque) ids: their tail is what differs from one event to the next.
      const idLabel = e.id === undefined ? '' : e.id.length > 14 ? `…${visibleLine(e.id.slice(-9), 12)}` : visibleLine(e.id, 14);
      const label = named ? `${idLabel ? `${idLabel} ` : ''}⟨${visibleLine(e.event, 16)}⟩` : idLabel || '·';
      els.push(
        <g key={`e${key}`} data-ev={key} id={`tl-ev-${key.replace(":", "-")}`} role="option" aria-selected={key === selKey} aria-label={visibleLine(`event ${e.id ?? "(no id)"} ${eventMethods(e)} ${e.findings.join(" ")}`.trim(), 200)} style={{ cursor: 'pointer' }}>
          {named ? (
            <rect className={`tl-ev tl-named${sev ? ` ${sev}` : ''}${key === selKey ? ' sel' : ''}`} x={px - 4} y={y - 4} width={8} height={8} transform={`rotate(45 ${px} ${y})`} />
          ) : (
            <circle className={`tl-ev${sev ? ` ${sev}` : isRes ? ' res' : ''}${key === selKey ? ' sel' : ''}`} cx={px} cy={y} r={key === selKey ? 5.5 : 4} />
          )}
          {e.duplicate && <circle className="tl-dup" cx={px} cy={y} r={7} />}
        </g>,
      );
      if (e.id === undefined && !sev && !named) continue; // no id to show
      const half = (label.length * 6.2) / 2 + 3;
      const kind = sev ?? (named ? 'named' : undefined);
      if (cluster && cluster.kind === kind && !named && px - half < cluster.right) {
        cluster.last = label;
        cluster.n++;
        if (cluster.n === 2) cluster.x -= (cluster.first.length * 6.2) / 2;
        cluster.right = Math.max(cluster.right, cluster.x + `${cluster.first}…${label} (${cluster.n})`.length * 6.2 + 6);
      } else {
        flush();
        cluster = { x: px, right: px + half, first: label, last: label, n: 1, sev, kind, key, below: false };
      }
    }
    flush();
    placeLabels();
  });

  // Reconnect links: from the cut stream's end to the resuming GET, labelled with Last-Event-ID.
  lanes.forEach((s, li) => {
    if (!s.resumes) return;
    const from = snap.streams[s.resumes];
    const fl = from ? laneOf.get(from.id) : undefined;
    if (!from || fl === undefined) return;
    if (!laneVisible(li) && !laneVisible(fl)) return;
    const x1 = x(streamEnd(from));
    const y1 = markY(fl) + 5;
    const x2 = x(s.start);
    const y2 = markY(li) - 5;
    els.push(<path key={`lk${li}`} className="tl-link" d={`M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`} markerEnd="url(#msi-arrow)" />);
    els.push(
      <text key={`lkt${li}`} className="tl-link-label" x={x1 + 10} y={markY(fl) + g.below}>
        {visibleLine(`↳ GET Last-Event-ID: ${s.lastEventIdSent ?? '(none)'}`, 40)}
      </text>,
    );
  });

  return { els, axisEls, labelEls, height };
}
