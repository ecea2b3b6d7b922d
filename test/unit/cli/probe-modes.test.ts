// `probe` against the fixture server in every mode that bears on resumption (the server's own
// cuts switched off: the probe makes its own) and against the official SDK servers v1 and v2
// unmodified: each gets the grade its mode implies, and the report names the experiment and the
// events that show it. Servers run in-process on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { startFixtureServer, type ModeName } from '../../fixtures/mcp-server/index.js';
import { startSdkServer } from '../../fixtures/probe/sdk-servers.js';
import type { ConditionKey } from '../../../src/cli/probe/types.js';
import { FLOOD, LONG_TASK, QUICK, because, card, verdicts } from './probe-helpers.js';

interface Expect {
  overall: 'yes' | 'no' | 'not shown';
  fail?: ConditionKey[];
  pass?: ConditionKey[];
  /** The experiment and text a failure of fail[0] is shown by. */
  shownBy?: RegExp;
  checkFail?: ('priming' | 'ids-unique' | 'resume-prompt')[];
  args?: string[];
}

const MODES: Partial<Record<ModeName, Expect>> = {
  lossless: { overall: 'yes', pass: ['gapless-retention', 'drops-only-idempotent', 'terminal-pinned', 'session-scoping'] },
  'gapless-declared': { overall: 'yes', pass: ['gapless-retention', 'terminal-pinned'] },
  /** The SDK example store's ids, behind the fixture. */
  opaque: { overall: 'yes', pass: ['gapless-retention'] },
  /** mcp-proxy's store: an unknown cursor is refused with 400. */
  'mcp-proxy': { overall: 'yes', pass: ['gap-signalled'] },
  lossy: { overall: 'no', fail: ['gapless-retention', 'gap-signalled'], shownBy: /^cut after \d+ event/ },
  'gapless-lossy': { overall: 'no', fail: ['gapless-retention', 'gap-signalled'], shownBy: /^cut after \d+ event/ },
  /** Lossy, but says so: gap signalled passes, trust still fails (the client must resync). */
  resync: { overall: 'no', fail: ['gapless-retention'], pass: ['gap-signalled'], shownBy: /^cut after \d+ event/ },
  'live-drop': { overall: 'no', fail: ['drops-only-idempotent'], shownBy: /^baseline$/ },
  /** Every resume finds its cursor evicted. */
  evicted: { overall: 'no', fail: ['gapless-retention'], shownBy: /^cut after \d+ event/ },
  /** A bounded store (FIFO of 8 events): the cursor is gone by the resume, 400. */
  'mcp-proxy-evicted': { overall: 'no', fail: ['gapless-retention'], pass: ['gap-signalled'], shownBy: /^cut after \d+ event/ },
  'cross-stream': { overall: 'no', fail: ['gapless-retention'], shownBy: /^cut after \d+ event/ },
  'duplicate-replay': { overall: 'no', fail: ['gapless-retention'], shownBy: /^cut after \d+ event/ },
  'session-404': { overall: 'no', fail: ['gapless-retention'], pass: ['gap-signalled'], shownBy: /^cut after \d+ event/ },
  'dropped-result': { overall: 'no', fail: ['terminal-pinned'], shownBy: /^baseline$/ },
  'closed-before-priming': { overall: 'no', fail: ['terminal-pinned'], checkFail: ['priming'], shownBy: /^baseline$/ },
  /** A store shared across sessions (the Python SDK's session manager). */
  'python-shared': { overall: 'no', fail: ['session-scoping'], shownBy: /^resume from a second session/ },
  'python-cross-session': { overall: 'no', fail: ['session-scoping'], shownBy: /^resume from a second session/ },
  /** No event store: nothing to grade resumption on. */
  tmcp: { overall: 'not shown', checkFail: ['priming'] },
  'backpressure-drop': { overall: 'no', fail: ['drops-only-idempotent'], pass: ['terminal-pinned'], shownBy: /^slow reader/, args: FLOOD },
  'backpressure-drain': { overall: 'yes', pass: ['drops-only-idempotent', 'terminal-pinned'], args: FLOOD },
};

