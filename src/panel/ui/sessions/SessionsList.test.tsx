// @vitest-environment happy-dom
// The sessions list: counts, the worst finding, open streams — not counting a session a DELETE
// ended ("● 1 open" on a terminated session was its GET stream).
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeRecords, createAnalyzer } from '../../../core';
import { InspectorApp } from '../app/InspectorApp';
import { createMutableSource } from '../sources/static-source';
import { deletedSession } from '../test-support/generated';
import { $, mount, until, type Mounted } from '../test-support/render';
import { openStreams } from './session-rows';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

describe('open streams of a session', () => {
  it('a DELETE the server accepted ends the session: its streams are not open', async () => {
    const recs = deletedSession();
    const snap = analyzeRecords(recs.slice(0, -2)); // before the DELETE: the GET stream is open
    const live = createAnalyzer();
    for (const r of recs) live.push(r);
    const after = live.snapshot();
    expect(after.finished).toBeFalsy();
    const s = after.sessions[0]!;
    expect(Object.values(after.streams).some((x) => x.method === 'GET' && x.state === 'open')).toBe(true);
    expect(openStreams(after, s)).toEqual({ open: 0, terminated: true });
    expect(openStreams(snap, snap.sessions[0]!).terminated).toBe(false);

    // Live, in the panel: before the DELETE "● 1 open", after it "ended (DELETE)".
    const src = createMutableSource(recs.slice(0, -2));
    m = await mount(<InspectorApp source={src} analyzerFactory={() => createAnalyzer()} mode="devtools" />);
    await until(() => expect($(m!.container, '[data-testid=open-streams]')?.textContent).toBe('● 1 open'));
    src.push(...recs.slice(-2));
    await until(() => expect($(m!.container, '[data-testid=session-terminated]')?.textContent).toContain('DELETE'));
    expect($(m.container, '[data-testid=open-streams]')).toBeNull();
  });
});
