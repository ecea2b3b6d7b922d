// `_eventSourceMessages`, the per-entry SSE field other HAR tools write and read: our export writes
// it next to `_sseEvents`, and a HAR that carries the events only there (no body text) imports to
// the same analysis, with a notice naming what the file lacks.
//
// The HARs below are written the way NeuraLegion's cypress-har-generator writes them
// (src/network/EntryBuilder.ts at commit 2a745bf): `_eventSourceMessages: [{time, eventName,
// eventId, data}]` on every entry (`[]` when none) next to `_webSocketMessages: []`, `time` the raw
// CDP monotonic timestamp in seconds, `eventId` the EventSource's last event id, and no
// content.text for the event stream (DevTools cannot return the body of a live EventSource).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core';
import { importText, importValue } from '../../../src/core/import';
import type { CaptureRecord } from '../../../src/core/record';
import { toHar, type Har, type HarEntry } from '../../../src/export/har';
import { lossyRecords } from '../../support/hand-made-lossy';
import { summary } from './helpers';

const dir = 'test/fixtures/captures';
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.capture.json')) : [];
const load = (f: string) => (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { records: CaptureRecord[] }).records;


/** CDP's monotonic clock: seconds since an arbitrary point (here: about a day of uptime). */
const MONOTONIC_BASE = 86_000;

/** Our export rewritten as cypress-har-generator would have recorded the same traffic. */
function asCypressHar(har: Har, t0: number): unknown {
  const entries = har.log.entries.map((e: HarEntry) => {
    const sse = e._eventSourceMessages;
    const isSse = sse !== undefined;
    const { _msi, _sseEvents, _eventSourceMessages, ...rest } = e;
    void _msi;
    void _sseEvents;
    void _eventSourceMessages;
    return {
      ...rest,
      response: {
        ...rest.response,
        // The event stream's body is not kept; JSON bodies are.
        content: isSse ? { size: rest.response.content.size, mimeType: rest.response.content.mimeType } : rest.response.content,
        bodySize: isSse ? -1 : rest.response.bodySize,
        _transferSize: 0,
      },
      _priority: 'High',
      _webSocketMessages: [],
      _eventSourceMessages: (sse ?? []).map((m) => ({ time: MONOTONIC_BASE + (m.time - t0 / 1000), eventName: m.eventName, eventId: m.eventId, data: m.data })),
    };
  });
  return { log: { version: '1.2', creator: { name: 'cypress-har-generator', version: '6.1.1' }, pages: [], entries } };
}

const cases: [string, CaptureRecord[]][] = [['sample lossy (hand-made)', lossyRecords()], ...files.map((f): [string, CaptureRecord[]] => [f, load(f)])];

describe('export: _eventSourceMessages beside _sseEvents', () => {
  it.each(cases)('%s', (_n, records) => {
    const har = toHar(records);
    let withEvents = 0;
    for (const e of har.log.entries) {
      if (!e._sseEvents) {
        expect(e._eventSourceMessages).toBeUndefined();
        continue;
      }
      withEvents++;
      const m = e._eventSourceMessages!;
      expect(m).toHaveLength(e._sseEvents.length);
      let last = '';
      m.forEach((x, i) => {
        const own = e._sseEvents![i]!;
        // Exactly CDP's Network.eventSourceMessageReceived fields, time in epoch seconds.
        expect(Object.keys(x)).toEqual(['time', 'eventName', 'eventId', 'data']);
        expect(typeof x.time === 'number' && typeof x.eventName === 'string' && typeof x.eventId === 'string' && typeof x.data === 'string').toBe(true);
        expect(x.time).toBe(own.time);
        expect(x.eventName).toBe(own.event);
        expect(x.data).toBe(own.data);
        if (own.id !== undefined) last = own.id;
        expect(x.eventId).toBe(last);
      });
    }
    if (records.some((r) => r.kind === 'chunk')) expect(withEvents).toBeGreaterThan(0);
  });

  it('eventId is the last id in effect: an event without an id line keeps it, an empty id line clears it', () => {
    const u = 'http://127.0.0.1:1/mcp';
    const recs: CaptureRecord[] = [
      { kind: 'request', seq: 1, src: 's', t: 1000, conn: 'c', transport: 'fetch', method: 'GET', url: u, headers: [], body: null },
      { kind: 'response', seq: 2, src: 's', t: 1001, conn: 'c', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: u, redirected: false, type: 'basic', capture: 'sse' },
      { kind: 'chunk', seq: 3, src: 's', t: 1002, conn: 'c', text: 'id: 7\ndata: a\n\ndata: b\n\nid:\ndata: c\n\n', bytes: 34 },
      { kind: 'end', seq: 4, src: 's', t: 1003, conn: 'c', how: 'complete' },
    ];
    expect(toHar(recs).log.entries[0]!._eventSourceMessages!.map((m) => m.eventId)).toEqual(['7', '7', '']);
  });
});

