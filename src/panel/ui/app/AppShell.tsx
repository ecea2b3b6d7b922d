// The inspector's layout: toolbar, search bar, strips, sessions list, the selected session, the
// settings dialog; the keys that work everywhere; import by drop.

import { useEffect, useRef, type KeyboardEvent } from 'react';
import { CaptureNotices } from '../capture/CaptureNotices';
import { WitnessBanner, withoutWitnessGaps } from '../capture/NetworkWitness';
import type { ClipboardWriter } from '../common/clipboard';
import { ContextMenuHost } from '../common/ContextMenu';
import { CopyProvider } from '../common/copy';
import { useNav, useNavDispatch, useSelection } from '../navigation/NavigationProvider';
import { SearchBar } from '../search/SearchBar';
import { SessionsList } from '../sessions/SessionsList';
import { SettingsDialog } from '../settings/SettingsDialog';
import type { ImportFn } from '../sources/importer';
import { useInspectorPart, useStore, useViewModel } from '../store/StoreContext';
import type { StorageAdapter } from '../store/types';
import { Banners } from './Banners';
import { SessionDetail } from './SessionDetail';
import { Toolbar } from './Toolbar';
import { useFiles } from './use-files';
import { useSettings, type SettingsListener } from './use-settings';

export interface ShellProps {
  mode: 'devtools' | 'viewer';
  dark: boolean;
  storage: StorageAdapter | undefined;
  importFile: ImportFn | undefined;
  onSettingsChange: SettingsListener | undefined;
  error: string | undefined;
  clipboard: ClipboardWriter | undefined;
}

export function AppShell(props: ShellProps) {
  const { mode } = props;
  const store = useStore();
  // Parts, not the whole state: a file's read progress must not re-render the views.
  const vm = useViewModel();
  const status = useInspectorPart((st) => st.status);
  const shown = useInspectorPart((st) => st.imported?.name);
  const nav = useNav();
  const sel = useSelection();
  const dispatch = useNavDispatch();
  const { settings, save } = useSettings(store, props.storage, props.onSettingsChange);
  const files = useFiles(store, props.importFile);
  const filterRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (props.error) dispatch({ type: 'show-error', text: props.error });
  }, [props.error, dispatch]);
  // Another capture shown (an import, back to live): nothing of the previous one stays selected.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else dispatch({ type: 'source-replaced' });
  }, [shown, dispatch]);

  // / or Ctrl+F: the filter; Ctrl+Shift+F: search every session; Esc closes what is open.
  const onKeyDown = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    const typing = t.tagName === 'INPUT' || t.tagName === 'TEXTAREA';
    const mod = e.ctrlKey || e.metaKey;
    if ((e.key === 'f' || e.key === 'F') && mod && e.shiftKey) {
      e.preventDefault();
      dispatch({ type: 'search-open' });
    } else if (((e.key === 'f' || e.key === 'F') && mod) || (e.key === '/' && !typing)) {
      e.preventDefault();
      filterRef.current?.focus();
      filterRef.current?.select();
    } else if (e.key === 'Escape' && !typing) {
      if (nav.error) dispatch({ type: 'dismiss-error' });
      else if (nav.search.open) dispatch({ type: 'search-close' });
    }
  };

  const info = `${vm.snap.sessions.length} session${vm.snap.sessions.length === 1 ? '' : 's'} · ${vm.totalEvents} events · ${vm.snap.recordCount} records${status && !status.recording && mode === 'devtools' ? ' · paused' : ''}`;
  return (
    <div className={`msi-root theme-${props.dark ? 'dark' : 'light'}${files.drag ? ' dropzone-over' : ''}`} data-testid="msi-app" data-mode={mode} onKeyDown={onKeyDown} {...files.dropProps}>
      {/* inside the root: the menus and the copy feedback take the theme's variables */}
      <CopyProvider writer={props.clipboard}>
      <ContextMenuHost>
      <Toolbar
        mode={mode}
        controls={store.controls()}
        status={status}
        filterRef={filterRef}
        onImport={() => fileRef.current?.click()}
        onExport={(kind, scope) => files.exportDownload(kind, scope === 'session' ? sel.sessionKey : undefined)}
        hasSession={!!sel.view}
        info={info}
      />
      <input
        ref={fileRef}
        type="file"
        accept=".json,.har,application/json"
        hidden
        data-testid="import-input"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void files.openFile(f);
        }}
      />
      <SearchBar />
      <Banners mode={mode} />
      <CaptureNotices issues={mode === 'devtools' && shown === undefined ? withoutWitnessGaps(vm.captureIssues) : vm.captureIssues} />
      {mode === 'devtools' && shown === undefined && <WitnessBanner />}
      <div className="main">
        <SessionsList />
        <div className="detail">
          <SessionDetail mode={mode} />
        </div>
      </div>
      {nav.settingsOpen && <SettingsDialog settings={settings} onClose={() => dispatch({ type: 'close-settings' })} onSave={save} />}
      </ContextMenuHost>
      </CopyProvider>
    </div>
  );
}
