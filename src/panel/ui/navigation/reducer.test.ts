// Navigation as a reducer: pure transitions over typed actions, focus requests with a sequence
// number that are applied once, and references that find a selection again in a new capture.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../core';
import type { CaptureRecord } from '../../../core/record';
import { createViewModelBuilder } from '../store/view-model';
import { analyzed, captureRecords } from '../test-support/fixtures';
import { navActions } from './actions';
import { parsePersisted, toPersisted } from './persist';
import { navReducer, type NavAction } from './reducer';
import { resolveSelection } from './resolve';
import { INITIAL_NAV, type NavState } from './state';

const vmOf = (name: Parameters<typeof analyzed>[0]) => createViewModelBuilder().build(analyzed(name), captureRecords(name));
/** The same records as a new capture would have them: another document (src), another session id. */
const recapture = (r: readonly CaptureRecord[], sid: string) => JSON.parse(JSON.stringify(r).replaceAll(sid, 'another-session').replaceAll('"node:lossy"', '"node:again"')) as CaptureRecord[];
const run = (s: NavState, ...as: (NavAction | undefined)[]) => as.reduce((x, a) => (a ? navReducer(x, a) : x), s);

describe('navigation reducer', () => {
  const vm = vmOf('lossy');
  const worst = vm.findings[0]!;

  it('opens on the worst session; a finding shown in the timeline selects its event and asks the timeline for focus once', () => {
    expect(resolveSelection(INITIAL_NAV, vm).sessionKey).toBe(worst.sessionKey);
    const s = run(INITIAL_NAV, navActions.showFindingInTimeline(vm, worst));
    expect(s.tab).toBe('timeline');
    expect(s.focus).toMatchObject({ seq: 1, takeFocus: true });
    const sel = resolveSelection(s, vm);
    expect(sel.finding?.code).toBe(worst.code);
    expect(vm.snap.streams[sel.event!.streamId]!.events.at(sel.event!.index)!.messages.some((m) => m.kind === 'result')).toBe(true);
    // the view that applied it says so; a stale seq changes nothing
    const done = run(s, { type: 'focus-done', seq: 1 });
    expect(done.focus).toBeUndefined();
    expect(run(s, { type: 'focus-done', seq: 0 }).focus).toBe(s.focus);
  });

  it('a finding selected in the grid selects its event, focuses without taking keyboard focus, reveals it in the table', () => {
    const gap = vm.findings.find((f) => f.code === 'replay-gap')!;
    const s = run(INITIAL_NAV, { type: 'select-tab', tab: 'findings' }, navActions.selectFinding(vm, gap));
    expect(s.tab).toBe('findings');
    expect(s.focus?.takeFocus).toBe(false);
    expect(s.reveal).toBe(s.focus?.seq);
    expect(vm.snap.streams[s.event!.streamId]!.events.at(s.event!.index)!.id).toBe(s.event!.eventId);
    expect(run(s, { type: 'reveal-done', seq: s.reveal! }).reveal).toBeUndefined();
  });

  it('selecting another session clears the selection made in the previous one', () => {
    const s = run(INITIAL_NAV, navActions.selectFinding(vm, worst), navActions.openRequest(vm, worst.sessionKey, worst.requestId!));
    expect(s.requestId).toBe(worst.requestId);
    const other = run(s, { type: 'select-session', session: { key: 'other', endpoint: 'x', ordinal: 0 } });
    expect([other.event, other.requestId, other.finding, other.focus]).toEqual([undefined, undefined, undefined, undefined]);
    expect(run(s, { type: 'select-session', session: s.session ?? { key: worst.sessionKey, endpoint: '', ordinal: 0 } }).requestId).toBe(worst.requestId);
  });

  it('a search result goes to its item and keeps the index', () => {
    const s = run(INITIAL_NAV, { type: 'search-text', text: 'tools/call' }, { type: 'search-go', index: 2, go: navActions.openRequest(vm, worst.sessionKey, worst.requestId!) });
    expect(s.search).toEqual({ open: true, text: 'tools/call', index: 2 });
    expect(s.tab).toBe('requests');
    expect(run(s, { type: 'search-text', text: 'x' }).search.index).toBe(-1);
  });

  it('the view survives a reload (persisted, parsed back as untrusted data) and finds its selection in a new capture of the same page', () => {
    const gap = vm.findings.find((f) => f.code === 'replay-gap')!;
    const s = run(INITIAL_NAV, navActions.showFindingInEvents(vm, gap), { type: 'set-filter', text: 'method:notifications' });
    const stored = JSON.parse(JSON.stringify(toPersisted(s)));
    const restored = run(INITIAL_NAV, { type: 'restore', view: parsePersisted(stored)! });
    expect(restored.tab).toBe('events');
    expect(restored.filter).toBe('method:notifications');
    expect(resolveSelection(restored, vm).event).toEqual(resolveSelection(s, vm).event);
    // Another capture of the same page: a new session id, new stream ids.
    const recs = recapture(captureRecords('lossy'), worst.sessionId!);
    const vm2 = createViewModelBuilder().build(analyzeRecords(recs), recs);
    const sel2 = resolveSelection(restored, vm2);
    expect(sel2.sessionKey).toBe('another-session');
    expect(sel2.event!.streamId).not.toBe(s.event!.streamId);
    expect(sel2.finding?.code).toBe('replay-gap');
    expect(vm2.snap.streams[sel2.event!.streamId]!.events.at(sel2.event!.index)!.id).toBe(s.event!.eventId);
    // malformed stored data is dropped field by field
    expect(parsePersisted({ tab: 'nope', filter: 3, event: { streamId: 1 }, session: { key: 'k', endpoint: 'e', ordinal: 0 } })).toEqual({ session: { key: 'k', endpoint: 'e', ordinal: 0 } });
  });
});