describe('import: a HAR with the events only in _eventSourceMessages (cypress-har-generator shape)', () => {
  it.each(cases)('%s gives the same findings, verdicts and sessions', (_n, records) => {
    const t0 = records.reduce((m, r) => Math.min(m, r.t), Infinity);
    const text = JSON.stringify(asCypressHar(toHar(records), t0));
    const imported = importText(text);
    expect(imported.format).toBe('har');
    // The events were read from _eventSourceMessages: no body text was there to read.
    expect(imported.records.some((r) => r.kind === 'chunk' && /^(id|data|event):/m.test(r.text))).toBe(false);
    expect(summary(analyzeRecords(imported.records))).toEqual(summary(analyzeRecords(records)));
    const har = JSON.parse(text) as { log: { entries: { _eventSourceMessages: unknown[] }[] } };
    const withMessages = har.log.entries.filter((e) => e._eventSourceMessages.length > 0).length;
    const notices = imported.records.filter((r) => r.kind === 'notice' && r.code === 'har-event-source-messages');
    if (withMessages === 0) expect(notices).toHaveLength(0);
    else {
      expect(notices).toHaveLength(1);
      const n = notices[0]!;
      if (n.kind !== 'notice') throw new Error('not a notice');
      expect(n.message).toContain(withMessages === 1 ? 'One HAR entry' : `${withMessages} HAR entries`);
      expect(n.message).toContain('without the response body text');
      expect(n.message).toContain('comments, retry: fields');
      expect(n.message).toContain('monotonic seconds');
    }
  });

  const U = 'http://127.0.0.1:4000/sse';
  const esEntry = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
    startedDateTime: '2026-07-01T10:00:00.000Z',
    time: 5000,
    request: { method: 'GET', url: U, httpVersion: 'HTTP/1.1', headers: [{ name: 'Accept', value: 'text/event-stream' }], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
      cookies: [],
      content: { size: 0, mimeType: 'text/event-stream' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 10, receive: 4990 },
    _resourceType: 'eventsource',
    _webSocketMessages: [],
    _eventSourceMessages: messages,
    ...extra,
  });
  const har = (...entries: unknown[]) => ({ log: { version: '1.2', creator: { name: 'x', version: '1' }, pages: [], entries } });
  const msg = (time: number, eventId: string, data: unknown) => ({ time, eventName: 'message', eventId, data: JSON.stringify(data) });
  const note = (rs: CaptureRecord[]) => rs.find((r) => r.kind === 'notice' && r.code === 'har-event-source-messages') as Extract<CaptureRecord, { kind: 'notice' }> | undefined;

  it('ids when present: a counter gap between two events is found (live-gap), with monotonic times kept in order and spacing', () => {
    const rs = importValue(har(esEntry([msg(9000.5, '1', { jsonrpc: '2.0', method: 'notifications/message', params: { n: 1 } }), msg(9001.5, '2', { jsonrpc: '2.0', method: 'notifications/message', params: { n: 2 } }), msg(9003, '5', { jsonrpc: '2.0', method: 'notifications/message', params: { n: 5 } })]))).records;
    const ev = rs.filter((r) => r.kind === 'es-event');
    expect(ev.map((r) => r.kind === 'es-event' && r.lastEventId)).toEqual(['1', '2', '5']);
    expect(ev[1]!.t - ev[0]!.t).toBeCloseTo(1000, 3);
    expect(ev[2]!.t - ev[1]!.t).toBeCloseTo(1500, 3);
    const snap = analyzeRecords(rs);
    expect(snap.findings.map((f) => `${f.code} ${f.missing ?? ''}`)).toContain('live-gap 3–4');
    expect(snap.findings.some((f) => f.code === 'capture-gap')).toBe(false);
    const n = note(rs)!;
    expect(n.level).toBe('info');
    expect(n.message).toContain(`One HAR entry (GET ${U})`);
    expect(n.message).toContain('monotonic seconds');
  });

  it('epoch-second times are used as they are', () => {
    const t = Date.parse('2026-07-01T10:00:01.250Z') / 1000;
    const rs = importValue(har(esEntry([msg(t, '1', { jsonrpc: '2.0', method: 'notifications/message' })]))).records;
    expect(rs.find((r) => r.kind === 'es-event')!.t).toBeCloseTo(t * 1000, 3);
    expect(note(rs)!.message).not.toContain('monotonic');
  });

  it('without ids or times: the events are kept, and the notice says gaps cannot be shown', () => {
    const rs = importValue(har(esEntry([{ data: 'a' }, { eventName: 'ping', data: 'b' }, { data: { x: 1 } }]))).records;
    const ev = rs.filter((r): r is Extract<CaptureRecord, { kind: 'es-event' }> => r.kind === 'es-event');
    expect(ev.map((e) => [e.type, e.data, e.lastEventId])).toEqual([
      ['message', 'a', ''],
      ['ping', 'b', ''],
      ['message', '{"x":1}', ''],
    ]);
    const n = note(rs)!;
    expect(n.level).toBe('warning');
    expect(n.message).toContain('No message carries an event id');
    expect(n.message).toContain('No message has a time');
  });

  it('an entry whose body text is present keeps reading the body; `[]` and absent fields change nothing', () => {
    const body = 'id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message"}\n\n';
    const withBody = esEntry([msg(9000, '99', 'ignored')], { response: { ...esEntry([]).response, content: { size: body.length, mimeType: 'text/event-stream', text: body } } });
    const rs = importValue(har(withBody)).records;
    expect(rs.filter((r) => r.kind === 'es-event')).toHaveLength(0);
    expect(rs.some((r) => r.kind === 'chunk' && r.text.includes('id: 1'))).toBe(true);
    expect(note(rs)).toBeUndefined();
    // An event stream with neither a body nor messages is still a body the file does not hold.
    const empty = importValue(har(esEntry([], { response: { ...esEntry([]).response, content: { size: -1, mimeType: 'text/event-stream' } } }))).records;
    expect(empty.some((r) => r.kind === 'capture-gap' && r.reason === 'import')).toBe(true);
    expect(note(empty)).toBeUndefined();
  });
});
