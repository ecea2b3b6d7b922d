// Action creators: they resolve what an action points at (a finding's event, a session's
// reference) from the view model, so that the reducer stays pure. Views get them bound to the
// current view model and dispatch through useNavActions().

import type { Finding } from '../../../core/model';
import type { ViewModel } from '../store/view-model';
import type { NavAction } from './reducer';
import { eventSelOf, findingEvent, findingSelOf, sessionRefOf } from './resolve';
import type { EventRef, Tab } from './state';

const sessionOfStream = (vm: ViewModel, streamId: string) => {
  const k = vm.snap.streams[streamId]?.sessionKey;
  return k === undefined ? undefined : sessionRefOf(vm, k);
};
const opt = <K extends string, V>(k: K, v: V | undefined) => (v === undefined ? {} : ({ [k]: v } as { [P in K]: V }));

export const navActions = {
  selectSession: (vm: ViewModel, key: string): NavAction | undefined => {
    const session = sessionRefOf(vm, key);
    return session && { type: 'select-session', session };
  },
  selectTab: (_vm: ViewModel, tab: Tab): NavAction => ({ type: 'select-tab', tab }),
  selectEvent: (vm: ViewModel, ref: EventRef | undefined): NavAction => ({ type: 'select-event', event: ref && eventSelOf(vm, ref) }),
  selectRequest: (_vm: ViewModel, requestId: string | undefined): NavAction => ({ type: 'select-request', requestId }),
  selectFinding: (vm: ViewModel, f: Finding): NavAction => ({ type: 'select-finding', finding: findingSelOf(f), event: findingEvent(vm, f) }),
  showFindingInTimeline: (vm: ViewModel, f: Finding): NavAction => ({
    type: 'show-in-timeline',
    finding: findingSelOf(f),
    ...opt('session', sessionRefOf(vm, f.sessionKey)),
    ...opt('event', findingEvent(vm, f)),
    ...opt('streamId', f.streamId),
  }),
  showFindingInEvents: (vm: ViewModel, f: Finding): NavAction => ({ type: 'show-in-events', finding: findingSelOf(f), ...opt('session', sessionRefOf(vm, f.sessionKey)), ...opt('event', findingEvent(vm, f)) }),
  openFinding: (vm: ViewModel, f: Finding): NavAction => ({ type: 'open-finding', finding: findingSelOf(f), event: findingEvent(vm, f), ...opt('session', sessionRefOf(vm, f.sessionKey)) }),
  showEvent: (vm: ViewModel, ref: EventRef): NavAction => ({ type: 'show-in-events', event: eventSelOf(vm, ref), ...opt('session', sessionOfStream(vm, ref.streamId)) }),
  showEventInTimeline: (vm: ViewModel, ref: EventRef): NavAction => ({ type: 'show-in-timeline', event: eventSelOf(vm, ref), ...opt('session', sessionOfStream(vm, ref.streamId)) }),
  showStreamInTimeline: (vm: ViewModel, streamId: string): NavAction => ({ type: 'show-in-timeline', streamId, ...opt('session', sessionOfStream(vm, streamId)) }),
  openRequest: (vm: ViewModel, sessionKey: string, requestId: string): NavAction => ({ type: 'open-request', requestId, ...opt('session', sessionRefOf(vm, sessionKey)) }),
};

type Bound<T> = { [K in keyof T]: T[K] extends (vm: ViewModel, ...a: infer A) => NavAction | undefined ? (...a: A) => void : never };
export type BoundNavActions = Bound<typeof navActions>;

/** `vm`: the view model, or a getter of the one current when an action is called. */
export function bindNavActions(vm: ViewModel | (() => ViewModel), dispatch: (a: NavAction) => void): BoundNavActions {
  const out = {} as Record<string, (...a: unknown[]) => void>;
  const current = typeof vm === 'function' ? vm : () => vm;
  for (const [k, f] of Object.entries(navActions)) {
    out[k] = (...a: unknown[]) => {
      const action = (f as (vm: ViewModel, ...a: unknown[]) => NavAction | undefined)(current(), ...a);
      if (action) dispatch(action);
    };
  }
  return out as BoundNavActions;
}
