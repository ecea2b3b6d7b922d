import { useRenderProbe } from '../common/render-probe';
import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import type { Session } from '../../../core/model';
import { useContextMenu, type MenuItem } from '../common/ContextMenu';
import { onRowKeys } from '../common/row-keys';
import { useCopy } from '../common/copy';
import { endpointLabel, pathOf } from '../common/labels';
import { SevIcon } from '../common/SevIcon';
import { shortId, visibleLine } from '../common/text';
import { useNavActions, useSelectedSessionKey } from '../navigation/NavigationProvider';
import { useViewModelPart } from '../store/StoreContext';
import type { SessionRow } from './session-rows';
import { EraBadge } from './SessionEra';
import { clientText } from '../../../core/presentation-eras';

/** Renders when its rows, the selection or "live" change, not per snapshot (rows are kept by the view model). */
export const SessionsList = memo(function SessionsList() {
  useRenderProbe('sessions');
  const rows = useViewModelPart((vm) => vm.sessions);
  const live = useViewModelPart((vm) => !vm.snap.finished);
  const sessionKey = useSelectedSessionKey();
  const act = useNavActions();
  const menu = useContextMenu();
  const copy = useCopy();
  const idx = rows.findIndex((r) => r.key === sessionKey);
  const items = (s: Session): MenuItem[] => [
    ...(s.sessionId ? [{ label: 'Copy session id', onSelect: () => copy(s.sessionId!, 'the session id'), testId: 'menu-copy-session-id' }] : []),
    { label: 'Copy endpoint URL', onSelect: () => copy(s.endpoint, 'the endpoint URL') },
  ];
  const onKey = (e: KeyboardEvent) =>
    onRowKeys(e, {
      index: idx,
      count: rows.length,
      move(to) {
        act.selectSession(rows[to]!.key);
        document.getElementById(`session-opt-${to}`)?.scrollIntoView?.({ block: 'nearest' });
      },
      copy: () => {
        const s = rows[idx]?.session;
        if (s) copy(s.sessionId ?? s.endpoint, s.sessionId ? 'the session id' : 'the endpoint URL');
      },
      menu() {
        const el = document.getElementById(`session-opt-${idx}`);
        if (el && rows[idx]) menu(el, items(rows[idx]!.session));
      },
    });
  return (
    <div className="sidebar">
      <div className="pane-title">{`Sessions (${rows.length})`}</div>
      <div className="slist" role="listbox" aria-label="Sessions" tabIndex={0} onKeyDown={onKey} aria-activedescendant={idx >= 0 ? `session-opt-${idx}` : undefined} data-testid="sessions-list">
        {rows.length === 0 && <div className="empty">No MCP traffic yet. Streamable HTTP requests of the inspected page appear here.</div>}
        {rows.map((r, i) => (
          <SessionOption key={r.key} row={r} i={i} selected={r.key === sessionKey} live={live} onSelect={() => act.selectSession(r.key)} onMenu={(e) => menu(e, items(r.session))} />
        ))}
      </div>
    </div>
  );
});

function SessionOption({ row, i, selected, live, onSelect, onMenu }: { row: SessionRow; i: number; selected: boolean; live: boolean; onSelect(): void; onMenu(e: MouseEvent): void }) {
  const s = row.session;
  const title = s.sessionId ? shortId(s.sessionId, 12) : s.era === 'modern' ? `${clientText(s.client)} · ${pathOf(s.endpoint)}` : `(no session) ${pathOf(s.endpoint)}`;
  const worst = row.worst;
  return (
    <div
      id={`session-opt-${i}`}
      role="option"
      aria-selected={selected}
      className="srow"
      data-testid="session-row"
      data-session-key={s.key}
      data-lossless={String(s.lossless)}
      onClick={onSelect}
      onContextMenu={(e) => {
        onSelect();
        onMenu(e);
      }}
    >
      <div className="srow-l1">
        <span className="srow-id" title={visibleLine(s.sessionId ?? s.endpoint, 300)}>{visibleLine(title, 40)}</span>
        <span className="srow-badges">
          {row.errors > 0 && <span className="sev-error"><SevIcon sev="error" /> {row.errors}</span>}
          {row.warnings > 0 && <span style={{ color: 'var(--warning)' }}><SevIcon sev="warning" /> {row.warnings}</span>}
          <EraBadge server={row.server} session={s} />
          <span className={`pill ${s.lossless ? 'good' : 'bad'}`} data-testid="lossless-flag">{s.lossless ? 'lossless' : 'not lossless'}</span>
        </span>
      </div>
      <div className="srow-l2">{visibleLine(`${endpointLabel(s.endpoint)}${s.protocolVersion ? ` · rev ${s.protocolVersion}` : ''}`, 120)}</div>
      <div className="srow-l3">
        <span>{`${s.streamIds.length} stream${s.streamIds.length === 1 ? '' : 's'}, ${s.requestIds.length} req`}</span>
        <span>{`ids: ${s.idScheme.kind}`}</span>
        {row.terminated && <span className="dim" data-testid="session-terminated">ended (DELETE)</span>}
        {live && row.open > 0 && <span className="ok" data-testid="open-streams">{`● ${row.open} open`}</span>}
      </div>
      {worst && (
        <div className="srow-worst" style={worst.severity === 'error' ? undefined : { color: worst.severity === 'warning' ? 'var(--warning)' : 'var(--info)' }}>
          <SevIcon sev={worst.severity} /> {visibleLine(`${worst.code}${worst.requestId !== undefined ? ` (request ${worst.requestId})` : ''}`, 80)}
        </div>
      )}
    </div>
  );
}
