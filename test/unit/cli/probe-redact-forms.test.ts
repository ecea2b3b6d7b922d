// A credential the probe was given is not printed nor saved in a written form other than its own
// characters: percent-encoded, form-encoded, JSON-escaped (once, or twice for JSON text inside a
// JSON-RPC message), nor, for Basic, as the user:pass it decodes to. Nor are the credentials of
// the probed URL (userinfo, query): the report and the captures name its host and path.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownUrl, urlSecrets } from '../../../src/cli/probe/credentials';
import { redactChunks, redactText, REDACTED, SHORT_NOTE } from '../../../src/cli/probe/redact';
import { secretsOf, type ProbeSettings } from '../../../src/cli/probe/settings';
import type { CaptureRecord } from '../../../src/core/record';
import { startFixtureServer, type FixtureServer } from '../../fixtures/mcp-server/index.js';
import { QUICK, probe } from './probe-helpers.js';

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

  // A hang guard, not a speed target: the pattern once read every escaped punctuation character two
  // ways (the escape at either JSON level), so a near miss tried 2^k readings: a secret of 24 took
  // seconds, of 40 (here) hours, and vitest's timeout failed the test. Now milliseconds.
  it('a near miss of a punctuation-heavy secret (a JSON config in the URL) ends, and its whole echo is replaced', () => {
    const secret = '{"a":"b","c":"d","e":"f","g":"h","i":"j","k":"l","m":"n"}';
    const uEscaped = [...secret].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)).join('');
    // a hostile server: every punctuation character as \uXXXX, the last one changed
    const nearMiss = uEscaped.slice(0, -6) + 'X';
    expect(redactText(nearMiss, [secret])).toBe(nearMiss);
    expect(redactText(`<${uEscaped}>`, [secret])).toBe(`<${R}>`);
    // a server's error quoting the value JSON-escaped and cut short, as servers do with long values
    const cut = JSON.stringify(`bad config ${secret.slice(0, -4)}…`);
    expect(redactText(cut, [secret])).toBe(cut);
    expect(redactText(JSON.stringify(`bad config ${secret}`), [secret])).toBe(JSON.stringify(`bad config ${R}`));
  }, 20_000);

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

