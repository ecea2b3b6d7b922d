// The inspector's layout: toolbar, search bar, strips, sessions list, the selected session, the
// settings dialog; the keys that work everywhere; import by drop.

import { useRenderProbe } from '../common/render-probe';
import { memo, useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import type { CaptureIssues } from '../capture/capture-health';
import { CaptureNotices } from '../capture/CaptureNotices';
import { WitnessBanner, withoutWitnessGaps } from '../capture/NetworkWitness';
import type { ClipboardWriter } from '../common/clipboard';
import { ContextMenuHost } from '../common/ContextMenu';
import { CopyProvider } from '../common/copy';
import { useNav, useNavDispatch, useSelectedSessionKey } from '../navigation/NavigationProvider';
import { SearchBar } from '../search/SearchBar';
import { SessionsList } from '../sessions/SessionsList';
import { SettingsDialog } from '../settings/SettingsDialog';
import type { ImportFn } from '../sources/importer';
import { useInspectorPart, useStore, useViewModelPart } from '../store/StoreContext';
import type { ExportKind, StorageAdapter } from '../store/types';
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
  useRenderProbe('shell');
  // Parts, not the whole state: neither a file's read progress nor a published snapshot
  // re-renders the shell; the views below read what they show themselves.
  const status = useInspectorPart((st) => st.status);
  const shown = useInspectorPart((st) => st.imported?.name);
  const nav = useNav();
  const sessionKey = useSelectedSessionKey();
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

  // Stable callbacks: the toolbar renders when its own state does, not with the shell.
  const exportDownload = useRef(files.exportDownload);
  exportDownload.current = files.exportDownload;
  const onImport = useCallback(() => fileRef.current?.click(), []);
  const exportKey = useRef(sessionKey);
  exportKey.current = sessionKey;
  const onExport = useCallback((kind: ExportKind, scope: 'all' | 'session') => exportDownload.current(kind, scope === 'session' ? exportKey.current : undefined), []);
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
        onImport={onImport}
        onExport={onExport}
        hasSession={sessionKey !== undefined}
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
      <CaptureStrip keepWitnessGaps={mode !== 'devtools' || shown !== undefined} />
      {mode === 'devtools' && shown === undefined && <WitnessBanner />}
      <div className="main">
        <SessionsList />
        <div className="detail">
          <SessionDetailFrame mode={mode} />
        </div>
      </div>
      {nav.settingsOpen && <SettingsDialog settings={settings} onClose={() => dispatch({ type: 'close-settings' })} onSave={save} />}
      </ContextMenuHost>
      </CopyProvider>
    </div>
  );
}

/** The capture strip: renders when the snapshot's capture health changes, not per snapshot. */
const sameIssues = (a: CaptureIssues, b: CaptureIssues) =>
  a === b || (a.summary === b.summary && a.worst === b.worst && a.notices === b.notices && a.gaps === b.gaps && a.lost === b.lost && a.notKept === b.notKept && a.items.length === b.items.length && a.items.every((x, i) => x === b.items[i]));
const CaptureStrip = memo(function CaptureStrip({ keepWitnessGaps }: { keepWitnessGaps: boolean }) {
  const issues = useViewModelPart((vm) => (keepWitnessGaps ? vm.captureIssues : withoutWitnessGaps(vm.captureIssues)), sameIssues);
  return <CaptureNotices issues={issues} />;
});

const SessionDetailFrame = memo(SessionDetail);
