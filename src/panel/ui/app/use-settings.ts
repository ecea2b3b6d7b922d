// Settings: read once from the host's storage, applied to the analysis, reported to the host
// ('load', then 'save' on every save: it wires the capture-side ones to the relay).

import { useEffect, useRef, useState } from 'react';
import { useNavDispatch } from '../navigation/NavigationProvider';
import { loadSettings, normalizeSettings, saveSettings } from '../settings/settings';
import type { InspectorStore } from '../store/inspector-store';
import type { InspectorSettings, StorageAdapter } from '../store/types';

export type SettingsListener = (settings: InspectorSettings, reason: 'load' | 'save') => void;

export function useSettings(store: InspectorStore, storage: StorageAdapter | undefined, onChange: SettingsListener | undefined) {
  const [settings, setSettings] = useState<InspectorSettings>(() => normalizeSettings(undefined));
  const dispatch = useNavDispatch();
  const listener = useRef(onChange);
  listener.current = onChange;
  useEffect(() => {
    let live = true;
    void loadSettings(storage).then((s) => {
      if (!live) return;
      setSettings(s);
      store.setSettings(s);
      listener.current?.(s, 'load');
    });
    return () => {
      live = false;
    };
  }, [storage, store]);
  const save = (s: InspectorSettings) => {
    dispatch({ type: 'close-settings' });
    setSettings(s);
    store.setSettings(s);
    void saveSettings(storage, s).catch((e: unknown) => dispatch({ type: 'show-error', text: `Could not save settings: ${(e as Error).message}` }));
    listener.current?.(s, 'save');
  };
  return { settings, save };
}
