// A HAR whose response statuses are written as text ("200"): the importer reads them as answers
// (har.ts: "Some writers give the status as text"), but the CORS check of the same file reads
// every such entry as failed before an answer (status 0), so the session-id-not-exposed error the
// file shows is silently lost and `audit` passes.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importText } from '../../../src/core/import/index';
import { analyzeRecords } from '../../../src/core/analyzer';
import { main } from '../../../src/cli/main';

const FIXTURE = 'test/fixtures/captures/browser/session-id-not-exposed.devtools.har';
const codes = (text: string) => analyzeRecords(importText(text).records).findings.map((f) => f.code);

async function audit(file: string) {
  let out = '';
  const code = await main(['audit', file], { stdout: (s) => void (out += s), stderr: (s) => void (out += s) });
  return { code, out };
}

describe('HAR statuses written as text and the CORS check', () => {
  const har = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { log: { entries: { response: { status: unknown } }[] } };
  const textStatuses = structuredClone(har);
  for (const e of textStatuses.log.entries) e.response.status = String(e.response.status);

  it('numeric statuses: session-id-not-exposed (control)', () => {
    expect(codes(JSON.stringify(har))).toContain('session-id-not-exposed');
  });

  it('the same file with statuses as text keeps the finding', () => {
    expect(codes(JSON.stringify(textStatuses))).toContain('session-id-not-exposed');
  });

  it('audit exits 1 on both files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msi-review-'));
    const a = join(dir, 'numeric.har');
    const b = join(dir, 'text.har');
    writeFileSync(a, JSON.stringify(har));
    writeFileSync(b, JSON.stringify(textStatuses));
    expect((await audit(a)).code).toBe(1);
    expect((await audit(b)).code).toBe(1);
  });
});
