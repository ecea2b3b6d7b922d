import { useState } from 'react';
import type { Finding } from '../../../core/model';
import { adviceFor, lossDetail } from '../../../core/presentation';
import { toolName as toolOf } from '../common/labels';
import { SevIcon } from '../common/SevIcon';
import { visible } from '../common/text';
import { useNavActions } from '../navigation/NavigationProvider';
import { useViewModel } from '../store/StoreContext';
import { findingMessage } from './finding-target';
import { useFindingActions } from './use-finding-menu';

/**
 * The worst finding of the selected session, shown above the tabs on the first screen.
 * `compact`: collapsed to its header line (code, request, missing ids) unless the user opened it —
 * the first screen (timeline) shows it whole, the other tabs keep their room for the grids.
 */
export function Callout(props: { finding: Finding; more: number; compact?: boolean }) {
  const { finding: f, more } = props;
  const vm = useViewModel();
  const snap = vm.snap;
  const act = useNavActions();
  const { copyMarkdown } = useFindingActions();
  const req = f.requestId !== undefined ? (snap.requests[f.sessionKey] ?? []).find((r) => r.id === f.requestId) : undefined;
  const lossy = f.code === 'lossy-result-accepted' && req;
  const d = lossy ? lossDetail(snap, f.sessionKey, req) : undefined;
  const [userOpen, setOpen] = useState<boolean | undefined>(undefined);
  const open = userOpen ?? !props.compact;
  const toolName = req ? toolOf(req.params) : '';
  // A tool call sent again (issue 19): the header line names the attempt it repeats.
  const rerunOf = (f.code === 'destructive-tool-rerun' || f.code === 'tool-rerun-risk') && f.relatedRequestIds?.length ? f.relatedRequestIds[0] : undefined;
  // In the header while collapsed; next to the other buttons when open (a long header line would
  // otherwise push it onto a line of its own).
  const moreBtn = (
    <button type="button" className="linkbtn" onClick={() => act.openFinding(f)} style={{ marginLeft: open ? undefined : 'auto' }}>
      {`+${more} more finding${more > 1 ? 's' : ''}`}
    </button>
  );
  return (
    <section className={`callout ${f.severity}${open ? '' : ' compact'}`} data-testid="worst-finding" data-code={f.code} aria-label="Worst finding">
      <div className="callout-h">
        <button type="button" className="jt-toggle" aria-expanded={open} aria-label={open ? 'Collapse' : 'Expand'} onClick={() => setOpen(!open)}>
          {open ? '▾' : '▸'}
        </button>
        <SevIcon sev={f.severity} />
        <span className="callout-code">{f.code}</span>
        {f.injected && (
          <span className="fx-injected-tag" data-testid="finding-injected" title={visible(f.injected.text)}>
            {f.injected.origin === 'panel' ? '⚡ injected from the panel' : '⚡ injected by serve --fault'}
          </span>
        )}
        {req && <span>{visible(`request ${req.id} (${req.method}${toolName})`)}</span>}
        {rerunOf !== undefined && (
          <span className={f.severity === 'error' ? 'sev-error' : undefined} data-testid="callout-rerun-of" title={visible(`sent again after request ${rerunOf}: the tool may have run twice`)}>
            {visible(`repeats request ${rerunOf}`)}
          </span>
        )}
        {f.missing && <span className="sev-error">{visible(`missing ids ${f.missing}`)}</span>}
        {!f.missing && d?.missing && <span className="sev-error">{visible(`missing ids ${d.missing}`)}</span>}
        {f.pending && open && <span className="dim">(pending: another open stream of the session may still deliver these ids)</span>}
        {more > 0 && !open && moreBtn}
      </div>
      {open && <p>{visible(findingMessage(vm, f))}</p>}
      {open && d && (
        <div className="callout-facts" data-testid="lossy-detail">
          {d.missing && (
            <span>
              {'Lost event ids: '}
              <b>{visible(d.missing)}</b>
              {d.missingCount !== undefined ? ` (${d.missingCount})` : ''}
            </span>
          )}
          <span>
            {'Cumulative notifications accumulated: '}
            <b>{d.accumulated}</b>
            {d.implied !== undefined ? ` — the ids imply up to ${d.implied}` : ''}
          </span>
          <span>
            {'Verdict: '}
            <b className="sev-error">lossy</b>
          </span>
        </div>
      )}
      {/* A short panel keeps the lossy result's advice only: the others are in the finding's detail. */}
      {open && adviceFor(f.code) && <p className={`callout-advice${f.code === 'lossy-result-accepted' ? '' : ' secondary'}`}>{`What to do: ${adviceFor(f.code)!}`}</p>}
      <div hidden={!open}>
        <button type="button" className="linkbtn" onClick={() => act.showFindingInTimeline(f)} data-testid="show-in-timeline">
          Show in timeline
        </button>
        <button type="button" className="linkbtn" onClick={() => act.showFindingInEvents(f)} data-testid="show-events">
          Show events
        </button>
        <button type="button" className="linkbtn" onClick={() => copyMarkdown(f)} data-testid="callout-copy-markdown">
          Copy as Markdown
        </button>
        {more > 0 && open && moreBtn}
      </div>
    </section>
  );
}
