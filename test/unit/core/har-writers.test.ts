// HARs as other writers make them, and hostile ones, found in a review (2026-12-07): each is
// lossless.har changed in one way, and must give what lossless.har gives (or say what it lost).
// The panel's streaming import must give what the whole-file import gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import';
import type { CaptureRecord } from '../../../src/core/record';
import { startStreamingImport } from '../../../src/panel/ui/sources/progressive-import';

type Har = { log: Record<string, unknown> & { entries: Record<string, any>[] } };
const base = (): Har => JSON.parse(readFileSync('test/fixtures/captures/lossless.har', 'utf8')) as Har;
const summary = (records: CaptureRecord[]) => {
  const s = analyzeRecords(records);
  return {
    findings: s.findings.map((f) => `${f.code}|${f.severity}`).sort(),
    verdicts: Object.values(s.requests).flat().map((r) => `${r.id}|${r.method}|${r.verdict}`).sort(),
  };
};
const expected = summary(importText(JSON.stringify(base())).records);

/** The messages of an SSE body as `_eventSourceMessages` (what DevTools' EventStream tab shows). */
function messages(text: string): { eventName: string; eventId: string; data: string }[] {
  const out: { eventName: string; eventId: string; data: string }[] = [];
  let last = '';
  for (const block of text.split('\n\n')) {
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      const i = line.indexOf(':');
      const k = i < 0 ? line : line.slice(0, i);
      const v = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (k === 'event') name = v;
      else if (k === 'id') last = v;
      else if (k === 'data') data.push(v);
    }
    if (data.length) out.push({ eventName: name, eventId: last, data: data.join('\n') });
  }
  return out;
}

async function streamed(text: string, piece = 64): Promise<{ records?: CaptureRecord[]; error?: string }> {
  const queue: (() => void)[] = [];
  const imp = startStreamingImport({ src: 'import:x', sliceMs: 0, yieldTo: (cb: () => void) => queue.push(cb) });
  for (let i = 0; i < text.length; i += piece) {
    imp.write(text.slice(i, i + piece));
    while (queue.length) queue.shift()!();
  }
  imp.end();
  while (queue.length) queue.shift()!();
  let error: string | undefined;
  await imp.done.catch((e: Error) => (error = e.message));
  return error !== undefined ? { error } : { records: imp.source.getRecords() as CaptureRecord[] };
}

describe('HAR writers and hostile HARs: review cases', () => {
  it('_eventSourceMessages beside content.text "" (a writer that puts responseBody ?? ""): the messages are the body', () => {
    const h = base();
    const e = h.log.entries[5]!;
    e._eventSourceMessages = messages(e.response.content.text);
    e.response.content.text = '';
    // before: an empty stream, resume-rejected and result-missing errors
    expect(summary(importText(JSON.stringify(h)).records)).toEqual(expected);
  });

  it('a status written as text ("200"), and an empty content-type header beside content.mimeType: the body is read', () => {
    for (const change of [(e: Record<string, any>) => (e.response.status = String(e.response.status)), (e: Record<string, any>) => {
      for (const x of e.response.headers as { name: string; value: string }[]) if (x.name.toLowerCase() === 'content-type') x.value = '';
    }]) {
      const h = base();
      change(h.log.entries[3]!);
      // before: result-missing (the body was not read)
      expect(summary(importText(JSON.stringify(h)).records)).toEqual(expected);
    }
  });

  it('_eventSourceMessages whose eventId is "" throughout: the notice warns that ids cannot show a gap', () => {
    const h = base();
    const e = h.log.entries[5]!;
    e._eventSourceMessages = messages(e.response.content.text).map((m) => ({ ...m, eventId: '' }));
    delete e.response.content.text;
    const notice = importText(JSON.stringify(h)).records.find((r) => r.kind === 'notice') as { level: string; message: string } | undefined;
    expect(notice?.level).toBe('warning');
    expect(notice?.message).toMatch(/No message carries an event id/);
  });

  it('start times to the second only: a warning says that order across connections may come from the file, not the traffic', () => {
    const h = JSON.parse(readFileSync('test/fixtures/captures/lossy.har', 'utf8')) as Har;
    const notice = (x: Har) => importText(JSON.stringify(x)).records.find((r) => r.kind === 'notice' && r.code === 'har-second-precision') as { level: string; message: string } | undefined;
    expect(notice(h)).toBeUndefined();
    for (const e of h.log.entries) e.startedDateTime = String(e.startedDateTime).replace(/\.\d+(?=Z|[+-]\d\d:?\d\d$)/, '');
    // before: a replay-gap and three progress-regressed errors from the resume's events placed
    // before the cut stream's, and nothing said about why
    expect(notice(h)).toMatchObject({ level: 'warning' });
    expect(notice(h)!.message).toMatch(/to the second only/);
  });

  it('the streaming import: "__proto__" in log is a member, not a way to add records; entries that are no list fail as the whole-file import does', async () => {
    const h = base();
    const text = JSON.stringify(h).replace('"log":{', '"log":{"__proto__":{"_msiRecords":[{"kind":"notice","t":1796022000000,"level":"error","code":"x","message":"INJECTED"}]},');
    const whole = importText(text).records;
    const s = await streamed(text);
    expect(s.records?.length).toBe(whole.length);
    expect(JSON.stringify(s.records)).not.toContain('INJECTED');
    for (const entries of ['null', '{"a":1}']) {
      const bad = `{"log":{"version":"1.2","entries":${entries}}}`;
      expect(() => importText(bad)).toThrow(/entries/);
      // before: 0 records and no complaint
      expect((await streamed(bad)).error).toMatch(/entries/);
    }
  });
});
