// The probe never prints or saves the credentials the user gave: not when a network read cut one
// in two chunks (the capture's chunk records), nor when an error quotes the server's answer that
// echoes them; and a short one does not turn every letter like it into the marker.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { redactChunks, redactText, REDACTED, SHORT_NOTE } from '../../../src/cli/probe/redact';
import { headerValue, type CaptureRecord } from '../../../src/core/record';
import { startFixtureServer, type FixtureServer } from '../../fixtures/mcp-server/index.js';
import { QUICK, probe } from './probe-helpers.js';

const SECRET = 'Bearer sk-live-SECRET-0123456789';

describe('redactChunks', () => {
  it('any text cut anywhere: the chunks join to the text redacted whole, and no chunk holds a piece of a secret that crossed a cut', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(SECRET), fc.string({ maxLength: 12 })), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
        const text = parts.join('');
        const at = [...new Set(cuts.map((c) => (text.length ? c % (text.length + 1) : 0)))].sort((a, b) => a - b);
        const texts: string[] = [];
        let prev = 0;
        for (const c of at) {
          texts.push(text.slice(prev, c));
          prev = c;
        }
        texts.push(text.slice(prev));
        const out = redactChunks(texts, [SECRET]);
        expect(out).toHaveLength(texts.length);
        expect(out.join('')).toBe(redactText(text, [SECRET]));
        expect(out.join('')).not.toContain(SECRET);
        // before: each chunk alone, so "…SECRET-01234" + "56789…" kept both pieces
        if (text.includes(SECRET)) for (const o of out) expect(o).not.toContain('sk-live-SECRET-01234');
      }),
      { numRuns: 300 },
    );
  });
});

/** `probe` against a server that answers 401 with `describe(the Authorization header it got)`: exit code and stderr. */
async function probe401(describe: (auth: string) => string, header: string, era = 'legacy'): Promise<{ code: number; stderr: string }> {
  const server = createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token', error_description: describe(req.headers.authorization ?? '') }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  try {
    let stderr = '';
    const code = await main(['probe', url, '--tool', 'task', '--era', era, '--header', header, '--timeout', '3000'], { stdout: () => {}, stderr: (s) => void (stderr += s) });
    return { code, stderr };
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
}
/** What a server quoting only the token says of it (the scheme left out). */
const tokenExpired = (auth: string) => `token ${auth.replace(/^Bearer /, '')} is expired`;

describe('probe errors', () => {
  it('a server that echoes the refused credentials in its 401: stderr says the error without them', async () => {
    for (const era of ['legacy', 'auto']) {
      const { code, stderr } = await probe401((auth) => `the credentials "${auth}" are expired`, `Authorization: ${SECRET}`, era);
      expect(code).toBe(2);
      expect(stderr).not.toContain('sk-live-SECRET');
      expect(stderr).toContain(REDACTED);
    }
  }, 60_000);

  it('a server that quotes only the token of an Authorization value (the scheme left out): redacted too', async () => {
    const token = SECRET.split(' ')[1]!;
    const { code, stderr } = await probe401(tokenExpired, `Authorization: ${SECRET}`);
    expect(code).toBe(2);
    // before: "… token sk-live-SECRET-0123456789 is expired" (only the whole value was a secret)
    expect(stderr).not.toContain(token);
    expect(stderr).toContain(`token ${REDACTED} is expired`);
  }, 60_000);
});

// A short credential ("Bearer x", "X-Key: ab") replaced everywhere turned every "x" of the report
// into the marker. It is replaced where it stands as a whole token; a long one still anywhere.
const SHORT = 'x';
// What the rule calls a whole token, written apart from redact.ts's code: no letter, digit or `_`
// next to it, nor token68 punctuation that another word character continues (`=` on the left ends a key).
const wholeToken = (v: string) => new RegExp(`(?<![\\p{L}\\p{N}_])(?<![\\p{L}\\p{N}_][.~+/-])${v}(?![\\p{L}\\p{N}_])(?![.~+/=-][\\p{L}\\p{N}_])`, 'u');

