import { useRenderProbe } from '../common/render-probe';
import { useState } from 'react';
import type { CaptureIssues } from './capture-health';
import { SevIcon } from '../common/SevIcon';
import { formatClock, visible, visibleLine } from '../common/text';

/** A strip under the toolbar: the inspector's own notices and lost records, never silent. */
export function CaptureNotices(props: { issues: CaptureIssues }) {
  const { issues } = props;
  useRenderProbe('capture-notices');
  const [open, setOpen] = useState(false);
  if (!issues.items.length) return null;
  const worst = issues.worst ?? 'info';
  const first = issues.items[0]!;
  const label = `Capture: ${visibleLine(issues.summary, 300)}`;
  return (
    <div className={`capture-notices level-${worst}`} role={worst === 'info' ? 'status' : 'alert'} data-testid="capture-notices" data-worst={worst} data-gaps={issues.gaps} data-notices={issues.notices}>
      <div className="capture-notices-line">
        {worst !== 'info' && <SevIcon sev={worst} />}
        <strong title={label}>{label}</strong>
        {!open && <span className="capture-notices-first">{visibleLine(`${first.code}: ${first.message}`, 200)}</span>}
        <button type="button" className="linkbtn" style={{ marginLeft: 'auto' }} aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="capture-notices-toggle">
          {open ? 'Hide' : 'Details'}
        </button>
      </div>
      {open && (
        <ul className="capture-notices-list">
          {issues.items.map((x, i) => (
            <li key={i} className={`sev-${x.level}`} data-testid="capture-notice" data-kind={x.kind} data-code={x.code}>
              <span className="mono">{formatClock(x.t)}</span> <span className="mono">{visibleLine(x.code, 60)}</span>
              {x.count > 1 ? ` ×${x.count}` : ''} <span className="faint">({visibleLine(x.src, 60)})</span> — {visible(x.message)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
