// One lane: the stream's span, its start, an HTTP error, a cut, and its events — a mark per event
// with its id where they have room, else a density of the events with the ones that matter
// (findings, results, named events, duplicates) as marks on top. Id labels that would overlap are
// merged into "first…last (n)"; labels of events with findings are placed first.

import type { ReactNode } from 'react';
import type { AnalysisSnapshot, SseEvent, Stream } from '../../../core/model';
import { eventMethods } from '../common/labels';
import { formatCount, visibleLine } from '../common/text';
import type { SeverityIndex } from '../findings/severity-index';
import { BIN_PX, binEvents, densityPath, specialsIn, type Special } from './density';
import { textW, type Frame } from './geometry';
import { awaitingResponse, streamEnd } from './lanes';
import { lowerBound } from './timeline-geom';

export interface LaneInput {
  f: Frame;
  snap: AnalysisSnapshot;
  s: Stream;
  li: number;
  /** `${lane}:${index}` of the selected event. */
  selKey: string | undefined;
  /** x ranges taken by gap labels on this lane. */
  reserved: readonly [number, number][];
  severity: SeverityIndex;
  specials: readonly Special[];
}

type Sev = 'err' | 'warn' | undefined;
type Cluster = { x: number; right: number; first: string; last: string; n: number; sev: Sev; kind: string | undefined; key: string; label?: ReactNode };
const RANK_CLASS = ['', ' res', ' warn', ' err'];

/** Events in view with room for a mark each (5 px apart on average): no density. */
export const marksFit = (inView: number, width: number) => inView <= width / 5;

