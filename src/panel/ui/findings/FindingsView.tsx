import { useMemo, useRef, type KeyboardEvent } from 'react';
import type { AnalysisSnapshot, Finding } from '../../../core/model';
import { sortFindings } from '../../../export/advice';
import { SevIcon } from '../common/SevIcon';
import { visible, visibleLine } from '../common/text';
import { useGridColumns, type Column } from '../common/grid';
import { useRows } from '../common/virtual';

/** Identity of a finding across snapshots (objects are rebuilt on every analysis). */
export function findingKey(f: Finding): string {
  return [f.code, f.sessionKey, f.streamId ?? '', f.requestId ?? '', f.eventIndex ?? '', f.eventIds.join(',')].join('\u0000');
}

const COLUMNS: readonly Column[] = [
  { label: 'Severity', width: 84 },
  { label: 'Code', width: 190 },
  { label: 'Request', width: 70 },
  { label: 'Event ids', width: 100, flex: 0.6 },
  { label: 'Explanation', width: 260, flex: 2 },
];

export function FindingsView(props: {
  snap: AnalysisSnapshot;
  sessionKey: string | undefined;
  /** The session's findings already sorted worst first (App keeps them incrementally); else sorted here. */
  sorted?: Finding[];
  codeFilter: string[];
  selected: Finding | undefined;
  onSelect(f: Finding): void;
  onShowTimeline(f: Finding): void;
  onShowEvents(f: Finding): void;
}) {
  const { snap, sessionKey } = props;
  const list = useMemo(() => {
    const fs = props.sorted ?? sortFindings(snap.findings.filter((f) => sessionKey === undefined || f.sessionKey === sessionKey));
    return props.codeFilter.length ? fs.filter((f) => props.codeFilter.some((c) => f.code.includes(c))) : fs;
  }, [props.sorted, props.sorted ? undefined : snap, sessionKey, props.codeFilter]);
  const selKey = props.selected ? findingKey(props.selected) : undefined;
  const selIdx = useMemo(() => (selKey === undefined ? -1 : list.findIndex((f) => findingKey(f) === selKey)), [list, selKey]);
  const bodyRef = useRef<HTMLDivElement>(null);
  const cols = useGridColumns(COLUMNS);
  const v = useRows(list.length, bodyRef);
  const sel = selIdx >= 0 ? list[selIdx] : undefined;
  const onKey = (e: KeyboardEvent) => {
    let to: number | undefined;
    if (e.key === 'ArrowDown') to = Math.min(list.length - 1, selIdx + 1);
    else if (e.key === 'ArrowUp') to = Math.max(0, selIdx - 1);
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = list.length - 1;
    else if (e.key === 'Enter' && sel) {
      e.preventDefault();
      props.onShowTimeline(sel);
      return;
    }
    if (to !== undefined && list[to]) {
      e.preventDefault();
      props.onSelect(list[to]!);
      v.scrollToIndex(to, { align: 'auto' });
    }
  };
  return (
    <div className="vsplit">
      <div className="top">
        <div className="grid" data-testid="findings-grid" style={cols.style}>
          <div className="grid-body" ref={bodyRef} tabIndex={0} onKeyDown={onKey} aria-activedescendant={selIdx >= 0 ? `finding-row-${selIdx}` : undefined} role="grid" aria-label="Findings" aria-rowcount={list.length + 1}>
            <div className="grid-canvas" role="presentation" style={{ height: v.getTotalSize() }}>
            {cols.header}
            <div role="rowgroup">
            {v.getVirtualItems().map(({ index: i, start }) => { const f = list[i]!; return (
              <div
                key={i}
                id={`finding-row-${i}`}
                role="row"
                aria-rowindex={i + 2}
                aria-selected={i === selIdx}
                className={`grid-row vrow${i % 2 ? ' odd' : ''}${f.severity === 'error' ? ' row-error' : ''}`}
                style={{ transform: `translateY(${start}px)` }}
                data-testid="finding-row"
                data-code={f.code}
                data-severity={f.severity}
                onClick={() => props.onSelect(f)}
                onDoubleClick={() => props.onShowTimeline(f)}
              >
                <div role="gridcell" className={`sev-${f.severity}`}><SevIcon sev={f.severity} /> {f.severity}</div>
                <div role="gridcell" className="mono">{f.code}</div>
                <div role="gridcell" className="mono">{f.requestId !== undefined ? visibleLine(f.requestId, 20) : '—'}</div>
                <div role="gridcell" className="mono">{visibleLine(f.missing ? `missing ${f.missing}` : f.eventIds.slice(0, 8).join(', '), 80)}</div>
                <div role="gridcell">{visibleLine(`${f.pending ? '(pending — may still change while streams are open) ' : ''}${f.message}`, 300)}</div>
              </div>
            ); })}
            </div>
            </div>
            {list.length === 0 && <div className="empty">No findings{sessionKey ? ' in this session' : ''}.</div>}
          </div>
        </div>
      </div>
      <div className="bottom">
        {sel ? (
          <div data-testid="finding-detail">
            <div className="section-h">
              <SevIcon sev={sel.severity} /> <span className="mono">{sel.code}</span>
            </div>
            <dl className="kv">
              <dt>explanation</dt>
              <dd className="prose">{visible(sel.message)}</dd>
              <dt>session</dt>
              <dd>{visible(sel.sessionId ?? sel.sessionKey)}</dd>
              {sel.streamId && (
                <>
                  <dt>stream</dt>
                  <dd>{visible(sel.streamId + (sel.relatedStreamIds?.length ? ` (related: ${sel.relatedStreamIds.join(', ')})` : ''))}</dd>
                </>
              )}
              {sel.requestId !== undefined && (
                <>
                  <dt>request</dt>
                  <dd>{visible(sel.requestId)}</dd>
                </>
              )}
              {sel.missing && (
                <>
                  <dt>missing ids</dt>
                  <dd className="sev-error">{visible(sel.missing)}</dd>
                </>
              )}
              <dt>event ids</dt>
              <dd>{visibleLine(sel.eventIds.join(', ') || '—', 2000)}</dd>
            </dl>
            <div style={{ padding: '0 8px 8px' }}>
              <button type="button" className="linkbtn" onClick={() => props.onShowTimeline(sel)}>
                Show in timeline
              </button>
              <button type="button" className="linkbtn" onClick={() => props.onShowEvents(sel)}>
                Show in events
              </button>
            </div>
          </div>
        ) : (
          <div className="empty">Select a finding to see its explanation; Enter or double-click shows it in the timeline.</div>
        )}
      </div>
    </div>
  );
}
