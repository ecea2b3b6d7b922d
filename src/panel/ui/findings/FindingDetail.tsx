import type { Finding } from '../../../core/model';
import { adviceFor } from '../../../core/presentation';
import { SevIcon } from '../common/SevIcon';
import { visible, visibleLine } from '../common/text';
import { useNavActions } from '../navigation/NavigationProvider';
import { useViewModel } from '../store/StoreContext';
import { findingMessage } from './finding-target';
import { useFindingActions } from './use-finding-menu';

/** The selected finding: its explanation, where it is (streams by their lane labels), and actions. */
export function FindingDetail({ finding: f }: { finding: Finding }) {
  const act = useNavActions();
  const vm = useViewModel();
  const { copyMarkdown, lane } = useFindingActions();
  return (
    <div data-testid="finding-detail">
      <div className="section-h">
        <SevIcon sev={f.severity} /> <span className="mono">{f.code}</span>
      </div>
      <dl className="kv">
        {f.injected && (
          <>
            <dt>cause</dt>
            <dd className="prose" data-testid="finding-cause">
              <span className="fx-injected-tag">{f.injected.origin === 'panel' ? '⚡ injected from the panel' : '⚡ injected by serve --fault'}</span> {visibleLine(f.injected.text, 300)} — not the server
            </dd>
          </>
        )}
        <dt>explanation</dt>
        <dd className="prose">{visible(findingMessage(vm, f))}</dd>
        {adviceFor(f.code) && (
          <>
            <dt>what to do</dt>
            <dd className="prose" style={{ fontWeight: 600 }} data-testid="finding-advice">
              {adviceFor(f.code)}
            </dd>
          </>
        )}
        <dt>session</dt>
        <dd>{visible(f.sessionId ?? f.sessionKey)}</dd>
        {f.streamId && (
          <>
            <dt>stream</dt>
            <dd data-testid="finding-streams">
              <button type="button" className="linkbtn inline" onClick={() => act.showStreamInTimeline(f.streamId!)}>
                {visibleLine(lane(f.streamId), 120)}
              </button>
              {(f.relatedStreamIds ?? []).length > 0 && ' related: '}
              {(f.relatedStreamIds ?? []).map((id) => (
                <button key={id} type="button" className="linkbtn inline" onClick={() => act.showStreamInTimeline(id)}>
                  {visibleLine(lane(id), 120)}
                </button>
              ))}
            </dd>
          </>
        )}
        {f.requestId !== undefined && (
          <>
            <dt>request</dt>
            <dd>
              <button type="button" className="linkbtn inline" onClick={() => act.openRequest(f.sessionKey, f.requestId!)}>
                {visibleLine(f.requestId, 60)}
              </button>
            </dd>
          </>
        )}
        {f.missing && (
          <>
            <dt>missing ids</dt>
            <dd className="sev-error">{visible(f.missing)}</dd>
          </>
        )}
        <dt>event ids</dt>
        <dd>{visibleLine(f.eventIds.join(', ') || '—', 2000)}</dd>
      </dl>
      <div className="actions-row">
        <button type="button" className="linkbtn" onClick={() => act.showFindingInTimeline(f)}>
          Show in timeline
        </button>
        <button type="button" className="linkbtn" onClick={() => act.showFindingInEvents(f)}>
          Show in events
        </button>
        <button type="button" className="linkbtn" onClick={() => copyMarkdown(f)} data-testid="copy-finding-markdown">
          Copy as Markdown
        </button>
      </div>
    </div>
  );
}
