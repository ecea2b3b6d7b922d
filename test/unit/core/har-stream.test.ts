// The streaming HAR importer gives importHar's records, seq for seq, on every fixture HAR and on
// HAR exports of every fixture capture (our own export's _msi and _msiRecords), whether entries are
// fed one by one or the file breaks the start-time order; and it hands records out early.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importHar } from '../../../src/core/import/har';
import { createHarStream } from '../../../src/core/import/har-stream';
import { importText } from '../../../src/core/import';
import type { CaptureRecord } from '../../../src/core/record';
import { exportHar } from '../../../src/export/har';

const dir = join(import.meta.dirname, '../../fixtures/captures');

function stream(har: { log: Record<string, unknown> & { entries: unknown[] } }, src: string) {
  const s = createHarStream({ src });
  const got: CaptureRecord[] = [];
  let early = 0;
  har.log.entries.forEach((e, i) => {
    const out = s.entry(e);
    got.push(...out);
    if (i < har.log.entries.length - 1) early += out.length;
  });
  s.log(har.log);
  const end = s.end();
  return { records: end.restart ? end.records : [...got, ...end.records], restart: end.restart, early };
}

const hars = readdirSync(dir).filter((f) => f.endsWith('.har'));
const captures = readdirSync(dir).filter((f) => f.endsWith('.capture.json'));

describe('streaming HAR import', () => {
  for (const f of hars) {
    it(`${f}: the same records as importHar`, () => {
      const har = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const r = stream(har, 'h');
      expect(r.records).toEqual(importHar(har, 'h'));
    });
  }

  for (const f of captures) {
    it(`our own HAR export of ${f}: the same records as importHar`, () => {
      const recs = importText(readFileSync(join(dir, f), 'utf8')).records;
      const har = JSON.parse(exportHar(recs));
      const r = stream(har, 'h');
      expect(r.records).toEqual(importHar(har, 'h'));
      // records are handed out before the last entry is read
      expect(r.early).toBeGreaterThan(0);
    });
  }

  it('a HAR whose events are only in _eventSourceMessages (the file-level notice comes at the end): still equal', () => {
    const recs = importText(readFileSync(join(dir, 'lossy.capture.json'), 'utf8')).records;
    const har = JSON.parse(exportHar(recs));
    for (const e of har.log.entries) {
      delete e._msi;
      delete e._sseEvents;
      if (e._eventSourceMessages?.length) delete e.response.content.text;
    }
    const r = stream(har, 'h');
    const whole = importHar(har, 'h');
    expect(whole.some((x) => x.kind === 'notice' && x.code === 'har-event-source-messages')).toBe(true);
    expect(r.records).toEqual(whole);
  });

  it('entries out of start order: restart with the whole list, still equal', () => {
    const har = JSON.parse(readFileSync(join(dir, 'lossy.har'), 'utf8'));
    har.log.entries.reverse();
    const r = stream(har, 'h');
    expect(r.restart).toBe(true);
    expect(r.records).toEqual(importHar(har, 'h'));
  });

  it('an entry that is not an entry: importHar’s error', () => {
    const s = createHarStream();
    expect(() => s.entry(3)).toThrow(/HAR entry 0 is not an object/);
  });
});
