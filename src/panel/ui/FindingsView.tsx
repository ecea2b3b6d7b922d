import { useMemo, useRef, type KeyboardEvent } from 'react';
import type { AnalysisSnapshot, Finding } from '../../core/model';
import { sortFindings } from '../../export/advice';
import { SevIcon } from './SevIcon';
import { visible, visibleLine } from './text';
import { useRows } from './virtual';

/** Identity of a finding across snapshots (objects are rebuilt on every analysis). */
export function findingKey(f: Finding): string {
  return [f.code, f.sessionKey, f.streamId ?? '', f.requestId ?? '', f.eventIndex ?? '', f.eventIds.join(',')].join('\u0000');
}

const COLS = '84px 190px 70px minmax(100px,0.6fr) minmax(260px,2fr)';

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
        <div className="grid" role="grid" aria-label="Findings" aria-rowcount={list.length + 1} data-testid="findings-grid">
          <div className="grid-head" role="row" style={{ gridTemplateColumns: COLS }}>
            <div role="columnheader">Severity</div>
            <div role="columnheader">Code</div>
            <div role="columnheader">Request</div>
            <div role="columnheader">Event ids</div>
            <div role="columnheader">Explanation</div>
          </div>
          <div className="grid-body" ref={bodyRef} role="rowgroup" tabIndex={0} onKeyDown={onKey} aria-activedescendant={selIdx >= 0 ? `finding-row-${selIdx}` : undefined}>
            {list.length === 0 && <div className="empty">No findings{sessionKey ? ' in this session' : ''}.</div>}
            <div role="presentation" style={{ height: v.getTotalSize(), position: 'relative' }}>
            {v.getVirtualItems().map(({ index: i, start }) => { const f = list[i]!; return (
              <div
                key={i}
                id={`finding-row-${i}`}
                role="row"
                aria-rowindex={i + 2}
                aria-selected={i === selIdx}
                className={`grid-row${i % 2 ? ' odd' : ''}${f.severity === 'error' ? ' row-error' : ''}`}
                style={{ gridTemplateColumns: COLS, position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${start}px)` }}
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
