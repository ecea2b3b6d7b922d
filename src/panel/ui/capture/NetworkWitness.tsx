// Capture health in the live panel (issue 9): the toolbar's indicator (recording / not recording
// and why / the network witness disagreeing), the banner on the first screen when the network saw
// MCP requests the capture does not hold, and the empty state that never says "waiting" while the
// network shows MCP traffic. The data comes from the live layer through CaptureHealthContext
// (app/mount.tsx); the standalone viewer has none and these render nothing.

import { createContext, useContext, useState, useSyncExternalStore } from 'react';
import type { CaptureHealthSnapshot, CaptureHealthSource, UnseenRequest } from './network-witness-types';
import { summarizeIssues, type CaptureIssues } from './capture-health';
import { SevIcon } from '../common/SevIcon';
import { formatClock, visible, visibleLine } from '../common/text';

export const CaptureHealthContext = createContext<CaptureHealthSource | undefined>(undefined);

const noSub = () => () => {};
const none = () => undefined;

export function useCaptureHealth(): CaptureHealthSnapshot | undefined {
  const src = useContext(CaptureHealthContext);
  return useSyncExternalStore(src ? src.subscribe : noSub, src ? src.getSnapshot : none, src ? src.getSnapshot : none);
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
const ICON = { recording: '●', connecting: '◌', 'not-recording': '○', blind: '!' } as const;

/** In the toolbar: the capture's state in a word or two; the detail in its tooltip. */
export function CaptureHealthPill(props: { paused?: boolean }) {
  const h = useCaptureHealth();
  if (!h) return null;
  const paused = props.paused && h.state === 'recording';
  const label = paused ? 'Paused' : h.label;
  const detail = paused ? 'The view is paused (record button): capture continues and catches up when you resume.' : h.detail;
  return (
    <span className={`ch-pill ch-${paused ? 'paused' : h.state}`} data-testid="capture-health" data-state={paused ? 'paused' : h.state} title={detail} aria-label={`Capture: ${label}. ${detail}`} tabIndex={0}>
      <span aria-hidden="true" className="ch-icon">
        {paused ? '‖' : ICON[h.state]}
      </span>
      {label}
    </span>
  );
}

function bodyText(u: UnseenRequest): string {
  if (u.body === 'added') return 'body shown as the network kept it (observed after completion)';
  if (u.body === 'rebuilt') return "events shown as DevTools' EventStream view parsed them (observed by the network; Chrome kept no body)";
  if (u.body === 'pending') return 'body shown once it finishes (observed after completion)';
  if (u.body === 'not-kept') return 'the network view kept no body for it (a stream that broke or was cancelled)';
  return 'no body to show';
}

/** Under the toolbar, on the first screen: MCP requests the network saw and the capture does not hold. */
export function WitnessBanner() {
  const h = useCaptureHealth();
  const [open, setOpen] = useState(false);
  if (!h || h.unseen.length === 0) return null;
  const n = h.unseen.length;
  const count = `${plural(n, 'MCP request')} seen by the network but not captured`;
  const reasons = new Map<string, number>();
  for (const u of h.unseen) reasons.set(u.reasonText, (reasons.get(u.reasonText) ?? 0) + 1);
  const [topReason] = [...reasons.entries()].sort((a, b) => b[1] - a[1]);
  return (
    <div className="witness-banner" role="alert" data-testid="witness-banner" data-unseen={n} data-seen={h.seen}>
      <div className="witness-line">
        <SevIcon sev="error" />
        <strong data-testid="witness-count" title={count}>
          {count}
        </strong>
        {!open && topReason && <span className="witness-why">— likely {visibleLine(topReason[0], 240)}</span>}
        <button type="button" className="linkbtn" style={{ marginLeft: 'auto' }} aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="witness-toggle">
          {open ? 'Hide' : 'Details'}
        </button>
      </div>
      {open && (
        <>
          <div className="witness-note">
            The browser's network view (independent of the capture hook) saw these requests; the capture does not hold what the page read of them. Their bodies, where the
            network kept one, are shown marked "observed after completion" (transport network): no per-chunk timing, no page pacing.
          </div>
          <ul className="witness-list">
            {h.unseen.slice(0, 200).map((u, i) => (
              <li key={i} data-testid="witness-request">
                <span className="mono">{formatClock(u.t)}</span> <span className="mono">{visibleLine(`${u.method} ${u.url}`, 300)}</span>{' '}
                <span className="faint">({visibleLine(u.markers.join(', '), 120)})</span> — {visible(u.reasonText)}; {bodyText(u)}.
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The live panel's empty state: never "waiting" while the network shows MCP traffic. */
export function LiveEmptyState(props: { waiting: string }) {
  const h = useCaptureHealth();
  if (!h) return <>{props.waiting}</>;
  if (h.unseen.length > 0)
    return (
      <span data-testid="empty-blind">
        {`The network shows ${plural(h.seen, 'MCP request')} on this page, and the capture holds ${h.captured ? `only ${h.captured}` : 'none'} of them: ${plural(h.unseen.length, 'request')} not captured (see the banner above). `}
        {h.unseen.some((u) => u.body === 'pending') ? 'Their bodies appear here once they finish, observed after completion.' : ''}
      </span>
    );
  if (h.seen > 0) return <span data-testid="empty-checking">{`MCP traffic on the network: ${plural(h.seen, 'request')}; checking what the capture holds…`}</span>;
  if (h.state === 'not-recording') return <span data-testid="empty-not-recording">{`Not recording. ${h.detail}`}</span>;
  return <>{props.waiting}</>;
}

const WITNESS_CODES = new Set(['capture-gap:not-seen-by-hook', 'not-seen-by-hook']);

/**
 * The capture-notices strip without the network witness's gaps and notices, which the live panel shows in the
 * witness banner instead (one place per fact; the viewer, with no banner, keeps them in the strip).
 */
export function withoutWitnessGaps(issues: CaptureIssues): CaptureIssues {
  if (!issues.items.some((x) => WITNESS_CODES.has(x.code))) return issues;
  return summarizeIssues(issues.items.filter((x) => !WITNESS_CODES.has(x.code)));
}
