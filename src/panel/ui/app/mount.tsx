// One call that mounts the inspector in the DevTools panel page over the live store:
//   mountDevtoolsInspector(document.getElementById('root')!, { store, onSettingsChange })
// Theme follows chrome.devtools.panels.themeName (and its change handler); settings and column
// widths persist in chrome.storage.local, the view (selection, tab, filter, zoom) in the panel's
// sessionStorage (it survives a reload of the panel and of the inspected page, as DevTools' own
// session settings do). chrome.* is touched only here, not in the views.

import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createAnalyzer, optionsFromSettings } from '../../../core';
import { InspectorApp, type ThemeName } from './InspectorApp';
import { createLiveSource, type LiveStoreLike } from '../sources/live-source';
import { sessionViewStorage, type ViewStorage } from '../navigation/persist';
import { createChromeStorageAdapter } from '../settings/settings';
import type { InspectorSettings, StorageAdapter } from '../store/types';
import { CaptureHealthContext } from '../capture/NetworkWitness';
import type { CaptureHealthSource } from '../capture/network-witness-types';
import { FaultControlContext } from '../faults/FaultsMenu';
import type { FaultControlSource } from '../faults/fault-types';

export interface MountOptions {
  store: LiveStoreLike;
  /** Wire the capture-side settings (buffer cap, capture while closed) to the relay here. */
  onSettingsChange?(settings: InspectorSettings, reason: 'load' | 'save'): void;
  /** Label for exports (e.g. the inspected page URL). */
  label?: () => string | undefined;
  storage?: StorageAdapter;
  /** Default: the panel's sessionStorage. */
  viewStorage?: ViewStorage;
  /** The capture's health and the network witness (toolbar indicator, first-screen banner). */
  health?: CaptureHealthSource;
  /** Faults armed from the panel for the inspected tab (toolbar menu; issue 14). */
  faults?: FaultControlSource;
}

function devtoolsTheme(): ThemeName {
  try {
    return chrome.devtools?.panels?.themeName === 'dark' ? 'dark' : 'light';
  } catch {
    return 'auto';
  }
}

function DevtoolsRoot({ opts, source, storage, viewStorage }: { opts: MountOptions; source: ReturnType<typeof createLiveSource>; storage: StorageAdapter | undefined; viewStorage: ViewStorage | undefined }) {
  const [theme, setTheme] = useState<ThemeName>(devtoolsTheme);
  useEffect(() => {
    try {
      chrome.devtools?.panels?.setThemeChangeHandler?.((t) => setTheme(t === 'dark' ? 'dark' : 'light'));
    } catch {
      /* older Chrome: theme fixed at open */
    }
  }, []);
  return (
    <CaptureHealthContext.Provider value={opts.health}>
    <FaultControlContext.Provider value={opts.faults}>
    <InspectorApp
      source={source}
      analyzerFactory={(s) => createAnalyzer(optionsFromSettings(s))}
      {...(storage ? { storage } : {})}
      {...(viewStorage ? { viewStorage } : {})}
      theme={theme}
      mode="devtools"
      {...(opts.onSettingsChange ? { onSettingsChange: opts.onSettingsChange } : {})}
    />
    </FaultControlContext.Provider>
    </CaptureHealthContext.Provider>
  );
}

export function mountDevtoolsInspector(el: HTMLElement, opts: MountOptions): () => void {
  el.style.position = 'fixed';
  el.style.inset = '0';
  const source = createLiveSource(opts.store, opts.label ? { label: opts.label } : {});
  let storage = opts.storage;
  if (!storage) {
    try {
      storage = createChromeStorageAdapter();
    } catch {
      storage = undefined;
    }
  }
  const root = createRoot(el);
  root.render(
    <StrictMode>
      <DevtoolsRoot opts={opts} source={source} storage={storage} viewStorage={opts.viewStorage ?? sessionViewStorage()} />
    </StrictMode>,
  );
  return () => root.unmount();
}
