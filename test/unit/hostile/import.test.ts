// Hostile files: corrupt, truncated, oversized, wrong-schema and fuzzed HAR / capture files give
// one clear ImportError line (importers) and exit 2 with one line naming the file, no stack trace
// (CLI). What does import never makes the analyzer throw.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeRecords } from '../../../src/core/analyzer';
import { checkImportSize, importText, ImportError, IMPORT_LIMIT_BYTES } from '../../../src/core/import/index';
import { main } from '../../../src/cli/main';
import { CAPTURES } from './helpers';
import { Capture, call, ev, initSession, message } from '../core/helpers';

const tmp = mkdtempSync(join(tmpdir(), 'msi-import-'));
const FILES = readdirSync(CAPTURES)
  .filter((f) => f.endsWith('.har') || f.endsWith('.capture.json'))
  .sort()
  .map((f) => ({ name: f, text: readFileSync(CAPTURES + f, 'utf8') }));

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

/** Either imports (and analyzes without throwing) or throws one ImportError of one line. */
function importsOrFailsCleanly(text: string): 'ok' | 'error' {
  let records;
  try {
    records = importText(text).records;
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    const m = (e as Error).message;
    expect(m).not.toMatch(/[\r\n]/);
    expect(m.length).toBeGreaterThan(5);
    expect(m.length).toBeLessThan(500);
    return 'error';
  }
  const s = analyzeRecords(records);
  JSON.stringify(s);
  return 'ok';
}

describe('importer fuzzing on mutated real files', () => {
  it('has HAR and capture files', () => {
    expect(FILES.filter((f) => f.name.endsWith('.har')).length).toBeGreaterThan(5);
    expect(FILES.filter((f) => f.name.endsWith('.capture.json')).length).toBeGreaterThan(5);
  });

  it('truncated at any point', () => {
    let errors = 0;
    for (const { text } of FILES) {
      fc.assert(
        fc.property(fc.nat(text.length - 1), (n) => {
          if (importsOrFailsCleanly(text.slice(0, n)) === 'error') errors++;
        }),
        { numRuns: 40 },
      );
    }
    expect(errors).toBeGreaterThan(0);
  });

  it('characters flipped, deleted or inserted at random places', () => {
    const edit = fc.record({ at: fc.nat(), del: fc.nat(3), ins: fc.constantFrom('', '"', '{', ']', ',', '\\', '\u0000', 'null', '0', '-', '\ud800', 'é', '1e400', '[]') });
    for (const { text } of FILES) {
      fc.assert(
        fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
          let t = text;
          for (const e of edits) {
            const at = e.at % t.length;
            t = t.slice(0, at) + e.ins + t.slice(at + e.del);
          }
          importsOrFailsCleanly(t);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('wrong schema: any JSON value put at a random place of the document', () => {
    const paths = (v: unknown, p: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] => {
      out.push(p);
      if (out.length > 3000) return out;
      if (Array.isArray(v)) v.slice(0, 6).forEach((x, i) => paths(x, [...p, i], out));
      else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) paths(x, [...p, k], out);
      return out;
    };
    for (const { text } of FILES) {
      const doc = JSON.parse(text) as unknown;
      const all = paths(doc);
      fc.assert(
        fc.property(fc.nat(all.length - 1), fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined)), (i, value) => {
          const copy = structuredClone(doc) as Record<string | number, unknown>;
          const p = all[i]!;
          if (p.length === 0) return void importsOrFailsCleanly(JSON.stringify(value ?? null));
          let cur = copy;
          for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
          if (value === undefined) delete cur[p[p.length - 1]!];
          else cur[p[p.length - 1]!] = value;
          importsOrFailsCleanly(JSON.stringify(copy));
        }),
        { numRuns: 60 },
      );
    }
  });

  it('base64 bodies that are not base64, deep nesting, huge numbers', () => {
    const har = (content: unknown) => JSON.stringify({ log: { version: '1.2', entries: [{ startedDateTime: '2026-01-01T00:00:00Z', time: 1, request: { method: 'POST', url: 'http://h/mcp', headers: [], postData: { text: '{}' } }, response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content } }] } });
    expect(() => importText(har({ text: '!!!not base64!!!', encoding: 'base64' }))).toThrow(/entry 0 .*not valid base64/);
    expect(importsOrFailsCleanly(har({ text: Buffer.from('data: x\n\n').toString('base64'), encoding: 'base64' }))).toBe('ok');
    expect(importsOrFailsCleanly(har({ text: Buffer.from([0xff, 0xfe, 0x00]).toString('base64'), encoding: 'base64' }))).toBe('ok');
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    expect(importsOrFailsCleanly(deep)).toBe('error');
    expect(importsOrFailsCleanly(`{"log":{"entries":${deep}}}`)).toBe('error');
    expect(importsOrFailsCleanly('{"format":"mcp-stream-inspector","version":1e400,"records":[]}')).toBe('error');
    expect(importsOrFailsCleanly('{"format":"mcp-stream-inspector","version":2,"records":[]}')).toBe('error');
  });

  it('params nested a million levels deep: kept out of the model, which stays serialisable', () => {
    const c = new Capture();
    initSession(c);
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    const p = c.request({ sessionId: 'sess-1', body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"a":${deep}}}` });
    c.response(p);
    c.chunk(p, ev('1', message('m')));
    c.end(p);
    const q = c.request({ sessionId: 'sess-1', body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"a":${deep}}}` });
    c.response(q);
    c.end(q);
    const s = analyzeRecords(c.records);
    const r = s.requests['sess-1']!.find((x) => x.id === '2')!;
    expect(r.params).toMatch(/not kept: nested deeper than 200 levels/);
    expect(r.verdict).toBe('incomplete');
    expect(() => structuredClone(s)).not.toThrow();
    expect(JSON.parse(JSON.stringify(s)).requests['sess-1'].length).toBe(3);
    // params at the limit are kept as they are
    const ok = new Capture();
    initSession(ok);
    const d200 = '['.repeat(199) + ']'.repeat(199);
    const k = ok.request({ sessionId: 'sess-1', body: `{"jsonrpc":"2.0","id":2,"method":"x","params":{"a":${d200}}}` });
    ok.response(k);
    ok.end(k);
    expect(typeof analyzeRecords(ok.records).requests['sess-1']![1]!.params).toBe('object');
  });

  it('checkImportSize: one line naming both sizes', () => {
    expect(() => checkImportSize(IMPORT_LIMIT_BYTES)).not.toThrow();
    expect(() => checkImportSize(IMPORT_LIMIT_BYTES + 1)).toThrow(ImportError);
    expect(() => checkImportSize(300e6)).toThrow('the file is 300.0 MB, over the 256 MB import limit');
  });
});

