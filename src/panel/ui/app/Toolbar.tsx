import { useRenderProbe } from '../common/render-probe';
import { memo, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useNav, useNavDispatch } from '../navigation/NavigationProvider';
import type { ExportKind, SourceControls, SourceStatus } from '../store/types';
import { CaptureHealthPill } from '../capture/NetworkWitness';
import { FaultsButton } from '../faults/FaultsMenu';
import { useAnchoredMenu } from './anchored-menu';
import { useViewModelPart } from '../store/StoreContext';

const KINDS: [ExportKind, string][] = [
  ['json', 'JSON (capture file)'],
  ['har', 'HAR 1.2 (with SSE events)'],
  ['trace', 'Perfetto / chrome://tracing trace'],
  ['otlp', 'OpenTelemetry (OTLP/JSON)'],
  ['markdown', 'Markdown report'],
];

/** Renders with its own state (filter, menu, status); the counts at its end render per snapshot alone. */
export const Toolbar = memo(function Toolbar(props: {
  mode: 'devtools' | 'viewer';
  controls: SourceControls | undefined;
  status: SourceStatus | undefined;
  filterRef: RefObject<HTMLInputElement | null>;
  onImport(): void;
  onExport(kind: ExportKind, scope: 'all' | 'session'): void;
  hasSession: boolean;
}) {
  const { controls, status } = props;
  useRenderProbe('toolbar');
  const filter = useNav().filter;
  const dispatch = useNavDispatch();
  const onFilter = (text: string) => dispatch({ type: 'set-filter', text });
  const [menu, setMenu] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const btnRef = useRef<HTMLButtonElement>(null);
  useAnchoredMenu(menu, btnRef, menuRef);
  useEffect(() => {
    if (menu) menuRef.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [menu]);
  useEffect(() => {
    if (!menu) return;
    const close = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node) && e.target !== btnRef.current) setMenu(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [menu]);
  const onMenuKey = (e: KeyboardEvent) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      setMenu(false);
      btnRef.current?.focus();
    } else if (e.key === 'Tab') setMenu(false);
  };
  const pick = (k: ExportKind, scope: 'all' | 'session') => {
    setMenu(false);
    props.onExport(k, scope);
  };
  return (
    <div className="tb" role="toolbar" aria-label="Inspector toolbar">
      {props.mode === 'devtools' && controls && status && (
        <>
          <button
            type="button"
            className="tb-btn rec"
            aria-pressed={status.recording}
            title={status.recording ? 'Stop recording' : 'Record'}
            aria-label={status.recording ? 'Stop recording' : 'Record'}
            data-testid="tb-record"
            onClick={() => controls.setRecording(!status.recording)}
          >
            <span aria-hidden="true" style={{ fontSize: 13 }}>{status.recording ? '●' : '○'}</span>
          </button>
          <button type="button" className="tb-btn" title="Clear" aria-label="Clear" data-testid="tb-clear" onClick={() => controls.clear()}>
            <span aria-hidden="true">⊘</span>
          </button>
          <span className="tb-sep" />
          <label className="tb-check">
            <input type="checkbox" checked={status.preserveLog} data-testid="preserve-log" onChange={(e) => controls.setPreserveLog(e.target.checked)} />
            Preserve log
          </label>
          <span className="tb-sep" />
        </>
      )}
      <input
        ref={props.filterRef}
        className="tb-filter"
        type="search"
        placeholder='Filter: text, "phrase", method:, request:, code:, -exclude'
        aria-label="Filter events and findings"
        value={filter}
        data-testid="tb-filter"
        onChange={(e) => onFilter(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            if (filter) onFilter('');
            else (e.target as HTMLInputElement).blur();
            e.stopPropagation();
          }
        }}
      />
      <button type="button" className="tb-btn" title="Search every session (Ctrl+Shift+F)" aria-label="Search every session" data-testid="tb-search" onClick={() => dispatch({ type: 'search-open' })}>
        <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" style={{ verticalAlign: -1 }}>
          <circle cx="5" cy="5" r="3.6" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <line x1="7.7" y1="7.7" x2="11" y2="11" stroke="currentColor" strokeWidth="1.6" />
        </svg>
      </button>
      <span className="tb-sep" />
      <button type="button" className="tb-btn" data-testid="tb-import" onClick={props.onImport} title="Import a capture (.json) or HAR file">
        {props.mode === 'viewer' ? 'Open file…' : 'Import…'}
      </button>
      <span style={{ position: 'relative' }}>
        <button type="button" ref={btnRef} className="tb-btn" aria-haspopup="menu" aria-expanded={menu} data-testid="tb-export" onClick={() => setMenu(!menu)}>
          Export ▾
        </button>
        {menu && (
          <div className="menu" role="menu" ref={menuRef} onKeyDown={onMenuKey}>
            <div className="menu-label">Whole capture</div>
            {KINDS.map(([k, label]) => (
              <button key={`a${k}`} type="button" role="menuitem" className="menu-item" data-testid={`export-all-${k}`} onClick={() => pick(k, 'all')}>
                {label}
              </button>
            ))}
            <div className="menu-label">Selected session</div>
            {KINDS.map(([k, label]) => (
              <button key={`s${k}`} type="button" role="menuitem" className="menu-item" disabled={!props.hasSession} data-testid={`export-session-${k}`} onClick={() => pick(k, 'session')}>
                {label}
              </button>
            ))}
          </div>
        )}
      </span>
      <span className="tb-spacer" />
      <FaultsButton />
      {props.mode === 'devtools' && <CaptureHealthPill paused={!!status && !status.recording} />}
      {/* not a live region: it changes with every snapshot of a live capture */}
      <ToolbarCounts paused={props.mode === 'devtools' && !!status && !status.recording} />
      <button type="button" className="tb-btn" title="Settings" aria-label="Settings" data-testid="tb-settings" onClick={() => dispatch({ type: 'open-settings' })}>
        <span aria-hidden="true">⚙</span>
      </button>
    </div>
  );
});

/** "2 sessions · 120 events · 300 records": what changes with every snapshot of a live capture. */
function ToolbarCounts({ paused }: { paused: boolean }) {
  const text = useViewModelPart((vm) => `${vm.snap.sessions.length} session${vm.snap.sessions.length === 1 ? '' : 's'} · ${vm.totalEvents} events · ${vm.snap.recordCount} records`);
  return <span className="tb-status">{`${text}${paused ? ' · paused' : ''}`}</span>;
}
