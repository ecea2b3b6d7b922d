import { describe, expect, it } from 'vitest';
import { GUARDS, isMessage } from './guards';
import { CHANNEL, PROTOCOL_VERSION, type MessageType } from './protocol';
import { isCaptureRecord, isHookWireRecord } from './records';

const env = (body: { type: string } & Record<string, unknown>) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, ...body });

const chunk = { kind: 'chunk', conn: 'c1', t: 1, text: 'data: x\n\n', bytes: 9 };

describe('message guards', () => {
  it('accept well-formed envelopes and reject other versions, channels and shapes', () => {
    expect(isMessage({ ch: 'mcp-stream-inspector', v: PROTOCOL_VERSION, type: 'hook-hello' }, 'hook-hello')).toBe(true);
    expect(isMessage({ ch: 'mcp-stream-inspector', v: 1, type: 'hook-hello' }, 'hook-hello')).toBe(false); // an older instance's
    expect(isMessage({ ch: 'other', v: PROTOCOL_VERSION, type: 'hook-hello' }, 'hook-hello')).toBe(false);
    expect(isMessage('hook-hello', 'hook-hello')).toBe(false);
    expect(isMessage(env({ type: 'hook-hello' }), 'hook-batch')).toBe(false); // the type asked for
    expect(isMessage(env({ type: 'hook-batch', records: [] }), 'hook-batch')).toBe(true);
    expect(isMessage(env({ type: 'hook-batch', records: {} }), 'hook-batch')).toBe(false);
    expect(isMessage(env({ type: 'mode', copy: false }), 'mode')).toBe(true);
    expect(isMessage(env({ type: 'mode', copy: 0 }), 'mode')).toBe(false);
    expect(isMessage(env({ type: 'panel', on: true }), 'panel')).toBe(true);
    expect(isMessage(env({ type: 'panel', on: 1 }), 'panel')).toBe(false);
    expect(isMessage(env({ type: 'relay-hello', src: 'abc' }), 'relay-hello')).toBe(true);
    expect(isMessage(env({ type: 'attach', cursors: { a: 3 } }), 'attach')).toBe(true);
    expect(isMessage(env({ type: 'attach', cursors: { a: -1 } }), 'attach')).toBe(false);
    expect(isMessage(env({ type: 'attach', cursors: { a: 1.5 } }), 'attach')).toBe(false);
    expect(isMessage(env({ type: 'panel-hello', tabId: 3, cursors: {} }), 'panel-hello')).toBe(true);
    expect(isMessage(env({ type: 'panel-hello', tabId: '3', cursors: {} }), 'panel-hello')).toBe(false);
    expect(isMessage(env({ type: 'devtools-hello', tabId: 3 }), 'devtools-hello')).toBe(true);
    expect(isMessage(env({ type: 'devtools-hello', tabId: -1 }), 'devtools-hello')).toBe(false);
    expect(isMessage(env({ type: 'devtools-hello' }), 'devtools-hello')).toBe(false);
    expect(isMessage(env({ type: 'inspected', inspected: false }), 'inspected')).toBe(true);
    expect(isMessage(env({ type: 'inspected', inspected: 'yes' }), 'inspected')).toBe(false);
    expect(isMessage(env({ type: 'relay-hello-reply', attach: false, inspected: true }), 'relay-hello-reply')).toBe(true);
    expect(isMessage(env({ type: 'relay-hello-reply', attach: false }), 'relay-hello-reply')).toBe(false);
    const batch = env({ type: 'records', src: 's', backfill: false, records: [] });
    expect(isMessage(batch, 'records')).toBe(true);
    expect(isMessage({ ...batch, blobs: [new Blob(['x'])] }, 'records')).toBe(true);
    expect(isMessage({ ...batch, blobs: ['x'] }, 'records')).toBe(false);
    expect(isMessage({ ...batch, frameId: '0' }, 'records')).toBe(false);
  });

  it('has one guard per message type of the protocol map', () => {
    const types: MessageType[] = ['hook-hello', 'hook-batch', 'mode', 'mode-ack', 'relay-hello', 'relay-hello-reply', 'inspected', 'attach', 'attach-ack', 'detach', 'records', 'devtools-hello', 'panel-hello', 'tab-status',
      'fault-arm', 'panel', 'fault-query', 'fault-plan', 'fault-read', 'fault-out', 'faults', 'arm-faults', 'inspected-tabs', 'inspected-tabs-reply'];
    expect(Object.keys(GUARDS).sort()).toEqual([...types].sort());
  });

  it('validate hook records field by field (page data is untrusted)', () => {
    expect(isHookWireRecord(chunk)).toBe(true);
    expect(isHookWireRecord({ kind: 'chunk', conn: 'c1', t: 1, text: 'x' })).toBe(true); // XHR: bytes counted by the panel
    expect(isHookWireRecord({ ...chunk, text: 5 })).toBe(false);
    expect(isHookWireRecord({ ...chunk, seq: 1 })).toBe(false); // the relay numbers, not the page
    expect(isHookWireRecord({ kind: 'chunk', conn: 'c1', t: 1, data: new Uint8Array(2) })).toBe(true);
    expect(isHookWireRecord({ kind: 'chunk', conn: 'c1', t: 1, data: [1, 2] })).toBe(false);
    expect(isHookWireRecord({ kind: 'chunk', conn: 'c1', t: 1, data: new Uint8Array(2), text: 'x' })).toBe(false);
    // A large read as a Blob: its size must be its length, its tail its last min(3, n) bytes.
    const big = { kind: 'chunk', conn: 'c1', t: 1, blob: new Blob(['abcdef']), n: 6, tail: new Uint8Array([100, 101, 102]) };
    expect(isHookWireRecord(big)).toBe(true);
    expect(isHookWireRecord({ ...big, n: 7 })).toBe(false); // the Blob says 6 bytes
    expect(isHookWireRecord({ ...big, blob: 'abcdef' })).toBe(false);
    expect(isHookWireRecord({ ...big, tail: new Uint8Array(2) })).toBe(false);
    expect(isHookWireRecord({ ...big, tail: [100, 101, 102] })).toBe(false);
    expect(isHookWireRecord({ ...big, text: 'abcdef' })).toBe(false);
    expect(isHookWireRecord({ kind: 'chunk', conn: 'c1', t: 1, blob: new Blob(['ab']), n: 2, tail: new Uint8Array(2) })).toBe(true);
    expect(isHookWireRecord({ kind: 'chunk', conn: 'c1', t: 1, blob: new Blob([]), n: 0, tail: new Uint8Array(0) })).toBe(false); // empty reads are never sent
    expect(isHookWireRecord({ kind: 'skip', conn: 'c1', t: 1 })).toBe(true);
    expect(isHookWireRecord({ kind: 'skip', conn: 'c1', t: 1, n: 9, tail: new Uint8Array(3) })).toBe(true);
    expect(isHookWireRecord({ kind: 'skip', conn: 'c1', t: 1, n: 9, tail: new Uint8Array(2) })).toBe(false); // a tail shorter than the read
    expect(isHookWireRecord({ kind: 'skip', conn: 'c1', t: 1, n: 9, tail: new Uint8Array(4) })).toBe(false);
    expect(isHookWireRecord({ kind: 'navigation', t: 1, url: 'x', top: true })).toBe(false); // relay-only kind
    // Injected faults are recorded by the relay only: a page cannot forge one through the hook.
    expect(isHookWireRecord({ kind: 'fault', conn: 'c1', t: 1, fault: 'cut', origin: 'panel', armed: 'x', text: 'x', eventIds: [], events: 0 })).toBe(false);
    expect(isHookWireRecord({ kind: 'end', conn: 'c', t: 1, how: 'exploded' })).toBe(false);
    expect(isHookWireRecord({ kind: 'request', conn: 'c', t: 1, transport: 'fetch', method: 'GET', url: 'u', headers: [['a', 'b']], body: null })).toBe(true);
    expect(isHookWireRecord({ kind: 'request', conn: 'c', t: 1, transport: 'fetch', method: 'GET', url: 'u', headers: [['a']], body: null })).toBe(false);
    expect(isHookWireRecord({ kind: 'request', conn: 'c', t: 1, transport: 'carrier-pigeon', method: 'GET', url: 'u', headers: [], body: null })).toBe(false);
    expect(isHookWireRecord({ kind: 'chunk', t: 1, text: '', bytes: 0 })).toBe(false); // no conn
    expect(isHookWireRecord(null)).toBe(false);
  });

  it('validate numbered capture records', () => {
    expect(isCaptureRecord({ ...chunk, seq: 2, src: 's' })).toBe(true);
    expect(isCaptureRecord({ ...chunk, seq: 0, src: 's' })).toBe(false);
  });
});
