// <InspectorApp>: the whole inspector UI, wiring only. Used by the DevTools panel (live source,
// chrome.storage) and by the standalone viewer (a file, localStorage): it makes the store, puts
// the store, the navigation, copy and context menus into context, and renders the shell.

import { useEffect, useRef, useState } from 'react';
import type { ClipboardWriter } from '../common/clipboard';
import { TEST_HOOKS } from '../../../extension/shared/test-hooks';
import { RenderProbeContext, type RenderProbe } from '../common/render-probe';
import { NavigationProvider } from '../navigation/NavigationProvider';
import type { ViewStorage } from '../navigation/persist';
import { normalizeSettings } from '../settings/settings';
import type { ImportFn } from '../sources/importer';
import { createInspectorStore } from '../store/inspector-store';
import { StoreProvider } from '../store/StoreContext';
import type { AnalyzerFactory, InspectorSettings, InspectorSource, StorageAdapter } from '../store/types';
import { AppShell } from './AppShell';
import { TestHook } from './TestHook';
import { useDark, type ThemeName } from './use-theme';
import './styles.css';

export type { ThemeName };

export interface InspectorAppProps {
  /** Where records come from: the live store adapter (DevTools) or createStaticSource() (viewer). */
  source: InspectorSource;
  /** The core analyzer factory, e.g. `(s) => createAnalyzer(optionsFromSettings(s))`. */
  analyzerFactory: AnalyzerFactory;
  /** Settings (and column widths) persistence: chrome.storage.local in the extension, localStorage in the viewer. */
  storage?: StorageAdapter;
  /** Where the view (selection, tab, filter, timeline zoom) is kept across reloads: sessionStorage in both hosts. */
  viewStorage?: ViewStorage;
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
  /** Clipboard writer (tests). Default: execCommand('copy'), then the Clipboard API. */
  clipboard?: ClipboardWriter;
  /** Called with a view's name each time it renders (render-count tests). */
  renderProbe?: RenderProbe;
}

export function InspectorApp(props: InspectorAppProps) {
  const factory = useRef(props.analyzerFactory);
  factory.current = props.analyzerFactory;
  const [store] = useState(() => createInspectorStore({ source: props.source, analyzerFactory: (s) => factory.current(s), settings: normalizeSettings(undefined) }));
  useEffect(() => store.setBaseSource(props.source), [store, props.source]);
  const dark = useDark(props.theme);
  return (
    <RenderProbeContext.Provider value={props.renderProbe}>
      <StoreProvider store={store}>
        <NavigationProvider viewStorage={props.viewStorage} prefs={props.storage}>
          <AppShell mode={props.mode} dark={dark} storage={props.storage} importFile={props.importFile} onSettingsChange={props.onSettingsChange} error={props.error} clipboard={props.clipboard} />
          {TEST_HOOKS && props.testHook !== false && <TestHook store={store} />}
        </NavigationProvider>
      </StoreProvider>
    </RenderProbeContext.Provider>
  );
}
