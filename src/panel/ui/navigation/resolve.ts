// From references (what the user selected, maybe in an earlier capture) to what is in the current
// view model, and back. Pure functions of (state, view model).

import type { Finding } from '../../../core/model';
import { findingKey, findingTarget } from '../findings/finding-target';
import type { SessionView, ViewModel } from '../store/view-model';
import type { EventRef, EventSel, FindingSel, NavState, SessionRef } from './state';

export function sessionRefOf(vm: ViewModel, key: string): SessionRef | undefined {
  const row = vm.session(key);
  if (!row) return undefined;
  const endpoint = row.session.endpoint;
  let ordinal = 0;
  for (const r of vm.sessions) {
    if (r.key === key) break;
    if (r.session.endpoint === endpoint) ordinal++;
  }
  return { key, endpoint, ordinal };
}

/** The session itself; else (a new capture: new session ids) the one with its endpoint and place. */
export function resolveSessionRef(vm: ViewModel, ref: SessionRef): string | undefined {
  if (vm.session(ref.key)) return ref.key;
  const same = vm.sessions.filter((r) => r.session.endpoint === ref.endpoint);
  return (same[ref.ordinal] ?? same[same.length - 1])?.key;
}

export function eventSelOf(vm: ViewModel, ref: EventRef): EventSel {
  const s = vm.snap.streams[ref.streamId];
  const e = s?.events.at(ref.index);
  const lane = s ? vm.session(s.sessionKey)?.lanes.labels.get(s.id) : undefined;
  return { ...ref, ...(e?.id !== undefined ? { eventId: e.id } : {}), ...(lane !== undefined ? { lane } : {}) };
}

/** The event itself; else the event with its id (or index) on the lane with its label. */
export function resolveEvent(view: SessionView | undefined, snap: ViewModel['snap'], sel: EventSel | undefined): EventRef | undefined {
  if (!sel || !view) return undefined;
  const s = snap.streams[sel.streamId];
  const e = s?.events.at(sel.index);
  if (s && s.sessionKey === view.session.key && e && (sel.eventId === undefined || e.id === sel.eventId)) return { streamId: s.id, index: sel.index };
  if (sel.lane === undefined) return undefined;
  for (const st of view.lanes.streams) {
    if (view.lanes.labels.get(st.id) !== sel.lane) continue;
    if (sel.eventId === undefined) return st.events.at(sel.index) ? { streamId: st.id, index: sel.index } : undefined;
    let i = -1;
    for (let k = 0; k < st.events.length && i < 0; k++) if (st.events.id(k) === sel.eventId) i = k;
    return i >= 0 ? { streamId: st.id, index: i } : undefined;
  }
  return undefined;
}

export function findingSelOf(f: Finding): FindingSel {
  return { key: findingKey(f), code: f.code, eventIds: f.eventIds.slice(0, 50), ...(f.requestId !== undefined ? { requestId: f.requestId } : {}) };
}

export function resolveFinding(view: SessionView | undefined, sel: FindingSel | undefined): Finding | undefined {
  if (!sel || !view) return undefined;
  const same = (f: Finding) => f.code === sel.code && f.requestId === sel.requestId;
  return (
    view.findings.find((f) => findingKey(f) === sel.key) ??
    view.findings.find((f) => same(f) && f.eventIds.slice(0, 50).join(',') === sel.eventIds.join(',')) ??
    view.findings.find(same)
  );
}

/** What is selected, in the current view model. */
export interface Selection {
  sessionKey: string | undefined;
  view: SessionView | undefined;
  event: EventRef | undefined;
  requestId: string | undefined;
  finding: Finding | undefined;
}

export function resolveSelection(nav: NavState, vm: ViewModel): Selection {
  const sessionKey = (nav.session && resolveSessionRef(vm, nav.session)) ?? vm.worstSessionKey;
  const view = vm.session(sessionKey);
  const requestId = nav.requestId !== undefined && view?.requestById.has(nav.requestId) ? nav.requestId : undefined;
  return { sessionKey: view ? sessionKey : undefined, view, event: resolveEvent(view, vm.snap, nav.event), requestId, finding: resolveFinding(view, nav.finding) };
}

/** The session a finding's navigation must switch to, when it is not the one shown. */
export function findingEvent(vm: ViewModel, f: Finding): EventSel | undefined {
  const t = findingTarget(vm.snap, f);
  return t ? eventSelOf(vm, t) : undefined;
}