describe('credentials in the URL', () => {
  it('the URL as shown: host and path kept, the userinfo password, every query value and the fragment replaced', () => {
    expect(shownUrl('https://alice:pa%24%24@mcp.example.com:8443/v1/mcp?api_key=abc&debug=1&flag#access_token=x')).toBe(
      `https://alice:${R}@mcp.example.com:8443/v1/mcp?api_key=${R}&debug=${R}&${R}#${R}`,
    );
    // a user name without a password is the credential (https://<token>@host)
    expect(shownUrl('https://ghp_token0123@mcp.example.com/mcp')).toBe(`https://${R}@mcp.example.com/mcp`);
    expect(shownUrl('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/mcp');
    expect(shownUrl('not a url')).toBe('not a url');
  });

  it('its credentials are secrets for any other text: raw and decoded, the Basic value Node sends for userinfo; short values only under a credential name', () => {
    const s = urlSecrets('https://alice:pa%24%24word-0123@h/mcp?api_key=k1&sig=a%2Bb&debug=1&profile=my-profile-long');
    expect(s).toEqual(expect.arrayContaining(['alice:pa$$word-0123', 'pa$$word-0123', Buffer.from('alice:pa$$word-0123').toString('base64'), 'k1', 'a+b', 'a%2Bb', 'my-profile-long']));
    expect(s).not.toContain('1');
    expect(s).not.toContain('alice');
  });
});

describe('a key as a path segment', () => {
  // Hosted servers key a user's server by its URL (`/<api key>/v2/mcp`): before, the path was
  // shown whole, so the report and the saved captures held the key.
  const KEY = 'fc-0123456789abcdef0123456789abcdef';
  const UUID = '3f2b8c1e-9a4d-4b7e-8f00-1c2d3e4f5a6b';

  it('a long segment of letters and digits is replaced in the URL as shown; route segments are kept', () => {
    expect(shownUrl(`https://mcp.example.com/${KEY}/v2/mcp`)).toBe(`https://mcp.example.com/${R}/v2/mcp`);
    expect(shownUrl(`https://mcp.example.com/servers/${UUID}/mcp?x=1`)).toBe(`https://mcp.example.com/servers/${R}/mcp?x=${R}`);
    // percent-encoded in the URL: judged decoded (`+/=` of a base64 token)
    expect(shownUrl('https://mcp.example.com/api/s/aB3dE5fG7hJ9kL1m%2Bn%3D/mcp')).toBe(`https://mcp.example.com/api/s/${R}/mcp`);
    for (const url of [
      'http://127.0.0.1:3000/mcp',
      'https://mcp.example.com/v1/mcp/',
      'https://mcp.example.com/api/2025-06-18/mcp',
      'https://mcp.example.com/mcp/python-shared',
      'https://mcp.example.com/servers/weather-forecast-server/sse',
      'https://mcp.example.com/a1b2c3d4e5f6g7h/mcp',
    ]) {
      expect(shownUrl(url), url).toBe(url);
    }
  });

  it('the segment is a secret for any other text, raw and decoded', () => {
    expect(urlSecrets(`https://mcp.example.com/${KEY}/v2/mcp`)).toEqual([KEY]);
    expect(urlSecrets('https://mcp.example.com/api/s/aB3dE5fG7hJ9kL1m%2Bn%3D/mcp')).toEqual(['aB3dE5fG7hJ9kL1m%2Bn%3D', 'aB3dE5fG7hJ9kL1m+n=']);
    expect(urlSecrets('https://mcp.example.com/servers/weather-forecast-server/v2/mcp')).toEqual([]);
  });
});

describe('query names', () => {
  // A name holds a credential when one of its words does, not a word's inside: under `author`, a
  // short value (1) was a secret, and every `"id":1` of a saved capture became the marker.
  it('a short value is a secret under a credential word only, whole or as a word of the name', () => {
    const json = '{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"1 item"}]}}';
    for (const url of ['http://127.0.0.1/mcp?author=1', 'http://127.0.0.1/mcp?passthrough=true', 'http://127.0.0.1/mcp?keyframes=1&signal=true']) {
      expect(redactText(json, secretsOf(settings(url, {})))).toBe(json);
    }
    for (const name of ['key', 'api_key', 'apiKey', 'X-Amz-Signature', 'accessToken', 'access_token', 'client_secret', 'sessionid', 'code']) {
      expect(urlSecrets(`http://127.0.0.1/mcp?${name}=v1`)).toContain('v1');
    }
  });
});

describe('probe with credentials in the URL and encoded echoes', () => {
  let server: FixtureServer;
  const out = mkdtempSync(join(tmpdir(), 'msi-probe-forms-'));
  beforeAll(async () => {
    server = await startFixtureServer({ mode: 'lossless', cut: undefined });
  });
  afterAll(async () => {
    await server.close();
  });

  // Each secret holds '23456789' or 'word-0123' or 'k3y', which no encoding changes: none may be left.
  const KEY = 'k"y\\0/1 23456789';
  const LEFT = /23456789|word-0123|k3y|YWxpY2U6cGEkJHdvcmQtMDEyMw/;

  it('the report (text, JSON, SARIF) and the saved captures hold no form of any credential; the URL is shown with host and path', async () => {
    const u = new URL(server.url);
    const url = `http://alice:pa%24%24word-0123@${u.host}${u.pathname}?api_key=k3y%2F0123&debug=1`;
    const shown = `http://alice:${R}@${u.host}${u.pathname}?api_key=${R}&debug=${R}`;
    // long_task echoes its tag in every chunk: the key JSON-escaped in the raw JSON-RPC, then
    // percent-encoded, then the URL's password (a server that echoes its URL).
    const tag = `${KEY}|${encodeURIComponent(KEY)}|pa$$word-0123`;
    const dir = join(out, 'run');
    const args = ['--tool', 'long_task', '--args', JSON.stringify({ chunks: 3, delayMs: 10, tag }), ...QUICK, '--header', `X-Key: ${KEY}`];
    const r = await probe(url, [...args, '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Probe of ${shown} `);
    // before: the URL's password and api key, and the key's encoded echoes, were printed and saved
    expect(r.stdout).not.toMatch(LEFT);
    expect(r.stdout).not.toContain(SHORT_NOTE);
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.msi.json')).length).toBeGreaterThan(0);
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      expect(text, f).not.toMatch(LEFT);
      if (!f.endsWith('.msi.json')) continue;
      const file = JSON.parse(text) as { source: string; records: CaptureRecord[] };
      expect(file.source).toBe(`mcp-stream-inspector probe ${shown}`);
      const req = file.records.find((x) => x.kind === 'request');
      expect(req?.kind === 'request' && req.url).toBe(shown);
      const res = file.records.find((x) => x.kind === 'response');
      expect(res?.kind === 'response' && res.url).toBe(shown);
    }
    // The echoes were there to redact, and the rest of the text is intact.
    expect(readFileSync(join(dir, 'probe-session-a.msi.json'), 'utf8')).toContain(`[${R}|${R}|${R} 1/3]`);
    for (const format of ['json', 'sarif']) {
      const f = await probe(url, [...args, '--format', format]);
      expect(f.stdout, format).not.toMatch(LEFT);
      expect(f.stdout, format).toContain(shown);
    }
    // SARIF's artifact is a URI: the marker in it percent-encoded (before: spaces in a URI)
    const sarif = JSON.parse((await probe(url, [...args, '--format', 'sarif'])).stdout) as { runs: { artifacts: { location: { uri: string } }[] }[] };
    expect(sarif.runs[0]!.artifacts[0]!.location.uri).toBe(shown.split(R).join(encodeURIComponent(R)));
  }, 60_000);

  it('an error that names the URL: its credentials replaced', async () => {
    const r = await probe('http://alice:pa%24%24word-0123@127.0.0.1:9/mcp?token=t0k', ['--tool', 'long_task', ...QUICK]);
    expect(r.code).toBe(2);
    // before: "cannot open a 2025-era session with http://alice:pa%24%24word-0123@…?token=t0k"
    expect(r.stderr).not.toMatch(/word-0123|t0k/);
    expect(r.stderr).toContain(`http://alice:${R}@127.0.0.1:9/mcp?token=${R}`);
  });
});

describe('probe of a server keyed by its URL path', () => {
  const KEY = 'fc-0123456789abcdef0123456789abcdef';
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer({ mode: 'lossless', cut: undefined, keyPath: KEY });
  });
  afterAll(async () => {
    await server.close();
  });

  it('the report and the saved captures hold the key in no form; the URL is shown with the segment replaced', async () => {
    const u = new URL(server.url);
    const shown = `http://${u.host}/${R}/mcp`;
    const dir = mkdtempSync(join(tmpdir(), 'msi-probe-path-'));
    // long_task echoes its tag: the server quoting the URL it was called with
    const args = ['--tool', 'long_task', '--args', JSON.stringify({ chunks: 3, delayMs: 10, tag: server.url }), ...QUICK];
    const r = await probe(server.url, [...args, '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Probe of ${shown} `);
    // before: "Probe of http://127.0.0.1:<port>/fc-0123…/mcp", and the key in every saved record
    expect(r.stdout).not.toContain('0123456789abcdef');
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.msi.json')).length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain('0123456789abcdef');
    const file = JSON.parse(readFileSync(join(dir, 'probe-session-a.msi.json'), 'utf8')) as { source: string; records: CaptureRecord[] };
    expect(file.source).toBe(`mcp-stream-inspector probe ${shown}`);
    // The echo was there to redact (the URL's key inside a chunk's text).
    expect(file.records.some((x) => x.kind === 'chunk' && x.text.includes(`/${R}/mcp`))).toBe(true);
  }, 60_000);
});
