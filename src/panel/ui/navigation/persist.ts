// What of the navigation survives a reload, and where, as DevTools keeps it:
// - the view (selection, tab, filter, search text, timeline zoom) in sessionStorage, like the
//   DevTools front-end's session settings: it survives a reload of the panel (and of the viewer
//   page) and a new capture of the same page, not the closing of DevTools;
// - column widths with the settings (chrome.storage.local in the panel, localStorage in the
//   viewer), like the Network panel's columns: they outlive DevTools.
// Stored data is read back as untrusted: anything malformed is dropped field by field.

import type { EventSel, FindingSel, NavState, SessionRef, Tab, TimelineView } from './state';
import { TABS } from './state';
import type { FindingCode } from '../../../core/model';

export interface PersistedView {
  session?: SessionRef;
  tab?: Tab;
  event?: EventSel;
  requestId?: string;
  finding?: FindingSel;
  filter?: string;
  search?: string;
  timeline?: TimelineView;
}

export function toPersisted(s: NavState): PersistedView {
  const v: PersistedView = { tab: s.tab, filter: s.filter };
  if (s.session) v.session = s.session;
  if (s.event) v.event = s.event;
  if (s.requestId !== undefined) v.requestId = s.requestId;
  if (s.finding) v.finding = s.finding;
  if (s.search.open && s.search.text) v.search = s.search.text;
  if (s.timeline) v.timeline = s.timeline;
  return v;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, max = 4096): v is string => typeof v === 'string' && v.length <= max;
const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const fin = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function sessionRef(v: unknown): SessionRef | undefined {
  return isObj(v) && str(v.key) && str(v.endpoint) && int(v.ordinal) ? { key: v.key, endpoint: v.endpoint, ordinal: v.ordinal } : undefined;
}

function eventSel(v: unknown): EventSel | undefined {
  if (!isObj(v) || !str(v.streamId) || !int(v.index)) return undefined;
  return { streamId: v.streamId, index: v.index, ...(str(v.eventId) ? { eventId: v.eventId } : {}), ...(str(v.lane) ? { lane: v.lane } : {}) };
}

function findingSel(v: unknown): FindingSel | undefined {
  if (!isObj(v) || !str(v.key, 20_000) || !str(v.code, 80) || !Array.isArray(v.eventIds) || !v.eventIds.every((x) => str(x))) return undefined;
  return { key: v.key, code: v.code as FindingCode, eventIds: v.eventIds as string[], ...(str(v.requestId) ? { requestId: v.requestId } : {}) };
}

export function parsePersisted(raw: unknown): PersistedView | undefined {
  if (!isObj(raw)) return undefined;
  const v: PersistedView = {};
  const session = sessionRef(raw.session);
  if (session) v.session = session;
  if (TABS.includes(raw.tab as Tab)) v.tab = raw.tab as Tab;
  const event = eventSel(raw.event);
  if (event) v.event = event;
  if (str(raw.requestId)) v.requestId = raw.requestId;
  const finding = findingSel(raw.finding);
  if (finding) v.finding = finding;
  if (str(raw.filter, 2000)) v.filter = raw.filter;
  if (str(raw.search, 2000)) v.search = raw.search;
  if (isObj(raw.timeline)) {
    const ts = sessionRef(raw.timeline.session);
    const { from, to } = raw.timeline;
    if (ts && fin(from) && fin(to) && to > from) v.timeline = { session: ts, from, to };
  }
  return v;
}

/** Synchronous storage for the view (read before the first render: no flash of another view). */
export interface ViewStorage {
  load(): unknown;
  save(value: unknown): void;
}

export const VIEW_KEY = 'msi.view.v1';

/** The view in sessionStorage (undefined where there is none: a test DOM, a sandboxed page). */
export function sessionViewStorage(key = VIEW_KEY, area: Storage | undefined = globalThis.sessionStorage): ViewStorage | undefined {
  if (!area) return undefined;
  return {
    load() {
      try {
        const t = area.getItem(key);
        return t === null ? undefined : (JSON.parse(t) as unknown);
      } catch {
        return undefined;
      }
    },
    save(value) {
      try {
        area.setItem(key, JSON.stringify(value));
      } catch {
        /* quota, disabled storage: the view is not kept */
      }
    },
  };
}

/** In-memory view storage (tests: a "reload" mounts a new app over the same storage). */
export function memoryViewStorage(): ViewStorage & { value: unknown } {
  const s = {
    value: undefined as unknown,
    load: () => (s.value === undefined ? undefined : (JSON.parse(JSON.stringify(s.value)) as unknown)),
    save: (v: unknown) => void (s.value = JSON.parse(JSON.stringify(v)) as unknown),
  };
  return s;
}

/** Key of the column widths in the settings storage (StorageAdapter). */
export const COLUMNS_KEY = 'msi.columns.v1';

export function parseColumns(raw: unknown): NavState['columns'] {
  if (!isObj(raw)) return {};
  const out: Record<string, (number | undefined)[]> = {};
  for (const [grid, ws] of Object.entries(raw)) {
    if (!Array.isArray(ws) || ws.length > 40) continue;
    out[grid] = ws.map((w) => (fin(w) && w >= 24 && w <= 4000 ? Math.round(w) : undefined));
  }
  return out;
}
