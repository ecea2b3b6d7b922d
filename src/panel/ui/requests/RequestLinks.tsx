// A 2026-07-28 request's links in its detail (issue 12): the request it re-issues or that re-issued
// it, the input_required result it retries (MRTR) or the retry that answered it, and its
// resultType. Each linked request opens on a click, as the timeline's link arrows lead to it.
import type { RequestInfo } from '../../../core/model';
import { visibleLine } from '../common/text';
import { useNavActions } from '../navigation/NavigationProvider';

const ROWS: [keyof RequestInfo & ('reissueOf' | 'reissuedAs' | 'retryOf' | 'retriedAs' | 'carriesFrom' | 'carriedInto'), string][] = [
  ['reissueOf', 're-issues (its stream broke)'],
  ['reissuedAs', 're-issued as (its stream broke)'],
  ['retryOf', 'MRTR retry of'],
  ['retriedAs', 'input_required answered by'],
  // issue 19: text of a lossy, unverifiable or partial output carried into a later request
  ['carriesFrom', 'carries lossy/partial output of'],
  ['carriedInto', 'its lossy/partial output carried into'],
];

export function RequestLinks({ req }: { req: RequestInfo }) {
  const act = useNavActions();
  const rows = ROWS.filter(([k]) => req[k] !== undefined);
  if (rows.length === 0 && req.resultType === undefined) return null;
  return (
    <>
      {req.resultType !== undefined && (
        <>
          <dt>resultType</dt>
          <dd className="mono">{visibleLine(req.resultType, 40)}</dd>
        </>
      )}
      {rows.map(([k, label]) => (
        <span key={k} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>
            <button type="button" className="linkbtn inline" data-testid={`request-${k}`} onClick={() => act.selectRequest(req[k])}>
              {visibleLine(`request ${req[k]}`, 80)}
            </button>
          </dd>
        </span>
      ))}
    </>
  );
}
