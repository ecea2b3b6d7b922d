// Navigation in React, modelled on React DevTools' Components view: the state and the dispatch in
// two contexts (a view that only dispatches does not re-render when the state changes), plus the
// selection resolved against the current view model in a third, computed once per change.

import { createContext, useContext, useEffect, useMemo, useReducer, useRef, type Dispatch, type ReactNode } from 'react';
import { useViewModel } from '../store/StoreContext';
import type { StorageAdapter } from '../store/types';
import { bindNavActions, type BoundNavActions } from './actions';
import { COLUMNS_KEY, parseColumns, parsePersisted, toPersisted, type ViewStorage } from './persist';
import { navReducer, type NavAction } from './reducer';
import { resolveSelection, type Selection } from './resolve';
import { INITIAL_NAV, type NavState } from './state';

const NavStateContext = createContext<NavState>(INITIAL_NAV);
const NavDispatchContext = createContext<Dispatch<NavAction>>(() => {});
const SelectionContext = createContext<Selection | null>(null);

function init(storage: ViewStorage | undefined): NavState {
  const v = parsePersisted(storage?.load());
  return v ? navReducer(INITIAL_NAV, { type: 'restore', view: v }) : INITIAL_NAV;
}

export function NavigationProvider(props: { children: ReactNode; viewStorage?: ViewStorage | undefined; prefs?: StorageAdapter | undefined }) {
  const [state, dispatch] = useReducer(navReducer, props.viewStorage, init);
  const vm = useViewModel();
  const selection = useMemo(() => resolveSelection(state, vm), [state, vm]);

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
        <SelectionContext.Provider value={selection}>{props.children}</SelectionContext.Provider>
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

/** The action creators bound to the current view model and the dispatch. */
export function useNavActions(): BoundNavActions {
  const vm = useViewModel();
  const dispatch = useNavDispatch();
  return useMemo(() => bindNavActions(vm, dispatch), [vm, dispatch]);
}
