// One record contract: the committed JSON Schema (schema/capture-file.schema.json), the importer
// (what `audit` and the panel's Import use) and the relay's / panel link's record guard must say
// the same about every record. Records are generated (valid ones of every kind, then broken one
// field at a time: wrong type, a value outside an enumeration, seq 0, fractions, missing fields,
// extra fields) and each verdict is compared. The schema is read from the file and compiled with
// Ajv (an independent JSON Schema implementation), so a stale committed schema fails too.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { importText, importValue } from '../../../src/core/import/index';
import { isCaptureRecord } from '../../../src/extension/wire/records';

const SCHEMA_FILE = 'schema/capture-file.schema.json';
const committed = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false, allErrors: false });
const schemaOk = ajv.compile(committed);

// zod's own verdict (the messages come from it; the guard asks a checker derived from the same
// schemas). Loaded dynamically so that this file still runs, and fails, on code without the contract.
let zodAccepts: ((r: unknown) => boolean) | undefined;
beforeAll(async () => {
  const m = await import('../../../src/core/contract/records').catch(() => undefined);
  if (m) zodAccepts = (r) => m.captureRecord.safeParse(r).success;
});
const file = (records: unknown[]) => ({ format: 'mcp-stream-inspector', version: 1, createdAt: '2026-01-01T00:00:00.000Z', records });
const importerOk = (records: unknown[]) => {
  try {
    importValue(file(records));
    return true;
  } catch {
    return false;
  }
};

const str = fc.string({ maxLength: 6 });
const header = fc.tuple(str, str);
const base = { seq: fc.integer({ min: 1, max: 1e6 }), src: str, t: fc.double({ min: 0, max: 2e12, noNaN: true }) };
const conn = { ...base, conn: str };
const validRecord = fc.oneof(
  fc.record(
    {
      ...conn,
      kind: fc.constant('request'),
      transport: fc.constantFrom('fetch', 'xhr', 'eventsource', 'network', 'import'),
      method: str,
      url: str,
      headers: fc.array(header, { maxLength: 2 }),
      body: fc.option(str, { nil: null }),
      bodyNote: fc.constantFrom('none', 'stream', 'binary', 'truncated', 'unreadable'),
      reconnectOf: str,
    },
    { requiredKeys: ['seq', 'src', 't', 'conn', 'kind', 'transport', 'method', 'url', 'headers', 'body'] },
  ),
  fc.record({ ...conn, kind: fc.constant('response'), status: fc.integer({ min: 0, max: 599 }), statusText: str, headers: fc.array(header, { maxLength: 2 }), url: str, redirected: fc.boolean(), type: str, capture: fc.constantFrom('sse', 'json', 'none') }),
  fc.record({ ...conn, kind: fc.constant('chunk'), text: str, bytes: fc.nat(), droppedBytes: fc.nat() }, { requiredKeys: ['seq', 'src', 't', 'conn', 'kind', 'text', 'bytes'] }),
  fc.record({ ...conn, kind: fc.constant('es-event'), type: str, data: str, lastEventId: str }),
  fc.record({ ...conn, kind: fc.constant('end'), how: fc.constantFrom('complete', 'page-aborted', 'page-cancelled', 'network-error', 'unread', 'closed', 'unknown'), reason: str }, { requiredKeys: ['seq', 'src', 't', 'conn', 'kind', 'how'] }),
  fc.record({ ...base, kind: fc.constant('navigation'), url: str, top: fc.boolean() }),
  fc.record(
    { ...base, kind: fc.constant('capture-gap'), lost: fc.nat(), fromSeq: fc.nat(), toSeq: fc.nat(), conns: fc.array(str, { maxLength: 2 }), reason: fc.constantFrom('buffer-cap', 'event-size-cap', 'extension-reloaded', 'hook-missing', 'import', 'not-recording', 'not-seen-by-hook', 'other'), method: str, url: str, why: str },
    { requiredKeys: ['seq', 'src', 't', 'kind', 'lost', 'conns', 'reason'] },
  ),
  fc.record({ ...base, kind: fc.constant('notice'), level: fc.constantFrom('info', 'warning', 'error'), code: str, message: str, url: str, sessionId: str }, { requiredKeys: ['seq', 'src', 't', 'kind', 'level', 'code', 'message'] }),
);

