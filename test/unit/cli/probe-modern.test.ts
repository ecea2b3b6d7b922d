// `probe` in the 2026-07-28 era, against the SDK v2 fixture server's strict modern handler: the
// SDK v2 client's negotiation picks the era; no Last-Event-ID to grade ("not shown"); a broken
// request stream and its re-issue; a dropped subscriptions/listen. And the era options refused
// where the server does not speak the era.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../fixtures/mcp-server/index.js';
import { startV2FixtureServer, type V2FixtureServer } from '../../fixtures/v2/server/server.js';
import { LONG_TASK, QUICK, card, probe, verdicts } from './probe-helpers.js';

describe('probe: the 2026-07-28 era', () => {
  let v2: V2FixtureServer;
  let v1: FixtureServer;
  beforeAll(async () => {
    v2 = await startV2FixtureServer();
    v1 = await startFixtureServer({ mode: 'lossless', cut: undefined });
  });
  afterAll(async () => {
    await v2.close();
    await v1.close();
  });

  it('modern-baseline: the era negotiated, resumption not shown, the re-issue and the dropped listen reported', async () => {
    const { code, card: c } = await card(v2.modeUrl('modern-baseline'));
    expect(c.era).toBe('modern');
    expect(c.protocolVersion).toBe('2026-07-28');
    expect(c.overall).toBe('not shown');
    const v = verdicts(c);
    expect([v['gapless-retention'], v['gap-signalled'], v['session-scoping']]).toEqual(['unknown', 'unknown', 'unknown']);
    expect(v['terminal-pinned']).toBe('pass');
    expect(v['drops-only-idempotent']).toBe('pass');
    const reissue = c.experiments.find((x) => x.name.startsWith('broken request stream'))!;
    expect(reissue.status).toBe('ran');
    expect(reissue.summary).toMatch(/first attempt cut after \d+ events.*the re-issue: 9 messages, the result once.*long_task is not declared idempotent/);
    expect(reissue.findings?.map((f) => f.code)).toEqual(expect.arrayContaining(['request-reissued']));
    const listen = c.experiments.find((x) => x.name === 'dropped subscriptions/listen')!;
    expect(listen.summary).toMatch(/the client saw the subscription end \(remote\)/);
    expect(listen.findings?.map((f) => f.code)).toEqual(['subscription-dropped']);
    expect(code).toBe(0);
  });

  it('--era legacy against a server that rejects the 2025 era, --era modern against one that only speaks it: exit 2, said so', async () => {
    const legacy = await probe(v2.modeUrl('modern-baseline'), [...LONG_TASK, ...QUICK, '--era', 'legacy']);
    expect(legacy.code).toBe(2);
    expect(legacy.stderr).toMatch(/cannot open a 2025-era session/);
    const modern = await probe(v1.url, [...LONG_TASK, ...QUICK, '--era', 'modern']);
    expect(modern.code).toBe(2);
    expect(modern.stderr).toMatch(/does not speak the 2026-07-28 revision/);
  });
});
