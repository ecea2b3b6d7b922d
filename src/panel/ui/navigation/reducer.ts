// Navigation as a reducer over typed actions. Pure: an action carries what it needs (targets are
// resolved from the view model by the action creators in actions.ts), so the reducer never reads
// the snapshot and a test can drive it without React.

import type { EventSel, FindingSel, NavState, SessionRef, Tab, TimelineView } from './state';
import type { PersistedView } from './persist';

export type NavAction =
  | { type: 'select-session'; session: SessionRef }
  | { type: 'select-tab'; tab: Tab }
  | { type: 'select-event'; event: EventSel | undefined }
  | { type: 'select-request'; requestId: string | undefined }
  /** A finding selected in the findings grid: its event too, so the timeline and table open on it. */
  | { type: 'select-finding'; finding: FindingSel; event: EventSel | undefined }
  | { type: 'show-in-timeline'; session?: SessionRef; finding?: FindingSel; event?: EventSel; streamId?: string }
  | { type: 'show-in-events'; session?: SessionRef; finding?: FindingSel; event?: EventSel }
  | { type: 'open-request'; session?: SessionRef; requestId: string }
  | { type: 'open-finding'; session?: SessionRef; finding: FindingSel; event: EventSel | undefined }
  | { type: 'focus-done'; seq: number }
  | { type: 'reveal-done'; seq: number }
  | { type: 'set-filter'; text: string }
  | { type: 'search-open' }
  | { type: 'search-close' }
  | { type: 'search-text'; text: string }
  /** Go to search result `index`: `go` is the navigation to it (open-request, show-in-events...). */
  | { type: 'search-go'; index: number; go: NavAction | undefined }
  | { type: 'set-columns'; grid: string; widths: readonly (number | undefined)[] }
  | { type: 'set-timeline-view'; view: TimelineView | undefined }
  /** Another capture is shown (an import, back to live): nothing selected in it yet. */
  | { type: 'source-replaced' }
  | { type: 'restore'; view: PersistedView }
  | { type: 'restore-columns'; columns: NavState['columns'] }
  | { type: 'open-settings' }
  | { type: 'close-settings' }
  | { type: 'show-error'; text: string }
  | { type: 'dismiss-error' };

const sameSession = (a: SessionRef | undefined, b: SessionRef | undefined) => a?.key === b?.key;

/** Selecting another session clears what was selected in the previous one. */
function withSession(s: NavState, session: SessionRef | undefined): NavState {
  if (!session || sameSession(s.session, session)) return session ? { ...s, session } : s;
  return { ...s, session, event: undefined, requestId: undefined, finding: undefined, focus: undefined, reveal: undefined, revealFocus: false };
}

export function navReducer(s: NavState, a: NavAction): NavState {
  switch (a.type) {
    case 'select-session':
      return withSession(s, a.session);
    case 'select-tab':
      return s.tab === a.tab ? s : { ...s, tab: a.tab };
    case 'select-event':
      return { ...s, event: a.event };
    case 'select-request':
      return s.requestId === a.requestId ? s : { ...s, requestId: a.requestId };
    case 'select-finding': {
      const seq = s.seq + 1;
      if (!a.event) return { ...s, finding: a.finding };
      return { ...s, seq, finding: a.finding, event: a.event, focus: { seq, streamId: a.event.streamId, index: a.event.index, takeFocus: false }, reveal: seq, revealFocus: false };
    }
    case 'show-in-timeline': {
      const n = withSession(s, a.session);
      const seq = s.seq + 1;
      const streamId = a.event?.streamId ?? a.streamId;
      return {
        ...n,
        seq,
        tab: 'timeline',
        event: a.event ?? n.event,
        finding: a.finding ?? n.finding,
        focus: { seq, ...(streamId !== undefined ? { streamId } : {}), ...(a.event ? { index: a.event.index } : {}), takeFocus: true },
      };
    }
    case 'show-in-events': {
      const n = withSession(s, a.session);
      const seq = s.seq + 1;
      return { ...n, seq, tab: 'events', event: a.event ?? n.event, finding: a.finding ?? n.finding, reveal: seq, revealFocus: true };
    }
    case 'open-request':
      return { ...withSession(s, a.session), tab: 'requests', requestId: a.requestId };
    case 'open-finding': {
      const n = navReducer(withSession(s, a.session), { type: 'select-finding', finding: a.finding, event: a.event });
      return { ...n, tab: 'findings' };
    }
    case 'focus-done':
      return s.focus?.seq === a.seq ? { ...s, focus: undefined } : s;
    case 'reveal-done':
      return s.reveal === a.seq ? { ...s, reveal: undefined, revealFocus: false } : s;
    case 'set-filter':
      return s.filter === a.text ? s : { ...s, filter: a.text };
    case 'search-open':
      return s.search.open ? s : { ...s, search: { ...s.search, open: true } };
    case 'search-close':
      return s.search.open ? { ...s, search: { ...s.search, open: false } } : s;
    case 'search-text':
      return s.search.text === a.text ? s : { ...s, search: { open: true, text: a.text, index: -1 } };
    case 'search-go': {
      const n = a.go ? navReducer(s, a.go) : s;
      return { ...n, search: { ...n.search, open: true, index: a.index } };
    }
    case 'set-columns':
      return { ...s, columns: { ...s.columns, [a.grid]: a.widths.slice() } };
    case 'set-timeline-view':
      return { ...s, timeline: a.view };
    case 'source-replaced':
      return { ...s, session: undefined, event: undefined, requestId: undefined, finding: undefined, focus: undefined, reveal: undefined, revealFocus: false, timeline: undefined };
    case 'restore': {
      const v = a.view;
      const seq = s.seq + 1;
      return {
        ...s,
        seq,
        session: v.session,
        tab: v.tab ?? s.tab,
        event: v.event,
        requestId: v.requestId,
        finding: v.finding,
        filter: v.filter ?? s.filter,
        search: { open: !!v.search, text: v.search ?? '', index: -1 },
        timeline: v.timeline,
        // the restored event is scrolled into view once it is in the table
        reveal: v.event ? seq : undefined,
        revealFocus: false,
      };
    }
    case 'restore-columns':
      // widths the user set in this panel before the stored ones arrived win
      return { ...s, columns: { ...a.columns, ...s.columns } };
    case 'open-settings':
      return { ...s, settingsOpen: true };
    case 'close-settings':
      return { ...s, settingsOpen: false };
    case 'show-error':
      return { ...s, error: a.text };
    case 'dismiss-error':
      return s.error === undefined ? s : { ...s, error: undefined };
  }
}
