import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useGridColumns, type Column } from '../common/grid';
import { useRows } from '../common/virtual';
import type { AnalysisSnapshot, RequestInfo, Verdict } from '../../../core/model';
import { ADVICE_LOSSY, lossDetail, VERDICT_TEXT } from '../../../export/advice';
import { formatRel, visible, visibleLine } from '../common/text';
import { SevIcon } from '../common/SevIcon';
import { JsonTree } from '../events/JsonTree';

const COLUMNS: readonly Column[] = [
  { label: 'Id', width: 70 },
  { label: 'Method', width: 140, flex: 1.3 },
  { label: 'Verdict', width: 150 },
  { label: 'Notif.', width: 64, className: 'num' },
  { label: 'Cumul.', width: 70, className: 'num' },
  { label: 'Response', width: 84 },
  { label: 'Duration', width: 74, className: 'num' },
  { label: 'Findings', width: 160, flex: 1.4 },
];
const VERDICT_ICON: Record<Verdict, string> = { complete: '✓', 'complete-unverified': '≈', lossy: '', incomplete: '✗', pending: '…' };
const VERDICT_CLASS: Record<Verdict, string> = { complete: 'ok', 'complete-unverified': 'sev-warning', lossy: 'sev-error', incomplete: 'sev-error', pending: 'dim' };

function toolOf(r: RequestInfo): string {
  const n = (r.params as { name?: unknown } | undefined)?.name;
  return typeof n === 'string' ? ` ${n}` : '';
}

export function RequestsView(props: { snap: AnalysisSnapshot; sessionKey: string | undefined; selectedId: string | undefined; onSelect(id: string): void; onShowEvent(streamId: string, index: number): void }) {
  const { snap, sessionKey } = props;
  const reqs = useMemo(() => (sessionKey ? (snap.requests[sessionKey] ?? []) : []), [snap, sessionKey]);
  const [focusIdx, setFocusIdx] = useState(0);
  const selIdx = reqs.findIndex((r) => r.id === props.selectedId);
  const sel = selIdx >= 0 ? reqs[selIdx] : undefined;
  const bodyRef = useRef<HTMLDivElement>(null);
  const cols = useGridColumns(COLUMNS);
  const v = useRows(reqs.length, bodyRef);
  const onKey = (e: KeyboardEvent) => {
    const cur = selIdx >= 0 ? selIdx : focusIdx;
    let to: number | undefined;
    if (e.key === 'ArrowDown') to = Math.min(reqs.length - 1, cur + 1);
    else if (e.key === 'ArrowUp') to = Math.max(0, cur - 1);
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = reqs.length - 1;
    else if (e.key === 'Enter' && sel?.responseStreamId) {
      // Enter: show the terminal response in the events table.
      const st = snap.streams[sel.responseStreamId];
      const i = st?.events.findIndex((ev) => ev.messages.some((m) => (m.kind === 'result' || m.kind === 'error') && m.id === sel.id)) ?? -1;
      if (st && i >= 0) {
        e.preventDefault();
        props.onShowEvent(st.id, i);
      }
      return;
    }
    if (to !== undefined && reqs[to]) {
      e.preventDefault();
      setFocusIdx(to);
      props.onSelect(reqs[to]!.id);
      v.scrollToIndex(to, { align: 'auto' });
    }
  };
  return (
    <div className="vsplit">
      <div className="top">
        <div className="grid" data-testid="requests-grid" style={cols.style}>
          <div className="grid-body" ref={bodyRef} tabIndex={0} onKeyDown={onKey} aria-activedescendant={selIdx >= 0 ? `req-row-${selIdx}` : undefined} role="grid" aria-label="Requests" aria-rowcount={reqs.length + 1}>
            <div className="grid-canvas" role="presentation" style={{ height: v.getTotalSize() }}>
            {cols.header}
            <div role="rowgroup">
            {v.getVirtualItems().map(({ index: i, start }) => { const r = reqs[i]!; return (
              <div
                key={r.id}
                id={`req-row-${i}`}
                role="row"
                aria-rowindex={i + 2}
                aria-selected={r.id === props.selectedId}
                className={`grid-row vrow${i % 2 ? ' odd' : ''}${r.verdict === 'lossy' || r.verdict === 'incomplete' ? ' row-error' : ''}`}
                style={{ transform: `translateY(${start}px)` }}
                data-testid="request-row"
                data-request-id={r.id}
                onClick={() => props.onSelect(r.id)}
              >
                <div role="gridcell" className="mono">{visibleLine(r.id, 30)}</div>
                <div role="gridcell">{visibleLine(`${r.method}${toolOf(r)}`, 80)}</div>
                <div role="gridcell" className={VERDICT_CLASS[r.verdict]} data-testid={`verdict-${r.id}`} data-verdict={r.verdict}>
                  {r.verdict === 'lossy' ? <SevIcon sev="error" /> : VERDICT_ICON[r.verdict]} {r.verdict}
                </div>
                <div role="gridcell" className="num">{r.notifications.length}</div>
                <div role="gridcell" className="num">{r.cumulativeCount}</div>
                <div role="gridcell">{r.response ?? '—'}</div>
                <div role="gridcell" className="num">{r.end !== undefined ? formatRel(r.end - r.start) : '—'}</div>
                <div role="gridcell" className="codes">{r.findings.join(', ')}</div>
              </div>
            ); })}
            </div>
            </div>
            {reqs.length === 0 && <div className="empty">No JSON-RPC requests in this session.</div>}
          </div>
        </div>
      </div>
      <div className="bottom">{sel && sessionKey ? <RequestDetail snap={snap} sessionKey={sessionKey} req={sel} onShowEvent={props.onShowEvent} /> : <div className="empty">Select a request to see its verdict, notifications and terminal response.</div>}</div>
    </div>
  );
}