describe('CLI on bad files: exit 2, one line naming the file, no stack trace', () => {
  const lossy = readFileSync(CAPTURES + 'lossy.har', 'utf8');
  const bad: [string, string | Buffer, RegExp][] = [
    ['empty.har', '', /the file is empty/],
    ['spaces.har', ' \n\t ', /the file is empty/],
    ['truncated.har', lossy.slice(0, lossy.length / 2), /not valid JSON/],
    ['binary.har', Buffer.from([0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xff, 0x00, 0x1b, 0x5d, 0x30, 0x3b, 0x07, 0x89, 0x50, 0x4e, 0x47]), /not valid JSON/],
    ['ansi.json', '\u001b[2J\u001b[31mred', /not valid JSON/],
    ['entries-junk.har', '{"log":{"entries":[1]}}', /HAR entry 0 is not an object/],
    ['no-url.har', '{"log":{"entries":[{"request":{}}]}}', /HAR entry 0 has no request.url/],
    ['no-entries.har', '{"log":{}}', /log.entries is missing/],
    ['other.json', '{"hello":"world"}', /not a HAR 1.2 file nor an mcp-stream-inspector capture/],
    ['v2.capture.json', '{"format":"mcp-stream-inspector","version":2,"records":[]}', /version 2 is not supported/],
    ['badrec.capture.json', '{"format":"mcp-stream-inspector","version":1,"records":[{"kind":"chunk","seq":1,"src":"s","t":0,"conn":"c","text":5,"bytes":1}]}', /records\[0\]\.text/],
    ['badkind.json', '[{"kind":"evil","seq":1}]', /invalid record list/],
    ['string.json', '"just a string"', /not a HAR 1.2 file/],
    ['deep.json', '['.repeat(300_000) + ']'.repeat(300_000), /invalid record list/],
    ['bidi\u202e.har', '{', /not valid JSON/],
  ];

  for (const [name, content, why] of bad) {
    it(JSON.stringify(name), async () => {
      const file = join(tmp, name);
      writeFileSync(file, content);
      const r = await cli(['audit', file, '--json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.split('\n');
      expect(lines.length, r.stderr).toBe(2); // one line + the final newline
      expect(lines[1]).toBe('');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
      expect(lines[0]!.startsWith(`mcp-stream-inspector: ${join(tmp, name.replace('\u202e', '\\u{202E}'))}: `), lines[0]).toBe(true);
      expect(lines[0]).toMatch(why);
    });
  }

  it('a missing file, a directory, and the first bad file of several', async () => {
    const missing = await cli(['audit', join(tmp, 'nope.har')]);
    expect([missing.code, missing.stderr]).toEqual([2, `mcp-stream-inspector: ${join(tmp, 'nope.har')}: no such file\n`]);
    const dir = join(tmp, 'adir');
    mkdirSync(dir, { recursive: true });
    const d = await cli(['audit', dir]);
    expect([d.code, d.stderr]).toEqual([2, `mcp-stream-inspector: ${dir}: is a directory, not a file\n`]);
    writeFileSync(join(tmp, 'bad1.har'), '{');
    const several = await cli(['audit', CAPTURES + 'lossy.har', join(tmp, 'bad1.har')]);
    expect(several.code).toBe(2);
    expect(several.stdout).toBe('');
    expect(several.stderr).toMatch(/^mcp-stream-inspector: \S+bad1\.har: not valid JSON/);
  });

  it('oversized: refused before reading, with both sizes; --max-size raises the limit', async () => {
    const file = join(tmp, 'big.har');
    writeFileSync(file, lossy);
    const r = await cli(['audit', file, '--max-size', '0.01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`mcp-stream-inspector: ${file}: the file is ${(Buffer.byteLength(lossy) / 1e6).toFixed(1)} MB, over the 0.01 MB limit (raise it with --max-size)\n`);
    expect((await cli(['audit', file, '--max-size', '1'])).code).toBe(1);
    expect((await cli(['audit', file])).code).toBe(1); // default 256 MB
    const bad = await cli(['audit', file, '--max-size', 'lots']);
    expect([bad.code, bad.stderr]).toEqual([2, 'mcp-stream-inspector: --max-size must be a positive number of megabytes, not "lots"\n']);
  });

  it('page data in the human report cannot drive the terminal or break lines', async () => {
    const c = new Capture();
    const evil = 'S\u001b]0;pwned\u0007\u001b[2J\u202egnp.exe\nFAKE: ok\r';
    initSession(c, evil);
    const p = c.request({ sessionId: evil, body: call(`\u001b[31m${evil}`, `tool\u001b[5m`) });
    c.response(p);
    c.chunk(p, ev(`1\u001b[1m`, message('x')));
    c.end(p, 'network-error');
    const file = join(tmp, 'evil.capture.json');
    writeFileSync(file, JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: '', records: c.records }));
    const r = await cli(['audit', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(r.stdout).toContain('S\\u{001B}]0;pwned\\u{0007}\\u{001B}[2J\\u{202E}gnp.exe\\u{000A}FAKE: ok\\u{000D}');
    expect(r.stdout.split('\n').some((l) => l.startsWith('FAKE'))).toBe(false);
    // --json keeps the exact text (JSON escapes the controls itself)
    const j = await cli(['audit', file, '--json']);
    expect(JSON.parse(j.stdout).sessions[0].sessionId).toBe(evil);
  });
});

describe('values that break String()', () => {
  // Found by the wrong-schema fuzz above (seed 1899601464): a header value `{"toString": ""}`
  // made the HAR importer throw a TypeError instead of importing or failing cleanly.
  it('a HAR header value that is an object with a non-callable toString is imported as its JSON text', () => {
    const har = JSON.parse(readFileSync('test/fixtures/captures/baseline.har', 'utf8'));
    har.log.entries[0].request.headers[0].value = { toString: '' };
    expect(importsOrFailsCleanly(JSON.stringify(har))).toBe('ok');
  });
});
