// Findings are values: an object handed out in a snapshot never changes afterwards (a changed
// finding, session, request or event is a new object), so a UI may memoise by identity. Every
// fixture capture and HAR is pushed one record at a time with a snapshot after each; every object
// a snapshot holds is serialised when it is first seen and again at the end, and the two must be
// equal. The shared append-only notification lists are compared up to the length the snapshot
// gave (notificationCount), as the model documents; a stream's events are a view of that length.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalyzer } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, call, ev, initSession, progress, result } from './helpers';

const ROOT = 'test/fixtures/captures';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (f.endsWith('.capture.json') || f.endsWith('.har')) out.push(p);
  }
  return out;
}

/** The objects of a snapshot, each with its serialisation (shared arrays cut to the snapshot's length). */
function objectsOf(snap: AnalysisSnapshot): [object, () => string][] {
  const out: [object, () => string][] = [];
  for (const f of snap.findings) out.push([f, () => JSON.stringify(f)]);
  for (const s of snap.sessions) out.push([s, () => JSON.stringify(s)]);
  for (const list of Object.values(snap.requests)) {
    for (const r of list) {
      const n = r.notificationCount ?? r.notifications.length;
      out.push([r, () => JSON.stringify({ ...r, notifications: r.notifications.slice(0, n) })]);
    }
  }
  for (const st of Object.values(snap.streams)) {
    const n = st.eventCount ?? st.events.length;
    out.push([st, () => JSON.stringify({ ...st, events: n })]);
    // A stream's events are a view per snapshot (built from columns on demand): the view must show
    // the same events, with the same finding codes, at the end as when the snapshot handed it out.
    out.push([st.events, () => JSON.stringify(st.events)]);
  }
  return out;
}

/** Pushes `records` one by one; returns the objects that changed after a snapshot handed them out. */
function mutated(records: readonly CaptureRecord[]): string[] {
  const seen = new Map<object, [string, () => string, number]>();
  const a = createAnalyzer();
  const look = (at: number) => {
    for (const [o, ser] of objectsOf(a.snapshot())) if (!seen.has(o)) seen.set(o, [ser(), ser, at]);
  };
  records.forEach((r, i) => {
    a.push(r);
    look(i);
  });
  a.finish();
  look(records.length);
  const bad: string[] = [];
  for (const [before, ser, at] of seen.values()) {
    const now = ser();
    if (now !== before) bad.push(`after record ${at}: ${before.slice(0, 300)}\n  became ${now.slice(0, 300)}`);
  }
  return bad;
}

describe('objects in a snapshot never change afterwards', () => {
  it('a replay-duplicate finding keeps its message and ids when another duplicate follows', () => {
    const c = new Capture();
    initSession(c);
    const post = c.request({ sessionId: 'sess-1', body: call(2) });
    c.response(post);
    c.chunk(post, ev('1', progress(2, 1)) + ev('2', progress(2, 2)));
    c.chunk(post, ev('2', progress(2, 2)));
    c.chunk(post, ev('2', progress(2, 2)));
    c.chunk(post, ev('3', result(2)));
    c.end(post);
    const a = createAnalyzer();
    a.pushAll(c.records.slice(0, -3));
    const before = a.snapshot().findings.find((f) => f.code === 'replay-duplicate')!;
    const text = JSON.stringify(before);
    a.pushAll(c.records.slice(-3));
    a.finish();
    const after = a.snapshot().findings.find((f) => f.code === 'replay-duplicate')!;
    expect(JSON.stringify(before)).toBe(text);
    expect(after.eventIds).toEqual(['2', '2']);
    expect(after).not.toBe(before);
  });

  const all = files(ROOT);
  it('finds the fixture captures and HARs', () => {
    expect(all.length).toBeGreaterThan(100);
  });
  for (const f of all) {
    it(f.slice(ROOT.length + 1), () => {
      const records = importText(readFileSync(f, 'utf8')).records;
      expect(mutated(records)).toEqual([]);
    });
  }
});
