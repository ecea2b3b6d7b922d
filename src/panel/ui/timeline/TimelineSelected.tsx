import { eventMethods } from '../common/labels';
import { formatRel, visibleLine } from '../common/text';
import { useNavActions, useSelection } from '../navigation/NavigationProvider';
import type { EventRef } from '../navigation/state';
import { useViewModel } from '../store/StoreContext';

/** The selected event in one line under the lanes, with the way to its row in the table. */
export function TimelineSelected({ ev }: { ev: EventRef }) {
  const snap = useViewModel().snap;
  const { view } = useSelection();
  const act = useNavActions();
  const e = snap.streams[ev.streamId]?.events.at(ev.index);
  if (!e || !view) return null;
  return (
    <div className="tl-selected" data-testid="timeline-selected">
      <span className="dim">Selected:</span>
      <span className="mono">{visibleLine(`id ${e.id ?? '(none)'}`, 60)}</span>
      <span>{visibleLine(eventMethods(e) || e.event, 80)}</span>
      <span className="dim">{visibleLine(`${view.lanes.labels.get(ev.streamId) ?? ''} · ${formatRel(e.t - view.lanes.t0)}`, 100)}</span>
      {e.findings.length > 0 && <span className="sev-error">{e.findings.join(', ')}</span>}
      {e.duplicate && <span className="sev-warning">duplicate id</span>}
      <button type="button" className="linkbtn" onClick={() => act.showEvent(ev)}>
        Open in Events
      </button>
    </div>
  );
}
