// The store in React: one context for the store object, one subscription per reader.

import { createContext, useCallback, useContext, useRef, useSyncExternalStore, type ReactNode } from 'react';
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

/**
 * One part of the state. `select` returns a primitive, an object the store keeps stable, or a new
 * object each time with an `equal` that says when two of them show the same thing: the reader
 * re-renders only when the part changed (a published snapshot that changed what it shows).
 */
export function useInspectorPart<T>(select: (state: InspectorState) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const s = useStore();
  const last = useRef<{ state: InspectorState; select: (state: InspectorState) => T; value: T } | undefined>(undefined);
  const sel = useRef(select);
  sel.current = select;
  const eq = useRef(equal);
  eq.current = equal;
  const get = useCallback(() => {
    const state = s.getState();
    const select = sel.current;
    const l = last.current;
    // (a new selector — a render with other props — selects again; an equal part stays the same object)
    if (l && l.state === state && l.select === select) return l.value;
    const value = select(state);
    if (l && eq.current(l.value, value)) {
      last.current = { state, select, value: l.value };
      return l.value;
    }
    last.current = { state, select, value };
    return value;
  }, [s]);
  return useSyncExternalStore(s.subscribe, get, get);
}

/** One part of the view model (see useInspectorPart): for views that show a slice of a snapshot. */
export function useViewModelPart<T>(select: (vm: ViewModel) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  return useInspectorPart((st) => select(st.vm), equal);
}

/** Only the view model: a reader re-renders when a snapshot is published, not on progress ticks. */
export function useViewModel(): ViewModel {
  const s = useStore();
  const get = () => s.getState().vm;
  return useSyncExternalStore(s.subscribe, get, get);
}
