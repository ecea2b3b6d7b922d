// The store in React: one context for the store object, one subscription per reader.

import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { InspectorState, InspectorStore } from './inspector-store';
import type { ViewModel } from './view-model';

const StoreContext = createContext<InspectorStore | null>(null);

export function StoreProvider({ store, children }: { store: InspectorStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useStore(): InspectorStore {
  const s = useContext(StoreContext);
  if (!s) throw new Error('useStore outside <StoreProvider>');
  return s;
}

/** The whole state: re-renders on every change (read progress too). For small views only. */
export function useInspector(): InspectorState {
  const s = useStore();
  return useSyncExternalStore(s.subscribe, s.getState, s.getState);
}

/** One part of the state; `select` must return a primitive or an object the store keeps stable. */
export function useInspectorPart<T>(select: (state: InspectorState) => T): T {
  const s = useStore();
  const get = () => select(s.getState());
  return useSyncExternalStore(s.subscribe, get, get);
}

/** Only the view model: a reader re-renders when a snapshot is published, not on progress ticks. */
export function useViewModel(): ViewModel {
  const s = useStore();
  const get = () => s.getState().vm;
  return useSyncExternalStore(s.subscribe, get, get);
}
