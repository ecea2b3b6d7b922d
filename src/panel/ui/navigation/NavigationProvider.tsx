// Navigation in React, modelled on React DevTools' Components view: the state and the dispatch in
// two contexts (a view that only dispatches does not re-render when the state changes), plus the
// selection resolved against the current view model in a third, computed once per change.

import { createContext, useContext, useEffect, useMemo, useReducer, useRef, type Dispatch, type ReactNode } from 'react';
import { useStore, useViewModel } from '../store/StoreContext';
import type { StorageAdapter } from '../store/types';
import { bindNavActions, type BoundNavActions } from './actions';
import { COLUMNS_KEY, parseColumns, parsePersisted, toPersisted, type ViewStorage } from './persist';
import { navReducer, type NavAction } from './reducer';
import { resolveSelection, type Selection } from './resolve';
import { INITIAL_NAV, type NavState } from './state';

const NavStateContext = createContext<NavState>(INITIAL_NAV);
const NavDispatchContext = createContext<Dispatch<NavAction>>(() => {});
const SelectionContext = createContext<Selection | null>(null);
/** The selected session's key alone: views that need only it do not re-render when its content grows. */
const SessionKeyContext = createContext<string | undefined>(undefined);

/** The same object when nothing selected changed (a snapshot that added events elsewhere). */
const sameSelection = (a: Selection, b: Selection) => a.sessionKey === b.sessionKey && a.view === b.view && a.event?.streamId === b.event?.streamId && a.event?.index === b.event?.index && a.requestId === b.requestId && a.finding === b.finding;

function init(storage: ViewStorage | undefined): NavState {
  const v = parsePersisted(storage?.load());
  return v ? navReducer(INITIAL_NAV, { type: 'restore', view: v }) : INITIAL_NAV;
}

export function NavigationProvider(props: { children: ReactNode; viewStorage?: ViewStorage | undefined; prefs?: StorageAdapter | undefined }) {
  const [state, dispatch] = useReducer(navReducer, props.viewStorage, init);
  const vm = useViewModel();
  const prevSel = useRef<Selection | undefined>(undefined);
  const selection = useMemo(() => {
    const next = resolveSelection(state, vm);
    return prevSel.current && sameSelection(prevSel.current, next) ? prevSel.current : next;
  }, [state, vm]);
  prevSel.current = selection;

  // The view, saved on every change (sessionStorage writes are synchronous and small).
  const { viewStorage, prefs } = props;
  useEffect(() => {
    viewStorage?.save(toPersisted(state));
  }, [viewStorage, state]);
  // Column widths: read once, written when they change.
  const loaded = useRef(false);
  useEffect(() => {
    let live = true;
    void prefs
      ?.get(COLUMNS_KEY)
      .then((raw) => live && dispatch({ type: 'restore-columns', columns: parseColumns(raw) }))
      .catch(() => {})
      .finally(() => (loaded.current = true));
    if (!prefs) loaded.current = true;
    return () => {
      live = false;
    };
  }, [prefs]);
  const columns = state.columns;
  useEffect(() => {
    if (loaded.current && Object.keys(columns).length) void prefs?.set(COLUMNS_KEY, columns).catch(() => {});
  }, [prefs, columns]);

  return (
    <NavDispatchContext.Provider value={dispatch}>
      <NavStateContext.Provider value={state}>
        <SelectionContext.Provider value={selection}>
          <SessionKeyContext.Provider value={selection.sessionKey}>{props.children}</SessionKeyContext.Provider>
        </SelectionContext.Provider>
      </NavStateContext.Provider>
    </NavDispatchContext.Provider>
  );
}

export const useNav = (): NavState => useContext(NavStateContext);
export const useNavDispatch = (): Dispatch<NavAction> => useContext(NavDispatchContext);

export function useSelection(): Selection {
  const s = useContext(SelectionContext);
  if (!s) throw new Error('useSelection outside <NavigationProvider>');
  return s;
}

export const useSelectedSessionKey = (): string | undefined => useContext(SessionKeyContext);

/**
 * The action creators bound to the dispatch; they resolve their targets in the view model current
 * when they are called, so a view that only dispatches does not re-render per snapshot.
 */
export function useNavActions(): BoundNavActions {
  const store = useStore();
  const dispatch = useNavDispatch();
  return useMemo(() => bindNavActions(() => store.getState().vm, dispatch), [store, dispatch]);
}
