// `globalThis.__MSI_UI__` for end-to-end tests: read-only, installed while the app is mounted.

import { useEffect, useRef } from 'react';
import { toPersisted } from '../navigation/persist';
import { useNav, useSelection } from '../navigation/NavigationProvider';
import type { InspectorStore } from '../store/inspector-store';
import type { ExportKind, UiTestHook } from '../store/types';
import { useExport } from './use-files';

export function TestHook({ store }: { store: InspectorStore }) {
  const doExport = useExport(store);
  const nav = useNav();
  const sel = useSelection();
  const view = useRef({ nav, sel });
  view.current = { nav, sel };
  useEffect(() => {
    let last = 0;
    const off = store.subscribe(() => void (last = performance.timeOrigin + performance.now()));
    const hook: UiTestHook = Object.freeze({
      snapshot: () => store.flush(),
      exportAs: (kind: ExportKind, sk?: string) => doExport(kind, sk).text,
      records: () => store.records(),
      progress: () => store.getState().progress,
      view: () => {
        const { nav: n, sel: s } = view.current;
        return { ...toPersisted(n), sessionKey: s.sessionKey, selectedEvent: s.event, selectedRequest: s.requestId, selectedFinding: s.finding?.code, columns: n.columns };
      },
      lastChange: () => last,
    });
    Object.defineProperty(globalThis, '__MSI_UI__', { value: hook, configurable: true, enumerable: false, writable: false });
    return () => {
      off();
      if ((globalThis as { __MSI_UI__?: unknown }).__MSI_UI__ === hook) delete (globalThis as { __MSI_UI__?: unknown }).__MSI_UI__;
    };
  }, [store, doExport]);
  return null;
}