describe('short credentials', () => {
  it('a short token is replaced where it stands as a whole token, not inside words or numbers', () => {
    const secrets = ['Bearer x', SHORT, 'ab'];
    const text = 'max 0x1f ab-cd tab abc 1.5; token x is expired, token "x", key=x&y; the key ab. Bearer x';
    // before: "ma[redacted by probe] 0[redacted by probe]1f …", "t[redacted by probe]" for "tab"
    expect(redactText(text, secrets)).toBe(`max 0x1f ab-cd tab abc 1.5; token ${REDACTED} is expired, token "${REDACTED}", key=${REDACTED}&y; the key ${REDACTED}. ${REDACTED}`);
    // The marker is never broken by a secret that is one of its words (a report is redacted twice).
    expect(redactText(redactText('by the way', ['by']), ['by'])).toBe(`${REDACTED} the way`);
  });

  it('a short token right after an escape of raw JSON or a URL, or next to another script, is replaced (saved chunks are raw text)', () => {
    const R = REDACTED;
    expect(redactText('{"error":"invalid token:\\nab12"}', ['ab12'])).toBe(`{"error":"invalid token:\\n${R}"}`);
    expect(redactText('bad \\u003cab12\\u003e', ['ab12'])).toBe(`bad \\u003c${R}\\u003e`);
    expect(redactText('\\u2018ab12\\u2019', ['ab12'])).toBe(`\\u2018${R}\\u2019`);
    expect(redactText('?k=%22ab12%22', ['ab12'])).toBe(`?k=%22${R}%22`);
    expect(redactText('トークンab12は無効です', ['ab12'])).toBe(`トークン${R}は無効です`);
    expect(redactChunks(['{"e":"x:\\', 'nab12"}'], ['ab12']).join('')).toBe(`{"e":"x:\\n${R}"}`);
    // still a word: letters without a backslash before them
    expect(redactText('nab12 and grab12', ['ab12'])).toBe('nab12 and grab12');
  });

  it('any text: a long token is gone wherever it is, a short one as a whole token, and words holding the short one are kept', () => {
    const piece = fc.oneof(fc.constant(SECRET), fc.constant(SHORT), fc.constant('max'), fc.constant('0x1f'), fc.string({ maxLength: 6, unit: fc.constantFrom('x', 'a', '1', ' ', '.', '=', '-', '"', ':', '/') }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const text = parts.join('');
        const out = redactText(text, [SECRET, SHORT]);
        expect(out).not.toContain('sk-live-SECRET');
        // Read with the marker as the long token's stand-in: an "x" glued to it was no whole token.
        expect(out.split(REDACTED).join('Z')).not.toMatch(wholeToken(SHORT));
        // "max" and "0x1f" hold an x that is no whole token: the text keeps every one of them.
        for (const w of ['max', '0x1f']) expect(out.split(w).length, w).toBe(text.split(w).length);
        // The chunks a network read makes are redacted as the text they join to.
        const cut = Math.floor(text.length / 2);
        expect(redactChunks([text.slice(0, cut), text.slice(cut)], [SECRET, SHORT]).join('')).toBe(out);
      }),
      { numRuns: 300 },
    );
  });

  it('a server quoting a short token in its 401: stderr says it redacted, the rest of the message intact', async () => {
    const { code, stderr } = await probe401(tokenExpired, 'Authorization: Bearer x');
    expect(code).toBe(2);
    // before: "token [redacted by probe] is e[redacted by probe]pired"
    expect(stderr).toContain(`token ${REDACTED} is expired`);
    expect(stderr).not.toMatch(wholeToken(SHORT));
  }, 60_000);

  describe('against a server that echoes them', () => {
    let server: FixtureServer;
    const out = mkdtempSync(join(tmpdir(), 'msi-probe-redact-'));
    beforeAll(async () => {
      server = await startFixtureServer({ mode: 'lossless', cut: undefined });
    });
    afterAll(async () => {
      await server.close();
    });

    it('the report and the saved captures hold no credential, short or long, and are not mangled; the report says short ones were redacted as whole tokens', async () => {
      // long_task echoes its tag in every chunk ("[x 1/3] …") and the request body holds it.
      const dir = join(out, 'short');
      const r = await probe(server.url, ['--tool', 'long_task', '--args', '{"chunks":3,"delayMs":10,"tag":"x"}', ...QUICK, '--header', 'Authorization: Bearer x', '--header', 'X-Key: ab', '--out', dir]);
      expect(r.code, r.stderr).toBe(0);
      // before: "E[redacted by probe]periments:"
      expect(r.stdout).toContain('\nExperiments:\n');
      expect(r.stdout.split(SHORT_NOTE)).toHaveLength(2);
      expect(r.stdout).not.toMatch(wholeToken('x'));
      expect(r.stdout).not.toMatch(wholeToken('ab'));
      const files = readdirSync(dir).filter((f) => f.endsWith('.msi.json'));
      expect(files.length).toBeGreaterThan(0);
      const echoed: string[] = [];
      for (const f of files) {
        const records = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { records: CaptureRecord[] }).records;
        const texts: string[] = [];
        for (const rec of records) {
          if (rec.kind === 'request') {
            expect(headerValue(rec.headers, 'authorization'), f).toBe(REDACTED);
            expect(headerValue(rec.headers, 'x-key'), f).toBe(REDACTED);
            texts.push(rec.url, rec.body ?? '', ...rec.headers.flat());
          } else if (rec.kind === 'response') texts.push(...rec.headers.flat());
          else if (rec.kind === 'chunk') texts.push(rec.text);
        }
        const all = texts.join('\n');
        expect(all, f).not.toMatch(wholeToken('x'));
        expect(all, f).not.toMatch(wholeToken('ab'));
        // The echo is replaced; the rest is as the server sent it (before: "te[redacted by probe]t/event-stream").
        expect(all, f).toContain('text/event-stream');
        echoed.push(all);
      }
      expect(echoed.filter((t) => t.includes(`[${REDACTED} 1/3]`)).length).toBeGreaterThan(0);
      expect(readFileSync(join(dir, 'probe-report.json'), 'utf8')).toContain(SHORT_NOTE);

      // A long one the server quotes inside a longer string is still replaced there.
      const long = join(out, 'long');
      const l = await probe(server.url, ['--tool', 'long_task', '--args', '{"chunks":3,"delayMs":10,"tag":"pre-k3y-0123456789-post"}', ...QUICK, '--header', 'X-Key: k3y-0123456789', '--out', long]);
      expect(l.code, l.stderr).toBe(0);
      expect(l.stdout).not.toContain(SHORT_NOTE);
      expect(l.stdout).not.toContain('k3y-0123456789');
      for (const f of readdirSync(long)) expect(readFileSync(join(long, f), 'utf8'), f).not.toContain('k3y-0123456789');
      expect(readFileSync(join(long, 'probe-session-a.msi.json'), 'utf8')).toContain(`[pre-${REDACTED}-post 1/3]`);
    }, 60_000);
  });
});
