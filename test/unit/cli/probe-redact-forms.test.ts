// A credential the probe was given is not printed nor saved in a written form other than its own
// characters: percent-encoded, form-encoded, JSON-escaped (once, or twice for JSON text inside a
// JSON-RPC message), nor, for Basic, as the user:pass it decodes to.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactChunks, redactText, REDACTED } from '../../../src/cli/probe/redact';
import { secretsOf, type ProbeSettings } from '../../../src/cli/probe/settings';

const R = REDACTED;
/** JSON with every non-ASCII character as `\uXXXX` (Python's json.dumps by default). */
const asciiJson = (s: string) => JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** .NET's HttpUtility.UrlEncode: lower-case hex, `+` for a space. */
const lowerForm = (s: string) => new URLSearchParams({ k: s }).toString().slice(2).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
/** The written forms the brief names, each as the text a server or the capture holds. */
const FORMS: [string, (s: string) => string][] = [
  ['percent', encodeURIComponent],
  ['form', (s) => new URLSearchParams({ k: s }).toString().slice(2)],
  ['percent, lower-case hex', lowerForm],
  ['JSON', (s) => JSON.stringify(s).slice(1, -1)],
  ['JSON, ASCII only', (s) => asciiJson(s).slice(1, -1)],
  ['JSON in JSON', (s) => JSON.stringify(JSON.stringify(s).slice(1, -1)).slice(1, -1)],
  ['ASCII JSON in JSON', (s) => JSON.stringify(asciiJson(s).slice(1, -1)).slice(1, -1)],
  ['JSON, \\/ for /', (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/')],
];

const settings = (url: string, headers: Record<string, string>) => ({ url, headers }) as unknown as ProbeSettings;

describe('encoded credentials', () => {
  it('a long credential is replaced in every written form a server or the capture can hold', () => {
    const secret = 'p"a\\s/s é+ x😀-0123';
    for (const [name, f] of FORMS) {
      // before: percent, form and escaped forms were kept (indexOf finds the characters only)
      expect(redactText(`{"error":"bad key ${f(secret)}; try again"}`, [secret]), name).toBe(`{"error":"bad key ${R}; try again"}`);
      expect(redactChunks(['url ?k=', f(secret).slice(0, 5), f(secret).slice(5), '&x'], [secret]).join(''), name).toBe(`url ?k=${R}&x`);
    }
  });

  it('any credential of 8 characters or more, in any of those forms inside any text: none of its forms is left', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 16, unit: 'grapheme' }), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (secret, a, b) => {
        for (const [name, f] of FORMS) {
          const out = redactText(a + f(secret) + b, [secret]);
          for (const [, g] of FORMS) if (g(secret) !== secret && !(a + b).includes(g(secret))) expect(out, name).not.toContain(g(secret));
          expect(out, name).toContain(R);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a short credential in an encoded form is replaced only where it stands as a whole token', () => {
    // before: kept in both places
    expect(redactText('{"error":"key a\\"b is wrong"}', ['a"b'])).toBe(`{"error":"key ${R} is wrong"}`);
    expect(redactText('?k=a%22b&x=1', ['a"b'])).toBe(`?k=${R}&x=1`);
    // inside a word it is no token of its own: kept as before
    expect(redactText('xa%22by and ca\\"bd', ['a"b'])).toBe('xa%22by and ca\\"bd');
  });

  it('letters and digits are matched only as themselves (no encoder escapes them)', () => {
    expect(redactText('%61bc12345678 and \\u0061bc12345678', ['abc12345678'])).toBe('%61bc12345678 and \\u0061bc12345678');
  });
});

describe('Basic credentials', () => {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  it('what a Basic value decodes to is a secret: user:pass, and the password alone when 8 characters or more', () => {
    const long = secretsOf(settings('http://127.0.0.1/mcp', { Authorization: `Basic ${b64('alice:hunter22-long')}` }));
    // before: only the header value and the base64 part
    expect(long).toEqual(expect.arrayContaining([b64('alice:hunter22-long'), 'alice:hunter22-long', 'hunter22-long']));
    const short = secretsOf(settings('http://127.0.0.1/mcp', { Authorization: `Basic ${b64('bob:admin')}` }));
    expect(short).toContain('bob:admin');
    expect(short).not.toContain('admin');
    expect(redactText('user alice:hunter22-long denied; password hunter22-long', long)).toBe(`user ${R} denied; password ${R}`);
    // not base64, or no `:` once decoded: nothing more than before
    expect(secretsOf(settings('http://127.0.0.1/mcp', { Authorization: 'Basic not*base64' }))).toEqual(['Basic not*base64', 'not*base64']);
  });
});
