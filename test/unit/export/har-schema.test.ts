// HAR exports validate against har-schema (the JSON Schema of HAR 1.2 used by har-validator).
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Ajv from 'ajv';
import type { CaptureRecord } from '../../../src/core/record';
import { exportHar } from '../../../src/export';
import { lossyRecords } from '../../support/hand-made-lossy';

const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, object>;
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
for (const s of Object.values(schemas)) ajv.addSchema(s);
const validate = ajv.getSchema('har.json#')!;

const dir = 'test/fixtures/captures';
const cases: [string, CaptureRecord[]][] = [
  ['sample lossy (hand-made)', lossyRecords()],
  ...(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.capture.json')) : []).map((f): [string, CaptureRecord[]] => [f, (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { records: CaptureRecord[] }).records]),
];

describe('HAR export against har-schema', () => {
  it.each(cases)('%s', (_n, records) => {
    const har = JSON.parse(exportHar(records)) as unknown;
    const ok = validate(har);
    expect(ok, JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
  });
  it('the schema does reject a broken entry', () => {
    const har = JSON.parse(exportHar(lossyRecords())) as { log: { entries: { request: Record<string, unknown>; time: unknown }[] } };
    delete har.log.entries[0]!.request.method;
    expect(validate(har)).toBe(false);
  });
  it('an empty capture is a valid HAR too', () => {
    expect(validate(JSON.parse(exportHar([])))).toBe(true);
  });
});