function RequestDetail({ snap, sessionKey, req, onShowEvent }: { snap: AnalysisSnapshot; sessionKey: string; req: RequestInfo; onShowEvent(streamId: string, index: number): void }) {
  const d = req.verdict === 'lossy' ? lossDetail(snap, sessionKey, req) : undefined;
  const respStream = req.responseStreamId ? snap.streams[req.responseStreamId] : undefined;
  const respEv = respStream?.events.findIndex((e) => e.messages.some((m) => (m.kind === 'result' || m.kind === 'error') && m.id === req.id)) ?? -1;
  return (
    <div className="hsplit" data-testid="request-detail">
      <div>
        <div className="section-h">{visible(`Request ${req.id} · ${req.method}${toolOf(req)}`)}</div>
        <dl className="kv">
          <dt>verdict</dt>
          <dd className={`prose ${VERDICT_CLASS[req.verdict]}`}>{`${req.verdict} — ${VERDICT_TEXT[req.verdict]}`}</dd>
          {d && (
            <>
              <dt>missing ids</dt>
              <dd className="sev-error">{visible(d.missing ?? 'unknown')}</dd>
              <dt>cumulative</dt>
              <dd>{`${d.accumulated} notifications accumulated${d.implied !== undefined ? `; the ids imply up to ${d.implied}` : ''}`}</dd>
              <dt>what to do</dt>
              <dd className="prose" style={{ fontWeight: 600 }}>{ADVICE_LOSSY}</dd>
            </>
          )}
          <dt>findings</dt>
          <dd>{req.findings.join(', ') || '—'}</dd>
          <dt>progress token</dt>
          <dd>{req.progressToken !== undefined ? visible(req.progressToken) : '—'}</dd>
          <dt>request stream</dt>
          <dd>{visible(req.streamId)}</dd>
          <dt>terminal response</dt>
          <dd>
            {req.response ? `${req.response} on ${req.responseStreamId ?? '?'}` : 'none'}
            {respStream && respEv >= 0 && (
              <>
                {' '}
                <button type="button" className="linkbtn" onClick={() => onShowEvent(respStream.id, respEv)}>
                  Show event
                </button>
              </>
            )}
          </dd>
        </dl>
        {req.params !== undefined && (
          <>
            <div className="section-h">Params</div>
            <JsonTree value={req.params} />
          </>
        )}
      </div>
      <div>
        <div className="section-h">{`Notifications (${req.notifications.length})`}</div>
        <div role="list" aria-label="Notifications">
          {req.notifications.slice(0, 1000).map(([sid, idx], i, all) => {
            const e = snap.streams[sid]?.events[idx];
            if (!e) return null;
            const prev = i > 0 ? snap.streams[all[i - 1]![0]]?.events[all[i - 1]![1]] : undefined;
            const hole = d?.missing && prev ? missingBetween(d.missing, prev.id, e.id) : undefined;
            return (
              <div key={`${sid}:${idx}`} style={{ display: 'contents' }}>
                {hole && (
                  <div role="listitem" className="grid-row row-error" style={{ display: 'block' }} data-testid="notification-gap">
                    <div style={{ border: 0 }}>{visible(`⋯ ids ${hole} never delivered ⋯`)}</div>
                  </div>
                )}
                <div role="listitem" className="grid-row" style={{ gridTemplateColumns: '60px 1fr', display: 'grid' }} onClick={() => onShowEvent(sid, idx)}>
                  <div className="mono">{e.id !== undefined ? visibleLine(e.id, 20) : '—'}</div>
                  <div>{visibleLine(notificationSummary(e.data), 200)}</div>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** One line for a notification: progress as "progress 3/8 message", messages by their data. */
export function notificationSummary(data: string): string {
  try {
    const m = JSON.parse(data) as { method?: string; params?: Record<string, unknown> };
    const p = m.params ?? {};
    if (m.method === 'notifications/progress') return `progress ${String(p.progress)}${p.total !== undefined ? `/${String(p.total)}` : ''}${typeof p.message === 'string' ? ` ${p.message}` : ''}`;
    if (m.method === 'notifications/message') return `message [${String(p.level ?? '')}] ${typeof p.data === 'string' ? p.data : JSON.stringify(p.data)}`;
    return `${m.method ?? '?'} ${JSON.stringify(p)}`;
  } catch {
    return data;
  }
}

/** The part of a missing-ids text ("12–13, 20") that lies between two delivered ids, if any. */
export function missingBetween(missing: string, before: string | undefined, after: string | undefined): string | undefined {
  const num = (id: string | undefined) => {
    const m = id === undefined ? null : /(\d+)$/.exec(id);
    return m ? Number(m[1]) : undefined;
  };
  const a = num(before);
  const b = num(after);
  if (a === undefined || b === undefined || b - a < 2) return undefined;
  const hit = missing
    .split(/[,;]\s*/)
    .map((part) => part.trim())
    .filter((part) => {
      const m = /^(.*?)(\d+)(?:\s*[–—-]\s*(.*?)(\d+))?$/.exec(part);
      if (!m) return false;
      const lo = Number(m[2]);
      const hi = m[4] !== undefined ? Number(m[4]) : lo;
      return lo > a && hi < b;
    });
  return hit.length ? hit.join(', ') : undefined;
}
