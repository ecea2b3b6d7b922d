import { useDeferredValue, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { formatCount, visibleLine } from '../common/text';
import { navActions } from '../navigation/actions';
import type { NavAction } from '../navigation/reducer';
import { useNav, useNavDispatch } from '../navigation/NavigationProvider';
import { useStore, useViewModelPart } from '../store/StoreContext';
import { useRenderProbe } from '../common/render-probe';
import type { ViewModel } from '../store/view-model';
import { hitLabel, searchAll, type SearchHit } from './search';

function goTo(vm: ViewModel, h: SearchHit): NavAction {
  if (h.kind === 'finding') return navActions.openFinding(vm, h.finding);
  if (h.kind === 'request') return navActions.openRequest(vm, h.sessionKey, h.requestId);
  return navActions.showEvent(vm, h.ref);
}

/** Search across every session (Ctrl/Cmd+Shift+F), next/previous with Enter/Shift+Enter, F3/Shift+F3 or the buttons. */
export function SearchBar() {
  useRenderProbe('search');
  const { search } = useNav();
  // Closed, the bar shows nothing: it does not re-render (nor search) per snapshot.
  const store = useStore();
  const shown = useViewModelPart((v) => (search.open ? v : null));
  const vm = shown ?? store.getState().vm;
  const dispatch = useNavDispatch();
  const inputRef = useRef<HTMLInputElement>(null);
  const text = useDeferredValue(search.text);
  const result = useMemo(() => (search.open ? searchAll(vm, text) : { hits: [], capped: false }), [vm, text, search.open]);
  const n = result.hits.length;
  useEffect(() => {
    if (search.open) inputRef.current?.focus();
  }, [search.open]);
  const step = (dir: 1 | -1) => {
    if (!n) return;
    const index = search.index < 0 ? (dir > 0 ? 0 : n - 1) : (search.index + dir + n) % n;
    dispatch({ type: 'search-go', index, go: goTo(vm, result.hits[index]!) });
  };
  // F3 / Ctrl+G (Shift: previous) wherever the focus is, while the bar is open.
  const stepRef = useRef(step);
  stepRef.current = step;
  useEffect(() => {
    if (!search.open) return;
    const onDoc = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'F3' || ((e.key === 'g' || e.key === 'G') && (e.ctrlKey || e.metaKey))) {
        if ((e.target as Element | null)?.closest?.('[data-testid=search-bar]')) return;
        e.preventDefault();
        stepRef.current(e.shiftKey ? -1 : 1);
      }
    };
    document.addEventListener('keydown', onDoc);
    return () => document.removeEventListener('keydown', onDoc);
  }, [search.open]);
  if (!search.open) return null;
  const cur = search.index >= 0 && search.index < n ? result.hits[search.index] : undefined;
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === 'F3' || ((e.key === 'g' || e.key === 'G') && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      step(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      dispatch({ type: 'search-close' });
    }
  };
  return (
    <div className="searchbar" role="search" data-testid="search-bar">
      <input
        ref={inputRef}
        className="tb-filter"
        type="search"
        placeholder="Search every session: event id, request id, text (id:<x> for an exact id)"
        aria-label="Search every session"
        value={search.text}
        data-testid="search-input"
        onChange={(e) => dispatch({ type: 'search-text', text: e.target.value })}
        onKeyDown={onKey}
      />
      <span className="search-count" data-testid="search-count" aria-live="polite">
        {!text.trim() ? '' : n === 0 ? 'No matches' : `${cur ? search.index + 1 : '–'} of ${formatCount(n)}${result.capped ? '+' : ''}`}
      </span>
      <button type="button" className="tb-btn" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={!n} onClick={() => step(-1)} data-testid="search-prev">
        ▲
      </button>
      <button type="button" className="tb-btn" aria-label="Next match" title="Next match (Enter)" disabled={!n} onClick={() => step(1)} data-testid="search-next">
        ▼
      </button>
      {cur && <span className="search-hit dim">{visibleLine(hitLabel(vm, cur), 160)}</span>}
      <button type="button" className="tb-btn search-close" aria-label="Close search" title="Close (Esc)" onClick={() => dispatch({ type: 'search-close' })}>
        ✕
      </button>
    </div>
  );
}
