import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CaptureRecord } from '../../core/record';
import { isCandidate, startNetworkFallback, type HarLikeEntry } from './network';
import { createLiveStore } from './store';

const entry = (url: string, ct: string, started: number, method = 'GET', post?: string): HarLikeEntry => ({
  startedDateTime: new Date(started).toISOString(),
  time: 20,
  request: { method, url, headers: [{ name: 'accept', value: 'text/event-stream' }], ...(post ? { postData: { text: post } } : {}) },
  response: { status: 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: ct }], bodySize: 9 },
  getContent: (cb) => cb('data: x\n\n', ''),
});
const hookReq = (url: string, t: number): CaptureRecord => ({
  kind: 'request', src: 'S', seq: 1, t, conn: 'c1', transport: 'fetch', method: 'GET', url, headers: [], body: null,
});

describe('network fallback (requests the hook could not see)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('selects event streams and JSON answers to JSON-RPC POSTs only', () => {
    expect(isCandidate(entry('u', 'text/event-stream; charset=utf-8', 0))).toBe('sse');
    expect(isCandidate(entry('u', 'application/json', 0, 'POST', '{"jsonrpc":"2.0"}'))).toBe('json');
    expect(isCandidate(entry('u', 'application/json', 0, 'GET'))).toBe(null);
    expect(isCandidate(entry('u', 'text/html', 0))).toBe(null);
  });

  it('adds an unseen finished request as network records, and skips one the hook recorded (even after Clear)', () => {
    const store = createLiveStore();
    let emit: (e: HarLikeEntry) => void = () => {};
    startNetworkFallback(store, (cb) => (emit = cb));
    store.ingest([hookReq('http://x/seen', 1000)]);
    store.clear();
    emit(entry('http://x/seen', 'text/event-stream', 1500));
    emit(entry('http://x/worker', 'text/event-stream', 1600));
    vi.advanceTimersByTime(2000);
    const recs = store.getSnapshot().records;
    expect(recs.map((r) => r.kind)).toEqual(['request', 'response', 'chunk', 'end']);
    expect(recs[0]).toMatchObject({ src: 'network', seq: 1, transport: 'network', url: 'http://x/worker' });
    expect(recs[2]).toMatchObject({ text: 'data: x\n\n' });
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  });
});
