// What the timeline draws for a 2026-07-28 conversation (issue 12), the way reconnect links are
// drawn for the legacy era: a re-issue from the broken stream's end to the stream of the request
// that re-issued it, an MRTR retry from the input_required answer to the retry, and the outage
// window of a dropped subscription (from the drop to the next listen, or to the end of the view):
// change notifications in it are unknown.

import type { ReactNode } from 'react';
import type { AnalysisSnapshot, Session } from '../../../core/model';
import { linkLabel } from '../../../core/presentation-eras';
import { visibleLine } from '../common/text';
import { streamEnd } from './lanes';
import type { Frame } from './geometry';

export function drawModern(f: Frame, snap: AnalysisSnapshot, session: Session | undefined, laneOf: ReadonlyMap<string, number>, els: ReactNode[], labelEls: ReactNode[]): void {
  if (!session) return;
  (session.links ?? []).forEach((l, i) => {
    const fl = laneOf.get(l.fromStreamId);
    const tl = laneOf.get(l.toStreamId);
    if (fl === undefined || tl === undefined || (!f.laneVisible(fl) && !f.laneVisible(tl))) return;
    const from = snap.streams[l.fromStreamId];
    const x1 = f.x(l.kind === 'reissue' && from ? streamEnd(from) : l.t0);
    const y1 = f.markY(fl) + 5;
    const x2 = f.x(l.t1);
    const y2 = f.markY(tl) - 5;
    els.push(
      <path
        key={`ml${i}`}
        className={`tl-link tl-mlink${l.stateAltered ? ' altered' : ''}`}
        d={`M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`}
        markerEnd="url(#msi-arrow)"
        data-testid="timeline-request-link"
        data-kind={l.kind}
      />,
    );
    labelEls.push(
      <text key={`mlt${i}`} className={`tl-link-label${l.stateAltered ? ' tl-cut' : ''}`} x={x1 + 10} y={f.markY(fl) + f.g.below}>
        {visibleLine(linkLabel(l), 40)}
      </text>,
    );
  });
  (session.subscriptions ?? []).forEach((x, i) => {
    const li = laneOf.get(x.streamId);
    if (!x.outage || li === undefined || !f.laneVisible(li)) return;
    const x1 = Math.max(-10, f.x(x.outage.from));
    const x2 = Math.min(f.width + 10, x.outage.to !== undefined ? f.x(x.outage.to) : f.width + 10);
    if (x2 < 0 || x1 > f.width) return;
    const y = f.markY(li);
    els.push(<rect key={`og${i}`} className="tl-gap soft tl-outage" x={x1} y={y - 8} width={Math.max(4, x2 - x1)} height={16} fill="url(#msi-hatch)" data-testid="timeline-outage" />);
    labelEls.push(
      <text key={`ogt${i}`} className="tl-gap-label tl-outage-label" x={Math.max(x1, 0) + 4} y={y + f.g.below + 1}>
        {visibleLine(x.outage.to !== undefined ? `outage until listen ${x.outage.relistenRequestId ?? ''}: changes unknown` : 'outage: changes unknown', 60)}
      </text>,
    );
  });
}

/**
 * The stream of a conversation's first loss the timeline opens on when no gap or error finding
 * names one: a re-issue's second attempt (the broken one is the lane above it), or a dropped
 * subscription (its outage window).
 */
export function modernTargetStream(session: Session | undefined): string | undefined {
  const link = session?.links?.find((l) => l.kind === 'reissue' || l.stateAltered);
  const sub = session?.subscriptions?.find((x) => x.state === 'dropped' && x.coveredBy === undefined);
  return link?.toStreamId ?? sub?.streamId;
}
