// What the timeline exists to show, drawn over the events: a server's gaps in place, between the
// events on either side, with the missing ids (hatched, in the error colour: the first thing the
// eye meets, even over a density of 100k events), and the reconnect links from a cut stream to the
// GET that resumed it, labelled with the Last-Event-ID sent.

import type { ReactNode } from 'react';
import type { AnalysisSnapshot, Finding, Stream } from '../../../core/model';
import { visibleLine } from '../common/text';
import { streamEnd } from './lanes';
import { textW, type Frame } from './geometry';

export const isGap = (f: Finding) => f.code === 'replay-gap' || f.code === 'live-gap';

/** Gaps (pushed to `els`: the caller draws them after the lanes' events, so that no density covers one); returns, per lane, the x ranges their labels take (the id labels keep clear of them). */
export function drawGaps(f: Frame, snap: AnalysisSnapshot, laneOf: ReadonlyMap<string, number>, findings: readonly Finding[], els: ReactNode[], labelEls: ReactNode[]): Map<number, [number, number][]> {
  const reserved = new Map<number, [number, number][]>();
  const placed: { gi: number; li: number; x1: number; x2: number; y: number; label: string; error: boolean; cx: number; half: number }[] = [];
  findings.filter(isGap).forEach((gf, gi) => {
    const s = gf.streamId ? snap.streams[gf.streamId] : undefined;
    const li = s ? laneOf.get(s.id) : undefined;
    if (!s || li === undefined || !f.laneVisible(li)) return;
    const idx = gf.eventIndex ?? (gf.code === 'replay-gap' ? 0 : undefined);
    if (idx === undefined) return;
    const after = s.events.at(idx);
    const before = idx > 0 ? s.events.at(idx - 1) : undefined;
    let x1 = f.x(before ? before.t : s.start) + 5;
    const x2 = f.x(after ? after.t : streamEnd(s)) - 5;
    const label = visibleLine(`ids ${gf.missing ?? gf.eventIds.join(', ')} missing`, 60);
    const need = Math.min(160, textW(label) + 10);
    // Too narrow at this zoom: drawn ending just before the event after the gap.
    if (x2 - x1 < need) x1 = x2 - need;
    placed.push({ gi, li, x1, x2, y: f.markY(li), label, error: gf.severity === 'error', cx: (x1 + x2) / 2, half: textW(label) / 2 + 4 });
  });
  // Two gaps close together on one lane (ids 12–13, then 15 after the one event between them):
  // each label keeps clear of the one before it, moved right, so both stay readable.
  placed.sort((a, b) => a.li - b.li || a.cx - b.cx);
  for (const p of placed) {
    const prev = reserved.get(p.li)?.at(-1);
    if (prev && p.cx - p.half < prev[1]) p.cx = prev[1] + p.half;
    reserved.set(p.li, [...(reserved.get(p.li) ?? []), [p.cx - p.half, p.cx + p.half]]);
    els.push(<rect key={`gp${p.gi}`} className={`tl-gap${p.error ? '' : ' soft'}`} x={p.x1} y={p.y - 8} width={Math.max(4, p.x2 - p.x1)} height={16} fill="url(#msi-hatch)" data-testid="timeline-gap" />);
    labelEls.push(
      <text key={`gpt${p.gi}`} className="tl-gap-label" x={p.cx} y={p.y + f.g.below + 1} textAnchor="middle">
        {p.label}
      </text>,
    );
  }
  return reserved;
}

export function drawLinks(f: Frame, snap: AnalysisSnapshot, lanes: readonly Stream[], laneOf: ReadonlyMap<string, number>, els: ReactNode[]): void {
  lanes.forEach((s, li) => {
    if (!s.resumes) return;
    const from = snap.streams[s.resumes];
    const fl = from ? laneOf.get(from.id) : undefined;
    if (!from || fl === undefined) return;
    if (!f.laneVisible(li) && !f.laneVisible(fl)) return;
    const x1 = f.x(streamEnd(from));
    const y1 = f.markY(fl) + 5;
    const x2 = f.x(s.start);
    const y2 = f.markY(li) - 5;
    els.push(<path key={`lk${li}`} className="tl-link" d={`M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`} markerEnd="url(#msi-arrow)" />);
    els.push(
      <text key={`lkt${li}`} className="tl-link-label" x={x1 + 10} y={f.markY(fl) + f.g.below}>
        {visibleLine(`↳ GET Last-Event-ID: ${s.lastEventIdSent ?? '(none)'}`, 40)}
      </text>,
    );
  });
}
