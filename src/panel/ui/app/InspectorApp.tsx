// <InspectorApp>: the whole inspector UI. Used by the DevTools panel (live source, chrome.storage)
// and by the standalone viewer (static source from a file, localStorage).

import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type DragEvent, type KeyboardEvent } from 'react';
import type { Finding } from '../../../core/model';
import { exportCapture } from '../../../export';
import { createAppModel, type AppModel } from '../store/inspector-store';
import { Callout } from '../findings/Callout';
import { createCaptureIssueScanner } from '../capture/capture-notices';
import { CaptureNotices } from '../capture/CaptureNotices';
import { downloadText } from '../common/download';
import { EventsTable, type EventRef } from '../events/EventsTable';
import { parseFilter } from '../events/filter';
import { FindingsView } from '../findings/FindingsView';
import { createFindingsIndex } from '../findings/findings-index';
import { importWithCore, readAndOpen, type ImportFn } from '../sources/importer';
import type { ProgressiveImport } from '../sources/progressive-import';
import { RequestsView } from '../requests/RequestsView';
import { RequestsSummary } from '../requests/RequestsSummary';
import { SessionHeader } from '../sessions/SessionHeader';
import { SessionsList } from '../sessions/SessionsList';
import { SettingsDialog } from '../settings/SettingsDialog';
import { loadSettings, normalizeSettings, saveSettings } from '../settings/settings';
import type { AnalyzerFactory, ExportKind, InspectorSettings, InspectorSource, StorageAdapter, UiTestHook } from '../store/types';
import { Timeline, type TimelineFocus } from '../timeline/Timeline';
import { Toolbar } from './Toolbar';
import { usePrefersDark, useStatus, worstSessionKey } from './app-hooks';
import { visible } from '../common/text';
import './styles.css';

export type ThemeName = 'light' | 'dark' | 'default' | 'auto';

export interface InspectorAppProps {
  /** Where records come from: the live store adapter (DevTools) or createStaticSource() (viewer). */
  source: InspectorSource;
  /** The core analyzer factory, e.g. `(s) => createAnalyzer(optionsFromSettings(s))`. */
  analyzerFactory: AnalyzerFactory;
  /** Settings persistence: createChromeStorageAdapter() in the extension, createLocalStorageAdapter() in the viewer. */
  storage?: StorageAdapter;
  /** 'default' and 'light' are DevTools' light theme; 'auto' follows prefers-color-scheme. */
  theme?: ThemeName;
  mode: 'devtools' | 'viewer';
  /** File importer. Default: the core importer (own JSON and HAR). */
  importFile?: ImportFn;
  /**
   * Called with `'load'` once the stored settings are read, and with `'save'` whenever the user
   * saves them (wire the capture-side ones to the relay on 'save': buffer cap, capture while closed).
   */
  onSettingsChange?(settings: InspectorSettings, reason: 'load' | 'save'): void;
  /** An error from the host to show in the error banner (e.g. the viewer's `?src=` failed to load). */
  error?: string;
  /** Install `globalThis.__MSI_UI__` for end-to-end tests. Default true. */
  testHook?: boolean;
}

type Tab = 'timeline' | 'events' | 'requests' | 'findings';
const TABS: [Tab, string][] = [
  ['timeline', 'Timeline'],
  ['events', 'Events'],
  ['requests', 'Requests'],
  ['findings', 'Findings'],
];