export function drawLane(p: LaneInput, els: ReactNode[], labelEls: ReactNode[]): void {
  const { f, s, li, selKey } = p;
  const g = f.g;
  const y = f.markY(li);
  const sx = f.x(s.start);
  const ex = f.x(streamEnd(s));
  els.push(<line key={`sp${li}`} className="tl-span" x1={sx} x2={Math.max(sx + 1, ex)} y1={y} y2={y} style={s.captureIncomplete ? { stroke: 'var(--capture)', strokeDasharray: '4 3', opacity: 1 } : undefined} />);
  els.push(<line key={`st${li}`} className="tl-span" x1={sx} x2={sx} y1={y - 6} y2={y + 6} />);
  if (s.status !== undefined && s.status >= 400) {
    els.push(<text key={`st4${li}`} className="tl-cut" x={sx + 5} y={y - 8}>{`✕ HTTP ${s.status}`}</text>);
  }
  if (awaitingResponse(s)) {
    els.push(<text key={`aw${li}`} className="tl-tick-label" x={sx + 5} y={y - 8}>⋯ awaiting response</text>);
  }
  if (s.captureIncomplete) {
    els.push(<text key={`ci${li}`} className="tl-capgap-label" x={sx + 4} y={y + g.below - 2}>capture incomplete (inspector lost records)</text>);
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
  const n = Math.min(s.eventCount ?? s.events.length, s.events.length);
  const a = Math.max(0, lowerBound(s.events, f.view.start, n) - 1);
  const b = Math.min(n, lowerBound(s.events, f.view.end, n) + 1);
  const clusters: Cluster[] = [];
  if (marksFit(b - a, f.width)) {
    for (let i = a; i < b; i++) mark(p, i, s.events.at(i)!, els, clusters);
  } else {
    const bins = binEvents(s.events, n, f.t, f.width);
    els.push(<path key={`dn${li}`} className="tl-density" d={densityPath(bins, y)} data-testid="timeline-density" data-lane={li} />);
    const sp = specialsIn(p.specials, f.view.start, f.view.end);
    const sel = selKey?.startsWith(`${li}:`) ? Number(selKey.slice(String(li).length + 1)) : undefined;
    if (sp.length <= f.width / 4) {
      for (const x of sp) mark(p, x.index, s.events.at(x.index)!, els, clusters);
    } else binSpecials(p, sp, els);
    if (sel !== undefined && s.events.at(sel) && !sp.some((x) => x.index === sel)) mark(p, sel, s.events.at(sel)!, els, clusters);
    if (bins.total > 0) {
      const lo = s.events.at(bins.first)!;
      const hi = s.events.at(bins.first + bins.total - 1)!;
      const ids = lo.id !== undefined && hi.id !== undefined ? ` · ids ${visibleLine(lo.id, 14)}…${visibleLine(hi.id, 14)}` : '';
      const text = `${formatCount(bins.total)} events${ids}`;
      // at the lane's first event in view, kept inside the canvas
      const lx = Math.max(2, Math.min(f.x(lo.t), f.width - textW(text) - 4));
      const label = (
        <text key={`dl${li}`} className="tl-density-label" x={lx} y={y - 8} data-testid="timeline-density-label">
          {text}
        </text>
      );
      clusters.unshift({ x: lx, right: lx + textW(text) + 4, first: '', last: '', n: 0, sev: undefined, kind: 'summary', key: `s${li}`, label });
    }
  }
  placeLabels(p, clusters, labelEls);
}

function eventSev(p: LaneInput, i: number, e: SseEvent): Sev {
  if (!e.findings.length) return undefined;
  return p.severity.eventAt(p.s.id, i, e) === 'error' ? 'err' : 'warn';
}

/** A mark for event `i` (a circle, or a diamond for a named SSE event), added to the id-label clusters. */
function mark(p: LaneInput, i: number, e: SseEvent, els: ReactNode[], clusters: Cluster[]): void {
  const { f, li, selKey } = p;
  const y = f.markY(li);
  const px = f.x(e.t);
  const key = `${li}:${i}`;
  const sev = eventSev(p, i, e);
  const isRes = e.messages.some((m) => m.kind === 'result' || m.kind === 'error');
  // A named SSE event (not "message"): e.g. a server's explicit resync.
  const named = e.event !== 'message' && !e.synthetic;
  const sel = key === selKey;
  // Long (opaque) ids: their tail is what differs from one event to the next.
  const idLabel = e.id === undefined ? '' : e.id.length > 14 ? `…${visibleLine(e.id.slice(-9), 12)}` : visibleLine(e.id, 14);
  const label = named ? `${idLabel ? `${idLabel} ` : ''}⟨${visibleLine(e.event, 16)}⟩` : idLabel || '·';
  els.push(
    <g key={`e${key}`} data-ev={key} id={`tl-ev-${li}-${i}`} role="option" aria-selected={sel} aria-label={visibleLine(`event ${e.id ?? '(no id)'} ${eventMethods(e)} ${e.findings.join(' ')}`.trim(), 200)} style={{ cursor: 'pointer' }}>
      {named ? (
        <rect className={`tl-ev tl-named${sev ? ` ${sev}` : ''}${sel ? ' sel' : ''}`} x={px - 4} y={y - 4} width={8} height={8} transform={`rotate(45 ${px} ${y})`} />
      ) : (
        <circle className={`tl-ev${sev ? ` ${sev}` : isRes ? ' res' : ''}${sel ? ' sel' : ''}`} cx={px} cy={y} r={sel ? 5.5 : 4} />
      )}
      {e.duplicate && <circle className="tl-dup" cx={px} cy={y} r={7} />}
    </g>,
  );
  if (e.id === undefined && !sev && !named) return; // no id to show
  const half = textW(label) / 2 + 3;
  const kind: string | undefined = sev ?? (named ? 'named' : undefined);
  const c = clusters[clusters.length - 1];
  if (c && c.kind === kind && kind !== 'summary' && !named && px - half < c.right) {
    c.last = label;
    c.n++;
    if (c.n === 2) c.x -= textW(c.first) / 2;
    c.right = Math.max(c.right, c.x + textW(`${c.first}…${label} (${c.n})`) + 6);
  } else clusters.push({ x: px, right: px + half, first: label, last: label, n: 1, sev, kind, key });
}

/** More findings in view than room for marks: one bar per column in the worst colour. */
function binSpecials(p: LaneInput, sp: readonly Special[], els: ReactNode[]): void {
  const { f, li, s } = p;
  const y = f.markY(li);
  const rank = new Map<number, number>();
  for (const x of sp) {
    const e = s.events.at(x.index)!;
    const sev = eventSev(p, x.index, e);
    const r = sev === 'err' ? 3 : sev === 'warn' ? 2 : e.messages.some((m) => m.kind === 'result' || m.kind === 'error') ? 1 : 0;
    const bin = Math.floor(f.x(x.t) / BIN_PX);
    if (r > (rank.get(bin) ?? -1)) rank.set(bin, r);
  }
  for (const [bin, r] of rank) els.push(<rect key={`b${li}:${bin}`} className={`tl-bin${RANK_CLASS[r]}`} x={bin * BIN_PX} y={y - 6} width={2} height={12} />);
}

/** Findings' labels first (they must be readable), then named events', then plain ids where room is left. */
function placeLabels(p: LaneInput, clusters: Cluster[], labelEls: ReactNode[]): void {
  const { f } = p;
  const g = f.g;
  const y = f.markY(p.li);
  const rows: [number, number][][] = [[], [...p.reserved], []];
  const free = (row: number, l: number, r: number) => rows[row]!.every(([a, b]) => r <= a || l >= b);
  const rest = clusters.filter((c) => c.kind !== 'summary');
  const ordered = [...rest.filter((c) => c.sev), ...rest.filter((c) => !c.sev && c.kind), ...rest.filter((c) => !c.kind)];
  for (const c of ordered) {
    const text = c.n === 1 ? c.first : `${c.first}…${c.last}${c.n > 2 ? ` (${c.n})` : ''}`;
    if (c.n > 1) c.x = Math.max(2, c.x);
    const l = c.n === 1 ? c.x - textW(text) / 2 : c.x;
    const r = l + textW(text) + 4;
    const row = free(0, l, r) ? 0 : free(1, l, r) ? 1 : c.kind && !g.compact && free(2, l, r) ? 2 : c.kind ? 0 : -1;
    if (row < 0) continue;
    rows[row]!.push([l, r]);
    labelEls.push(
      <text
        key={`el${c.key}`}
        className="tl-ev-label"
        x={c.x}
        y={row === 1 ? y + g.below : row === 2 ? y - 19 : y - 8}
        textAnchor={c.n === 1 ? 'middle' : 'start'}
        style={c.sev ? { fill: c.sev === 'err' ? 'var(--error)' : 'var(--warning)', fontWeight: 700 } : c.kind === 'named' ? { fill: 'var(--named)', fontWeight: 700 } : undefined}
      >
        {text}
      </text>,
    );
  }
  // The density's summary last, where nothing that matters took its place.
  for (const c of clusters) if (c.kind === 'summary' && free(0, c.x, c.right)) labelEls.push(c.label!);
}
