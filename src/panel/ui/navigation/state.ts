// What the user is looking at: the navigation state of the inspector, changed only by the reducer
// (reducer.ts) over typed actions (actions.ts). Selections are kept as references that can be found
// again in a later capture (session by endpoint, event by lane label and event id, finding by code
// and request), so that they survive a reload of the panel and a new capture of the same page;
// resolve.ts finds them in the current view model.

import type { FindingCode } from '../../../core/model';

export type Tab = 'timeline' | 'events' | 'requests' | 'findings';
export const TABS: readonly Tab[] = ['timeline', 'events', 'requests', 'findings'];

export interface SessionRef {
  key: string;
  endpoint: string;
  /** Among the sessions with this endpoint, in list order (a new capture has new session ids). */
  ordinal: number;
}

export interface EventRef {
  streamId: string;
  index: number;
}

/** A selected event, with what finds it again in a new capture: its lane's label and its id. */
export interface EventSel extends EventRef {
  eventId?: string;
  lane?: string;
}

export interface FindingSel {
  /** findingKey() of the finding. */
  key: string;
  code: FindingCode;
  requestId?: string;
  eventIds: string[];
}

/** A request to the timeline to centre on something; applied once (then `focus-done`). */
export interface FocusRequest {
  seq: number;
  streamId?: string;
  index?: number;
  /** Move keyboard focus to the timeline ("Show in timeline"); not for a selection made elsewhere. */
  takeFocus: boolean;
}

/** The timeline's zoom, relative to its session's start, for the session it was set on. */
export interface TimelineView {
  session: SessionRef;
  from: number;
  to: number;
}

export interface SearchState {
  open: boolean;
  text: string;
  /** The current result (into the results of `text`), -1 before the first next/previous. */
  index: number;
}

export interface NavState {
  /** Bumped by every action that asks a view to do something once (focus, reveal). */
  seq: number;
  /** The user's choice; undefined: the session of the worst finding. */
  session: SessionRef | undefined;
  tab: Tab;
  event: EventSel | undefined;
  requestId: string | undefined;
  finding: FindingSel | undefined;
  focus: FocusRequest | undefined;
  /** Seq of a pending "scroll the selected event into view" for the events table. */
  reveal: number | undefined;
  /** The pending reveal moves the keyboard focus into the events table too ("show in events"). */
  revealFocus: boolean;
  filter: string;
  search: SearchState;
  timeline: TimelineView | undefined;
  /** Column widths per grid (undefined: the column's default). */
  columns: Readonly<Record<string, readonly (number | undefined)[]>>;
  settingsOpen: boolean;
  /** One error banner (an import or export that failed). */
  error: string | undefined;
}

export const INITIAL_NAV: NavState = Object.freeze({
  seq: 0,
  session: undefined,
  tab: 'timeline',
  event: undefined,
  requestId: undefined,
  finding: undefined,
  focus: undefined,
  reveal: undefined,
  revealFocus: false,
  filter: '',
  search: Object.freeze({ open: false, text: '', index: -1 }),
  timeline: undefined,
  columns: Object.freeze({}),
  settingsOpen: false,
  error: undefined,
}) as NavState;