export function InspectorApp(props: InspectorAppProps) {
  const { mode } = props;
  const [imported, setImported] = useState<{ source: InspectorSource; name: string } | undefined>(undefined);
  const activeSource = imported?.source ?? props.source;
  const [settings, setSettings] = useState<InspectorSettings>(() => normalizeSettings(undefined));
  const factoryRef = useRef(props.analyzerFactory);
  factoryRef.current = props.analyzerFactory;
  const [model] = useState<AppModel>(() => createAppModel({ source: activeSource, analyzerFactory: (s) => factoryRef.current(s), settings }));
  useEffect(() => {
    if (model.getSource() !== activeSource) model.setSource(activeSource);
  }, [model, activeSource]);
  const snap = useSyncExternalStore(model.subscribe, model.getSnapshot, model.getSnapshot);
  const status = useStatus(props.source);

  // Settings: load once, apply to the analysis, tell the host.
  const onSettingsChange = useRef(props.onSettingsChange);
  onSettingsChange.current = props.onSettingsChange;
  useEffect(() => {
    let live = true;
    void loadSettings(props.storage).then((s) => {
      if (!live) return;
      setSettings(s);
      model.setSettings(s);
      onSettingsChange.current?.(s, 'load');
    });
    return () => {
      live = false;
    };
  }, [props.storage, model]);

  // Theme
  const prefersDark = usePrefersDark();
  const dark = props.theme === 'dark' || (props.theme === 'auto' || props.theme === undefined ? prefersDark : false);

  // Selection
  const [userSession, setUserSession] = useState<string | undefined>(undefined);
  // Sorted findings, kept incrementally across snapshots (an append costs its new findings only).
  const [findex] = useState(createFindingsIndex);
  const findingsRev = useMemo(() => {
    findex.update(snap.findings);
    return snap.findings;
  }, [findex, snap.findings]);
  const worstKey = useMemo(() => worstSessionKey(snap, findex.sorted(undefined)), [snap.sessions, findex, findingsRev]);
  const sessionKey = userSession !== undefined && snap.sessions.some((s) => s.key === userSession) ? userSession : worstKey;
  const session = snap.sessions.find((s) => s.key === sessionKey);
  const [tab, setTab] = useState<Tab>('timeline');
  const [selEvent, setSelEvent] = useState<EventRef | undefined>(undefined);
  const [selRequest, setSelRequest] = useState<string | undefined>(undefined);
  const [selFinding, setSelFinding] = useState<Finding | undefined>(undefined);
  const [focus, setFocus] = useState<TimelineFocus | undefined>(undefined);
  const [reveal, setReveal] = useState(0);
  const [filterText, setFilterText] = useState('');
  const filter = useMemo(() => parseFilter(filterText), [filterText]);
  const filterRef = useRef<HTMLInputElement>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [error, setError] = useState<string | undefined>(props.error);
  useEffect(() => {
    if (props.error) setError(props.error);
  }, [props.error]);
  const [drag, setDrag] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  const selectSession = (key: string) => {
    setUserSession(key);
    setSelEvent(undefined);
    setSelRequest(undefined);
    setSelFinding(undefined);
  };

  const findingTarget = (f: Finding): EventRef | undefined => {
    const s = f.streamId ? snap.streams[f.streamId] : undefined;
    if (!s) return undefined;
    if (f.eventIndex !== undefined && s.events[f.eventIndex]) return { streamId: s.id, index: f.eventIndex };
    if (f.requestId !== undefined) {
      // The event carrying the terminal response, else the last event of the stream.
      for (const sid of [s.id, ...(f.relatedStreamIds ?? [])]) {
        const st = snap.streams[sid];
        const i = st?.events.findIndex((e) => e.messages.some((m) => (m.kind === 'result' || m.kind === 'error') && m.id === f.requestId)) ?? -1;
        if (st && i >= 0) return { streamId: st.id, index: i };
      }
    }
    return s.events.length ? { streamId: s.id, index: s.events.length - 1 } : undefined;
  };
  const showInTimeline = (f: Finding) => {
    if (f.sessionKey !== sessionKey) setUserSession(f.sessionKey);
    const target = findingTarget(f);
    if (target) setSelEvent(target);
    setFocus({ ...(target ?? { streamId: f.streamId }), token: Date.now() + Math.random(), takeFocus: true });
    setSelFinding(f);
    setTab('timeline');
  };
  // Selecting a finding also selects its event, so the timeline and the table open on it.
  const selectFinding = (f: Finding) => {
    setSelFinding(f);
    const target = findingTarget(f);
    if (target) {
      setSelEvent(target);
      setFocus({ ...target, token: Date.now() + Math.random() });
      setReveal((n) => n + 1);
    }
  };
  const showInEvents = (f: Finding) => {
    if (f.sessionKey !== sessionKey) setUserSession(f.sessionKey);
    const target = findingTarget(f);
    if (target) setSelEvent(target);
    setSelFinding(f);
    setTab('events');
    setReveal((n) => n + 1);
  };
  const showEvent = (streamId: string, index: number) => {
    setSelEvent({ streamId, index });
    setTab('events');
    setReveal((n) => n + 1);
  };

  // Export (a download made here, from the records and snapshot we hold).
  const doExport = useCallback(
    (kind: ExportKind, sessionKey?: string) =>
      exportCapture(kind, {
        records: model.getRecords(),
        snapshot: model.flush(),
        ...(sessionKey !== undefined ? { sessionKey } : {}),
        ...(activeSource.label?.() !== undefined ? { source: activeSource.label!()! } : {}),
      }),
    [model, activeSource],
  );
  const onExport = (kind: ExportKind, scope: 'all' | 'session') => {
    try {
      const r = doExport(kind, scope === 'session' ? sessionKey : undefined);
      downloadText(r.text, r.filename, r.mime);
    } catch (e) {
      setError(`Export failed: ${(e as Error).message}`);
    }
  };

  // Import: one clear error on a bad file; the current capture stays as it was.
  const importFn = props.importFile ?? importWithCore;
  const importing = useRef<ProgressiveImport | undefined>(undefined);
  const openFile = async (file: File) => {
    try {
      // The file is read progressively: the first records show while the rest is parsed.
      const imp = await readAndOpen(file, importFn);
      importing.current?.cancel();
      importing.current = imp;
      const previous = imported;
      imp.done.catch((e: unknown) => {
        if (importing.current !== imp) return;
        setImported(previous);
        setError(`Could not open ${file.name}: ${(e as Error).message.replace(`${file.name}: `, '')}`);
      });
      setImported({ source: imp.source, name: file.name });
      setUserSession(undefined);
      setSelEvent(undefined);
      setSelFinding(undefined);
      setSelRequest(undefined);
      setError(undefined);
    } catch (e) {
      setError(`Could not open ${file.name}: ${(e as Error).message.replace(`${file.name}: `, '')}`);
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDrag(false);
    const f = e.dataTransfer?.files?.[0];
    if (f) void openFile(f);
  };

  // Keyboard: / or Ctrl+F focuses the filter; Esc closes what is open.
  const onKeyDown = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    const typing = t.tagName === 'INPUT' || t.tagName === 'TEXTAREA';
    if (((e.key === 'f' || e.key === 'F') && (e.ctrlKey || e.metaKey)) || (e.key === '/' && !typing)) {
      e.preventDefault();
      filterRef.current?.focus();
      filterRef.current?.select();
    } else if (e.key === 'Escape' && !typing) {
      if (error) setError(undefined);
    }
  };

  // Test hook (read-only).
  useEffect(() => {
    if (props.testHook === false) return;
    const hook: UiTestHook = Object.freeze({
      snapshot: () => model.flush(),
      exportAs: (kind: ExportKind, sk?: string) => doExport(kind, sk).text,
      records: () => model.getRecords(),
      progress: () => model.getProgress(),
    });
    Object.defineProperty(globalThis, '__MSI_UI__', { value: hook, configurable: true, enumerable: false, writable: false });
    return () => {
      if ((globalThis as { __MSI_UI__?: unknown }).__MSI_UI__ === hook) delete (globalThis as { __MSI_UI__?: unknown }).__MSI_UI__;
    };
  }, [model, doExport, props.testHook]);

  const sessionFindings = useMemo(() => (sessionKey === undefined ? [] : findex.sorted(sessionKey)), [findex, findingsRev, sessionKey]);
  const worst = sessionFindings[0];
  const reqCount = sessionKey ? (snap.requests[sessionKey]?.length ?? 0) : 0;
  const evCount = useMemo(() => (session ? session.streamIds.reduce((n, id) => n + (snap.streams[id]?.events.length ?? 0), 0) : 0), [snap, session]);
  const errCount = sessionFindings.filter((f) => f.severity === 'error').length;
  const totalEvents = useMemo(() => Object.values(snap.streams).reduce((n, s) => n + s.events.length, 0), [snap]);
  const info = `${snap.sessions.length} session${snap.sessions.length === 1 ? '' : 's'} · ${totalEvents} events · ${snap.recordCount} records${status && !status.recording && mode === 'devtools' && !imported ? ' · paused' : ''}`;
  const modelErrors = model.getErrors();
  const progress = model.getProgress();
  const [scanIssues] = useState(createCaptureIssueScanner);
  const records = model.getRecords();
  // The live store appends in place (same array, longer): the length is part of the key.
  const captureIssues = useMemo(() => scanIssues(records), [scanIssues, records, records.length, snap]);

  const onTabKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex(([k]) => k === tab);
    let to: number | undefined;
    if (e.key === 'ArrowRight') to = (i + 1) % TABS.length;
    else if (e.key === 'ArrowLeft') to = (i + TABS.length - 1) % TABS.length;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = TABS.length - 1;
    if (to !== undefined) {
      e.preventDefault();
      setTab(TABS[to]![0]);
      (e.currentTarget.querySelectorAll('[role=tab]')[to] as HTMLElement | undefined)?.focus();
    }
  };

  return (
    <div
      className={`msi-root theme-${dark ? 'dark' : 'light'}${drag ? ' dropzone-over' : ''}`}
      data-testid="msi-app"
      data-mode={mode}
      onKeyDown={onKeyDown}
      onDragOver={(e) => {
        if (e.dataTransfer?.types?.includes('Files')) {
          e.preventDefault();
          setDrag(true);
        }
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDrag(false);
      }}
      onDrop={onDrop}
    >
      <Toolbar
        mode={mode}
        controls={imported ? undefined : props.source.controls}
        status={imported ? undefined : status}
        filter={filterText}
        onFilter={setFilterText}
        filterRef={filterRef}
        onImport={() => fileRef.current?.click()}
        onExport={onExport}
        hasSession={!!session}
        onSettings={() => setSettingsOpen(true)}
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
          if (f) void openFile(f);
        }}
      />
      {error && (
        <div className="banner-error" role="alert" data-testid="error-banner">
          <span>{visible(error)}</span>
          <button type="button" className="linkbtn" onClick={() => setError(undefined)} style={{ marginLeft: 'auto' }}>
            Dismiss
          </button>
        </div>
      )}
      {imported && mode === 'devtools' && (
        <div className="banner-error" style={{ color: 'var(--text)', background: 'var(--bg-alt)', borderColor: 'var(--border)' }} data-testid="imported-banner">
          <span>{visible(`Showing imported file ${imported.name} — live capture continues in the background.`)}</span>
          <button type="button" className="linkbtn" onClick={() => setImported(undefined)} style={{ marginLeft: 'auto' }} data-testid="back-to-live">
            Back to live capture
          </button>
        </div>
      )}
      <CaptureNotices issues={captureIssues} />
      {progress && (
        <div className="analysis-progress" role="status" data-testid="analysis-progress" data-fed={progress.fed} data-total={progress.total} data-importing={progress.importing}>
          {progress.importing ? <progress /> : <progress max={progress.total} value={progress.fed} />}
          <span>
            {progress.importing ? 'Reading the file and analysing: ' : 'Analysing '}
            {progress.fed.toLocaleString('en-US')} / {progress.total.toLocaleString('en-US')} records{progress.importing ? ' so far' : ''}… findings that need the end of the capture appear when
            done.
          </span>
        </div>
      )}
      {modelErrors.length > 0 && (
        <div className="banner-error" role="status">
          {visible(`Analysis error (${modelErrors.length}): ${modelErrors[0]}`)}
        </div>
      )}
      <div className="main">
        <SessionsList snap={snap} findings={findex} findingsRev={findingsRev} selectedKey={sessionKey} onSelect={selectSession} />
        <div className="detail">
          {!session ? (
            <div className="empty" data-testid="empty-state">
              {mode === 'viewer'
                ? 'Open a capture: drop an MCP Stream Inspector export (.json) or a HAR file here, or use “Open file…”.'
                : 'Waiting for MCP traffic. Use the page: Streamable HTTP requests (POST/GET with text/event-stream) appear here. You can also import a capture or HAR file.'}
            </div>
          ) : (
            <>
              <SessionHeader snap={snap} session={session} />
              {worst && (
                <Callout
                  snap={snap}
                  finding={worst}
                  more={sessionFindings.length - 1}
                  compact={tab !== 'timeline'}
                  onShowTimeline={() => showInTimeline(worst)}
                  onShowEvents={() => showInEvents(worst)}
                  onShowFindings={() => setTab('findings')}
                />
              )}
              <div className="tabs" role="tablist" aria-label="Session views" onKeyDown={onTabKey}>
                {TABS.map(([k, label]) => (
                  <button
                    key={k}
                    type="button"
                    role="tab"
                    id={`msi-tab-${k}`}
                    aria-selected={tab === k}
                    aria-controls={`msi-panel-${k}`}
                    tabIndex={tab === k ? 0 : -1}
                    className="tab"
                    data-testid={`tab-${k}`}
                    onClick={() => setTab(k)}
                  >
                    {label}
                    {k === 'events' && <span className="count">{evCount}</span>}
                    {k === 'requests' && <span className="count">{reqCount}</span>}
                    {k === 'findings' && <span className={`count${errCount ? ' bad' : ''}`}>{sessionFindings.length}</span>}
                  </button>
                ))}
              </div>
              <div className="tabpanel" role="tabpanel" id={`msi-panel-${tab}`} aria-labelledby={`msi-tab-${tab}`}>
                {tab === 'timeline' && (
                  <>
                    <Timeline snap={snap} sessionKey={sessionKey} selected={selEvent} onSelect={setSelEvent} onOpenEvent={(r) => showEvent(r.streamId, r.index)} focus={focus} />
                    {sessionKey !== undefined && (
                      <RequestsSummary
                        snap={snap}
                        sessionKey={sessionKey}
                        onOpen={(id) => {
                          setSelRequest(id);
                          setTab('requests');
                        }}
                      />
                    )}
                  </>
                )}
                {tab === 'events' && <EventsTable snap={snap} sessionKey={sessionKey} filter={filter} selected={selEvent} onSelect={setSelEvent} revealToken={reveal} />}
                {tab === 'requests' && <RequestsView snap={snap} sessionKey={sessionKey} selectedId={selRequest} onSelect={setSelRequest} onShowEvent={showEvent} />}
                {tab === 'findings' && (
                  <FindingsView snap={snap} sessionKey={sessionKey} sorted={sessionFindings} codeFilter={filter.code} selected={selFinding} onSelect={selectFinding} onShowTimeline={showInTimeline} onShowEvents={showInEvents} />
                )}
              </div>
            </>
          )}
        </div>
      </div>
      {settingsOpen && (
        <SettingsDialog
          settings={settings}
          onClose={() => setSettingsOpen(false)}
          onSave={(s) => {
            setSettingsOpen(false);
            setSettings(s);
            model.setSettings(s);
            void saveSettings(props.storage, s).catch((e: unknown) => setError(`Could not save settings: ${(e as Error).message}`));
            props.onSettingsChange?.(s, 'save');
          }}
        />
      )}
    </div>
  );
}