describe('probe: fixture modes', () => {
  for (const [mode, e] of Object.entries(MODES) as [ModeName, Expect][]) {
    it(`${mode}: ${e.overall}${e.fail ? `, fails ${e.fail.join(', ')}` : ''}`, async () => {
      // /mcp/<mode> serves the mode as defined, its own cut included: the probe needs a server
      // that cuts nothing, so each mode gets a server of its own with `cut` switched off.
      const s = await startFixtureServer({ mode, cut: undefined });
      try {
        const { code, card: c } = await card(s.url, e.args ?? [...LONG_TASK, ...QUICK]);
        const v = verdicts(c);
        expect(c.overall).toBe(e.overall);
        for (const k of e.fail ?? []) expect(v[k], k).toBe('fail');
        for (const k of e.pass ?? []) expect(v[k], k).toBe('pass');
        for (const k of e.checkFail ?? []) expect(v[k], k).toBe('fail');
        if (e.overall === 'yes') {
          expect(c.conditions.filter((g) => g.verdict === 'fail')).toEqual([]);
          expect(code).toBe(0);
        }
        if (e.overall === 'no') expect(code).toBe(1);
        if (e.fail?.length && e.shownBy) {
          const b = because(c, e.fail[0]!);
          expect(b.some((x) => e.shownBy!.test(x.experiment)), JSON.stringify(b, null, 1)).toBe(true);
          // The events that show it: ids, unless the stream had none to show.
          expect(b.some((x) => (x.events?.length ?? 0) > 0) || e.fail[0] === 'terminal-pinned', JSON.stringify(b, null, 1)).toBe(true);
        }
        if (mode.startsWith('python')) {
          expect(c.security).toHaveLength(1);
          const [a, bSession] = c.security[0]!.sessions;
          expect(a).toBe(c.sessions[0]);
          expect(bSession).not.toBe(a);
          expect(c.security[0]!.message).toContain(a);
          expect(c.security[0]!.message).toContain(bSession);
        } else expect(c.security).toEqual([]);
        if (mode === 'backpressure-drop') {
          // The slow reader shows the drop policy: the dropped messages named, the result pinned,
          // and the server's own log agrees that it dropped under backpressure.
          const slow = c.experiments.find((x) => x.name.startsWith('slow reader'))!;
          const drop = slow.evidence.find((x) => x.on === 'drops-only-idempotent' && x.verdict === 'fail')!;
          expect(drop.text).toMatch(/dropped \d+ message\(s\) that change what the client accumulates: notifications\/message #\d+/);
          expect(slow.evidence.find((x) => x.on === 'terminal-pinned')!.verdict).toBe('pass');
          expect(s.log.some((l) => l.type === 'backpressure' && l.policy === 'drop')).toBe(true);
        }
        if (mode === 'backpressure-drain') expect(s.log.some((l) => l.type === 'backpressure' && l.policy === 'drain')).toBe(true);
      } finally {
        await s.close();
      }
    });
  }
});

describe('probe: the official SDK servers, unmodified', () => {
  for (const sdk of ['v1', 'v2'] as const) {
    it(`SDK ${sdk} with the example event store: yes, no failed condition`, async () => {
      const s = await startSdkServer(sdk);
      try {
        const { code, card: c } = await card(s.url);
        expect(c.overall).toBe('yes');
        expect(c.conditions.filter((g) => g.verdict === 'fail')).toEqual([]);
        expect(verdicts(c)['gapless-retention']).toBe('pass');
        // Cut right after the priming event, and half-way: each resume checked against the baseline.
        expect(because(c, 'gapless-retention').map((b) => b.experiment)).toEqual(expect.arrayContaining([expect.stringMatching(/right after the priming event/)]));
        expect(code).toBe(0);
      } finally {
        await s.close();
      }
    });
  }
});

describe('probe: resumes answered promptly (a check; request-stalled in browsers)', () => {
  it('a store that holds each replay 1.5 s fails it, naming the resume and the wait, and only warns; one that answers at once passes', async () => {
    const held = await startFixtureServer({ mode: 'lossless', cut: undefined, replay: { holdMs: 1500 } });
    const prompt = await startFixtureServer({ mode: 'lossless', cut: undefined });
    try {
      const args = [...LONG_TASK, '--timeout', '5000', '--pace', '10', '--pace-for', '100', '--listen', '200'];
      const { code, card: h } = await card(held.url, args);
      expect(verdicts(h)['resume-prompt']).toBe('fail');
      const b = because(h, 'resume-prompt');
      expect(b[0]!.experiment).toMatch(/^cut after \d+ event/);
      expect(b[0]!.text).toMatch(/^the resume from \S+ got its response headers (1\.[5-9]|[2-9]\.\d) s after it was sent: in a browser every later GET/);
      expect(b[0]!.events).toHaveLength(1);
      // A check, not a condition of sound resumption: the replay itself is whole.
      expect(h.overall).toBe('yes');
      expect(code).toBe(0);
      const p = (await card(prompt.url, args)).card;
      expect(verdicts(p)['resume-prompt']).toBe('pass');
      expect(because(p, 'resume-prompt')[0]!.text).toMatch(/got (its|their) response headers within \d+ ms$/);
    } finally {
      await held.close();
      await prompt.close();
    }
  });
});

describe('probe --slow: a cursor evicted by the time it is used', () => {
  it('a bounded store (FIFO of 8 events) answers the evicted cursor 400: said so; a store that keeps everything replays it', async () => {
    const bounded = await startFixtureServer({ mode: 'mcp-proxy-evicted', cut: undefined });
    const lossless = await startFixtureServer({ mode: 'lossless', cut: undefined });
    try {
      const slow = ['--slow', '--retention', '200'];
      const b = (await card(bounded.url, [...LONG_TASK, ...QUICK, ...slow])).card;
      const x = b.experiments.find((e) => e.name === 'resume with an evicted cursor')!;
      expect(x.status).toBe('ran');
      expect(x.evidence).toEqual([expect.objectContaining({ on: 'gap-signalled', verdict: 'pass', text: expect.stringMatching(/answered 400 .*the server says so \(status 400\)/) })]);
      const l = (await card(lossless.url, [...LONG_TASK, ...QUICK, ...slow])).card;
      const y = l.experiments.find((e) => e.name === 'resume with an evicted cursor')!;
      expect(y.evidence).toEqual([expect.objectContaining({ on: 'gapless-retention', verdict: 'pass', text: expect.stringMatching(/still replays the whole call/) })]);
      expect(l.overall).toBe('yes');
    } finally {
      await bounded.close();
      await lossless.close();
    }
  });
});
