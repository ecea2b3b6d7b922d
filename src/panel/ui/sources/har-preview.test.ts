// A HAR whose one entry holds a large stream, read as it arrives (issue 22, item 3): the session
// and its first events appear before the entry is whole; at the end the records are importHar's,
// seq for seq, and the analysis is the whole-file import's.
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../../core';
import { importText } from '../../../core/import';
import type { CaptureRecord } from '../../../core/record';
import { exportHar } from '../../../export/har';
import { bigSession } from '../test-support/generated';
import { startStreamingImport } from './progressive-import';

const analyse = (records: readonly CaptureRecord[]) => {
  const a = createAnalyzer();
  for (const r of records) a.push(r);
  a.finish?.();
  return a.snapshot();
};

/** Writes `text` in pieces, running the import's slices after each; `onPiece` sees the records so far. */
function feed(text: string, piece: number, onPiece: (records: readonly CaptureRecord[], written: number) => void) {
  const queue: (() => void)[] = [];
  const imp = startStreamingImport({ src: 'import:t.har', sliceMs: 1_000, yieldTo: (cb) => queue.push(cb) });
  for (let at = 0; at < text.length; at += piece) {
    imp.write(text.slice(at, at + piece));
    while (queue.length) queue.shift()!();
    onPiece(imp.source.getRecords(), Math.min(text.length, at + piece));
  }
  imp.end();
  while (queue.length) queue.shift()!();
  return imp;
}

/**
 * Our own export's HAR, and the same with the body only (no `_msi`, `_sseEvents`,
 * `_eventSourceMessages`), its members in Chrome's order (alphabetical: startedDateTime after the response).
 */
function hars(events: number) {
  const records = bigSession(events, { gapAt: Math.floor(events * 0.6), gap: 3 });
  const own = exportHar(records);
  const log = (JSON.parse(own) as { log: { entries: Record<string, unknown>[] } }).log;
  const plain = log.entries.map((e) => {
    const { _msi: _m, _sseEvents: _s, _eventSourceMessages: _e, ...rest } = e;
    return Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
  });
  const chrome = JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries: plain } });
  return { own, chrome };
}

describe('a HAR entry holding a large stream is read progressively', () => {
  for (const kind of ['own', 'chrome'] as const) {
    it(`${kind === 'own' ? 'our own export' : 'a Chrome-style HAR'}: the session and its first events appear before the entry is whole; the end is importHar's`, async () => {
      const text = hars(30_000)[kind];
      expect(text.length).toBeGreaterThan(3 << 20);
      const whole = importText(text, { src: 'import:t.har' }).records;
      // inside the last entry, after its body: its `_msi`, or Chrome's startedDateTime
      const bigEntryEnd = kind === 'own' ? text.indexOf('"_msi"', text.lastIndexOf('"text"')) : text.lastIndexOf('"startedDateTime"');
      expect(bigEntryEnd).toBeGreaterThan(text.length / 2);
      let firstShown: { written: number; events: number } | undefined;
      const imp = feed(text, 64 * 1024, (records, written) => {
        if (firstShown || written >= text.length) return;
        const snap = analyse(records);
        const events = Object.values(snap.streams).reduce((n, s) => n + s.events.length, 0);
        if (snap.sessions.length > 0 && events > 100) {
          firstShown = { written, events };
          // provisional chunks in pieces of about 64 KB (the analysis goes record by record)
          for (const r of records) if (r.kind === 'chunk') expect(r.text.length).toBeLessThan(70_000);
        }
      });
      await imp.done;
      expect(firstShown, 'a session with events shown before the end of the file').toBeDefined();
      expect(firstShown!.written).toBeLessThan(text.length / 2);
      expect(firstShown!.written).toBeLessThan(bigEntryEnd);
      // the end: importHar's records, seq for seq, and the same analysis
      expect(imp.source.getRecords()).toEqual(whole);
      const a = analyse(imp.source.getRecords());
      const b = analyse(whole);
      expect(a.findings).toEqual(b.findings);
      expect(a.findings.some((f) => f.code === 'live-gap')).toBe(true);
      expect(a.sessions).toEqual(b.sessions);
    });
  }

  it('a small entry is not previewed (no restart): records handed out are final', async () => {
    const text = hars(1500).own;
    expect(text.length).toBeLessThan(1 << 20);
    const seen: CaptureRecord[][] = [];
    const imp = feed(text, 16 * 1024, (records) => seen.push(records.slice()));
    await imp.done;
    const whole = importText(text, { src: 'import:t.har' }).records;
    for (const s of seen) expect(s).toEqual(whole.slice(0, s.length));
  });
});

describe('createValueScan: the end of a value arriving in pieces, each character scanned once', () => {
  it('finds the same end as the whole-text scanner wherever the pieces are cut (escapes, quotes, brackets in strings)', async () => {
    const { createValueScan, scanner, NeedMore } = await import('./json-scanner');
    const value = JSON.stringify({ a: 'x\\"]}{[', b: ['\\', '"', { c: '\\\\"' }], d: 'é\u2028"\\u0041' });
    const text = `${value}, {"next": 1}`;
    const expected = scanner(text).value(0);
    for (let cut = 1; cut < value.length; cut++) {
      const scan = createValueScan();
      expect(() => scan.end(text.slice(0, cut), 0)).toThrow(NeedMore);
      expect(scan.scanned).toBeLessThanOrEqual(cut);
      // more text: the scan goes on from where it stopped (a prefix before the value is allowed)
      expect(scan.end(`  ${text}`, 2)).toBe(expected + 2);
    }
  });
});

describe('a capture file whose one chunk record is megabytes, written in pieces', () => {
  it('gives the whole-file records when the record arrives in 64 KB pieces (its end scanned with createValueScan)', async () => {
    const { exportJson } = await import('../../../export/json');
    const records = bigSession(30_000);
    // one chunk record holding the whole stream
    const chunks = records.filter((r) => r.kind === 'chunk' && r.conn === 'c2');
    const text = chunks.map((r) => (r.kind === 'chunk' ? r.text : '')).join('');
    const first = chunks[0]!;
    const merged = records.filter((r) => !chunks.includes(r) || r === first).map((r) => (r === first ? { ...first, text, bytes: new TextEncoder().encode(text).length } : r));
    const file = exportJson(merged.map((r, i) => ({ ...r, seq: i + 1 })), { createdAt: '2026-01-01T00:00:00Z' });
    expect(file.length).toBeGreaterThan(3 << 20);
    const imp = feed(file, 64 * 1024, () => {});
    await imp.done;
    expect(imp.source.getRecords()).toEqual(importText(file, { src: 'import:t.har' }).records);
  });
});
