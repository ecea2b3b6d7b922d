import { formatRel } from '../common/text';
import type { View } from './timeline-geom';

export interface BarActions {
  zoomIn(): void;
  zoomOut(): void;
  reset(): void;
  prevFinding(): void;
  nextFinding(): void;
}

/** The timeline's header: what is shown, the zoom and finding buttons (each with its key), the legend. */
export function TimelineBar({ lanes, view, t0, findings, act }: { lanes: number; view: View; t0: number; findings: number; act: BarActions }) {
  return (
    <div className="tl-bar">
      <span className="tl-range">{`${lanes} stream${lanes > 1 ? 's' : ''} · ${formatRel(view.start - t0)} – ${formatRel(view.end - t0)}`}</span>
      <span className="tl-tools" role="group" aria-label="Timeline zoom and findings">
        <button type="button" className="tb-btn" title="Zoom in (+)" aria-label="Zoom in" onClick={act.zoomIn} data-testid="tl-zoom-in">
          +
        </button>
        <button type="button" className="tb-btn" title="Zoom out (−)" aria-label="Zoom out" onClick={act.zoomOut} data-testid="tl-zoom-out">
          −
        </button>
        <button type="button" className="tb-btn" title="Whole session (0)" aria-label="Show the whole session" onClick={act.reset} data-testid="tl-reset">
          ⤢
        </button>
        <button type="button" className="tb-btn" title="Previous finding ([)" aria-label="Previous finding" disabled={!findings} onClick={act.prevFinding} data-testid="tl-prev-finding">
          ◂<span className="word"> finding</span>
        </button>
        <button type="button" className="tb-btn" title="Next finding (])" aria-label="Next finding" disabled={!findings} onClick={act.nextFinding} data-testid="tl-next-finding">
          <span className="word">finding </span>▸
        </button>
      </span>
      <span className="faint tl-hint">wheel zoom · drag pan · ←/→ event · ↑/↓ lane · [ ] finding · Enter open</span>
      <span className="tl-legend" aria-hidden="true">
        <span><span style={{ color: 'var(--mark-fill)' }}>●</span> event</span>
        <span><span className="tl-legend-density">▮</span> many events</span>
        <span><span className="ok">●</span> result</span>
        <span><span className="sev-error">●</span> finding</span>
        <span><span style={{ color: 'var(--named)' }}>◆</span> named event</span>
        <span><span className="sev-error">▨</span> server gap</span>
        <span style={{ color: 'var(--capture)' }}>┆ capture-gap (inspector)</span>
        <span style={{ color: 'var(--accent)' }}>⤷ reconnect</span>
      </span>
    </div>
  );
}
