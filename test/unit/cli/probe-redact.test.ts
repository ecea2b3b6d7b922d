// The probe never prints or saves the credentials the user gave: not when a network read cut one
// in two chunks (the capture's chunk records), nor when an error quotes the server's answer that
// echoes them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { redactChunks, redactText, REDACTED } from '../../../src/cli/probe/redact';

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

describe('probe errors', () => {
  it('a server that echoes the refused credentials in its 401: stderr says the error without them', async () => {
    const server = createServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token', error_description: `the credentials "${req.headers.authorization ?? ''}" are expired` }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      for (const era of ['legacy', 'auto']) {
        let stderr = '';
        const code = await main(['probe', url, '--tool', 'task', '--era', era, '--header', `Authorization: ${SECRET}`, '--timeout', '3000'], { stdout: () => {}, stderr: (s) => void (stderr += s) });
        expect(code).toBe(2);
        expect(stderr).not.toContain('sk-live-SECRET');
        expect(stderr).toContain(REDACTED);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 60_000);

  it('a server that quotes only the token of an Authorization value (the scheme left out): redacted too', async () => {
    const token = SECRET.split(' ')[1]!;
    const server = createServer((req, res) => {
      const given = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_token', error_description: `token ${given} is expired` }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      let stderr = '';
      const code = await main(['probe', url, '--tool', 'task', '--era', 'legacy', '--header', `Authorization: ${SECRET}`, '--timeout', '3000'], { stdout: () => {}, stderr: (s) => void (stderr += s) });
      expect(code).toBe(2);
      // before: "… token sk-live-SECRET-0123456789 is expired" (only the whole value was a secret)
      expect(stderr).not.toContain(token);
      expect(stderr).toContain(`token ${REDACTED} is expired`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 60_000);
});
