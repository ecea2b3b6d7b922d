import { useMemo, type KeyboardEvent } from 'react';
import type { AnalysisSnapshot, Finding, Session } from '../../../core/model';
import { sortFindings } from '../../../export/advice';
import type { FindingsIndex } from '../findings/findings-index';
import { SevIcon } from '../common/SevIcon';
import { shortId, visibleLine } from '../common/text';

function endpointLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url;
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

export function SessionsList(props: {
  snap: AnalysisSnapshot;
  /** Findings index kept by App (per session counts and worst in O(1)); else computed here. */
  findings?: FindingsIndex;
  findingsRev?: unknown;
  selectedKey: string | undefined;
  onSelect(key: string): void;
}) {
  const { snap, findings: index } = props;
  const stats = useMemo(() => {
    const m = new Map<string, { errors: number; warnings: number; worst?: string; sev?: 'error' | 'warning' | 'info' }>();
    for (const s of snap.sessions) {
      let errors: number, warnings: number, worst: Finding | undefined;
      if (index) {
        ({ errors, warnings } = index.counts(s.key));
        worst = index.worst(s.key);
      } else {
        const fs = snap.findings.filter((f) => f.sessionKey === s.key);
        worst = sortFindings(fs)[0];
        errors = fs.filter((f) => f.severity === 'error').length;
        warnings = fs.filter((f) => f.severity === 'warning').length;
      }
      m.set(s.key, { errors, warnings, ...(worst ? { worst: `${worst.code}${worst.requestId !== undefined ? ` (request ${worst.requestId})` : ''}`, sev: worst.severity } : {}) });
    }
    return m;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [snap.sessions, index ? props.findingsRev : snap.findings, index]);
  const sessions = snap.sessions;
  // Open streams that can still deliver something (a 202/204 answer has no body to wait for).
  const open = (s: Session) =>
    s.streamIds.reduce((n, id) => {
      const st = snap.streams[id];
      return n + (st?.state === 'open' && st.status !== 202 && st.status !== 204 ? 1 : 0);
    }, 0);
  const idx = sessions.findIndex((s) => s.key === props.selectedKey);
  const onKey = (e: KeyboardEvent) => {
    let to: number | undefined;
    if (e.key === 'ArrowDown') to = Math.min(sessions.length - 1, idx + 1);
    else if (e.key === 'ArrowUp') to = Math.max(0, idx - 1);
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = sessions.length - 1;
    if (to !== undefined && sessions[to]) {
      e.preventDefault();
      props.onSelect(sessions[to]!.key);
      document.getElementById(`session-opt-${to}`)?.scrollIntoView?.({ block: 'nearest' });
    }
  };
  return (
    <div className="sidebar">
      <div className="pane-title">{`Sessions (${sessions.length})`}</div>
      <div className="slist" role="listbox" aria-label="Sessions" tabIndex={0} onKeyDown={onKey} aria-activedescendant={idx >= 0 ? `session-opt-${idx}` : undefined} data-testid="sessions-list">
        {sessions.length === 0 && <div className="empty">No MCP traffic yet. Streamable HTTP requests of the inspected page appear here.</div>}
        {sessions.map((s: Session, i) => {
          const st = stats.get(s.key)!;
          const title = s.sessionId ? shortId(s.sessionId, 12) : `(no session) ${pathOf(s.endpoint)}`;
          return (
            <div
              key={s.key}
              id={`session-opt-${i}`}
              role="option"
              aria-selected={s.key === props.selectedKey}
              className="srow"
              data-testid="session-row"
              data-session-key={s.key}
              data-lossless={String(s.lossless)}
              onClick={() => props.onSelect(s.key)}
            >
              <div className="srow-l1">
                <span className="srow-id" title={visibleLine(s.sessionId ?? s.endpoint, 300)}>{visibleLine(title, 40)}</span>
                <span className="srow-badges">
                  {st.errors > 0 && <span className="sev-error"><SevIcon sev="error" /> {st.errors}</span>}
                  {st.warnings > 0 && <span style={{ color: 'var(--warning)' }}><SevIcon sev="warning" /> {st.warnings}</span>}
                  <span className={`pill ${s.lossless ? 'good' : 'bad'}`} data-testid="lossless-flag">{s.lossless ? 'lossless' : 'not lossless'}</span>
                </span>
              </div>
              <div className="srow-l2">{visibleLine(`${endpointLabel(s.endpoint)}${s.protocolVersion ? ` · rev ${s.protocolVersion}` : ''}`, 120)}</div>
              <div className="srow-l3">
                <span>{`${s.streamIds.length} stream${s.streamIds.length === 1 ? '' : 's'}, ${s.requestIds.length} req`}</span>
                <span>{`ids: ${s.idScheme.kind}`}</span>
                {!snap.finished && open(s) > 0 && <span className="ok" data-testid="open-streams">{`● ${open(s)} open`}</span>}
              </div>
              {st.worst && st.sev && (
                <div className="srow-worst" style={st.sev === 'error' ? undefined : { color: st.sev === 'warning' ? 'var(--warning)' : 'var(--info)' }}>
                  <SevIcon sev={st.sev} /> {visibleLine(st.worst, 80)}
                </div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