/** A value that breaks a field: another JSON type, a value outside any enumeration, a fraction, 0, or nothing. */
const breaker = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(0),
  fc.constant(-1),
  fc.constant(1.5),
  fc.constant('made-up'),
  fc.constant('shout'),
  fc.constant(true),
  fc.constant([]),
  fc.constant(['a']),
  fc.constant({}),
  str,
);

const record = fc.oneof(
  { weight: 1, arbitrary: validRecord },
  {
    weight: 3,
    arbitrary: fc.tuple(validRecord, fc.nat(), breaker).map(([r, k, v]) => {
      const keys = Object.keys(r);
      const key = keys[k % keys.length]!;
      const out: Record<string, unknown> = { ...r };
      if (v === undefined) delete out[key];
      else out[key] = v;
      return out;
    }),
  },
  { weight: 1, arbitrary: fc.tuple(validRecord, str, fc.jsonValue()).map(([r, k, v]) => ({ [`x-${k}`]: v, ...r })) },
);

describe('one record contract', () => {
  it('the committed JSON Schema, the importer and the relay guard agree on generated records', () => {
    fc.assert(
      fc.property(record, (r) => {
        const bySchema = schemaOk(file([r]));
        expect({ r, importer: importerOk([r]) }).toEqual({ r, importer: bySchema });
        expect({ r, guard: isCaptureRecord(r) }).toEqual({ r, guard: bySchema });
        if (zodAccepts) expect({ r, zod: zodAccepts(r) }).toEqual({ r, zod: bySchema });
      }),
      { numRuns: 3000 },
    );
  });

  it('the records of the issue: a capture-gap with seq 0 and a made-up reason, a notice that shouts', () => {
    const gap = { kind: 'capture-gap', seq: 1, src: 's', t: 1, lost: 2, conns: [], reason: 'made-up' };
    const notice = { kind: 'notice', seq: 2, src: 's', t: 2, level: 'shout', code: 'x', message: 'm' };
    for (const r of [gap, { ...gap, seq: 0, reason: 'other' }, notice]) {
      expect(schemaOk(file([r]))).toBe(false);
      expect(importerOk([r])).toBe(false);
      expect(isCaptureRecord(r)).toBe(false);
    }
    const ok = { kind: 'navigation', seq: 1, src: 's', t: 0, url: 'http://x/', top: true };
    expect(() => importValue(file([ok, ok, ok, gap]))).toThrow('invalid capture file: records[3].reason: not one of buffer-cap, event-size-cap, extension-reloaded, hook-missing, import, not-recording, not-seen-by-hook, other');
    expect(() => importValue(file([notice]))).toThrow('invalid capture file: records[0].level: not one of info, warning, error');
    expect(() => importValue([ok, { ...gap, seq: 0, reason: 'other' }])).toThrow('invalid record list: records[1].seq: expected at least 1, got 0');
    expect(() => importValue(file([{ ...ok, kind: 'evil' }]))).toThrow(/records\[0\]\.kind: "evil" is not a record kind/);
    expect(() => importValue(file([{ ...ok, t: '1' }]))).toThrow('records[0].t: expected a number, got string');
  });

  it('every fixture capture is valid under the schema and the importer', () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : f.endsWith('.capture.json') ? [join(dir, f)] : []));
    const files = walk('test/fixtures/captures');
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) {
      const v = JSON.parse(readFileSync(f, 'utf8')) as unknown;
      expect({ f, ok: schemaOk(v) }).toEqual({ f, ok: true });
      expect(importText(readFileSync(f, 'utf8')).records.length).toBeGreaterThan(0);
    }
  });

  it('the committed schema is the one generated from the contract (npm run schema)', async () => {
    const { captureFileJsonSchemaText } = await import('../../../src/core/contract/json-schema');
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(captureFileJsonSchemaText());
  });
});
