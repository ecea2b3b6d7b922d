import { describe, expect, it } from 'vitest';
import type { HookRecord } from '../../core/record';
import {
  CHANNEL,
  PROTOCOL_VERSION,
  isAttach,
  isCaptureRecord,
  isDevtoolsHello,
  isInspected,
  isRelayHelloReply,
  isHookBatch,
  isHookHello,
  isHookRecord,
  isPanelHello,
  isRecordsBatch,
  isRelayHello,
} from './messages';

const env = (body: { type: string } & Record<string, unknown>) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, ...body });

const chunk: HookRecord = { kind: 'chunk', conn: 'c1', t: 1, text: 'data: x\n\n', bytes: 9 };

describe('message guards', () => {
  it('accept well-formed envelopes and reject other versions, channels and shapes', () => {
    expect(isHookHello({ ch: 'mcp-stream-inspector', v: 1, type: 'hook-hello' })).toBe(true);
    expect(isHookHello({ ch: 'mcp-stream-inspector', v: 2, type: 'hook-hello' })).toBe(false);
    expect(isHookHello({ ch: 'other', v: 1, type: 'hook-hello' })).toBe(false);
    expect(isHookHello('hook-hello')).toBe(false);
    expect(isHookBatch({ ch: 'mcp-stream-inspector', v: 1, type: 'hook-batch', records: [] })).toBe(true);
    expect(isHookBatch({ ch: 'mcp-stream-inspector', v: 1, type: 'hook-batch', records: {} })).toBe(false);
    expect(isRelayHello(env({ type: 'relay-hello', src: 'abc' }))).toBe(true);
    expect(isAttach(env({ type: 'attach', cursors: { a: 3 } }))).toBe(true);
    expect(isAttach(env({ type: 'attach', cursors: { a: -1 } }))).toBe(false);
    expect(isAttach(env({ type: 'attach', cursors: { a: 1.5 } }))).toBe(false);
    expect(isPanelHello(env({ type: 'panel-hello', tabId: 3, cursors: {} }))).toBe(true);
    expect(isPanelHello(env({ type: 'panel-hello', tabId: '3', cursors: {} }))).toBe(false);
    expect(isDevtoolsHello(env({ type: 'devtools-hello', tabId: 3 }))).toBe(true);
    expect(isDevtoolsHello(env({ type: 'devtools-hello', tabId: -1 }))).toBe(false);
    expect(isDevtoolsHello(env({ type: 'devtools-hello' }))).toBe(false);
    expect(isInspected(env({ type: 'inspected', inspected: false }))).toBe(true);
    expect(isInspected(env({ type: 'inspected', inspected: 'yes' }))).toBe(false);
    expect(isRelayHelloReply(env({ type: 'relay-hello-reply', attach: false, inspected: true }))).toBe(true);
    expect(isRelayHelloReply(env({ type: 'relay-hello-reply', attach: false }))).toBe(false);
  });

  it('validate hook records field by field (page data is untrusted)', () => {
    expect(isHookRecord(chunk)).toBe(true);
    expect(isHookRecord({ ...chunk, text: 5 })).toBe(false);
    expect(isHookRecord({ ...chunk, seq: 1 })).toBe(false); // the relay numbers, not the page
    expect(isHookRecord({ kind: 'navigation', t: 1, url: 'x', top: true })).toBe(false); // relay-only kind
    expect(isHookRecord({ kind: 'end', conn: 'c', t: 1, how: 'exploded' })).toBe(false);
    expect(isHookRecord({ kind: 'request', conn: 'c', t: 1, transport: 'fetch', method: 'GET', url: 'u', headers: [['a', 'b']], body: null })).toBe(true);
    expect(isHookRecord({ kind: 'request', conn: 'c', t: 1, transport: 'fetch', method: 'GET', url: 'u', headers: [['a']], body: null })).toBe(false);
    expect(isHookRecord({ kind: 'request', conn: 'c', t: 1, transport: 'carrier-pigeon', method: 'GET', url: 'u', headers: [], body: null })).toBe(false);
    expect(isHookRecord({ kind: 'chunk', t: 1, text: '', bytes: 0 })).toBe(false); // no conn
    expect(isHookRecord(null)).toBe(false);
  });

  it('check every record of a batch against the batch src', () => {
    const good = env({ type: 'records', src: 's', backfill: false, records: [{ ...chunk, seq: 1, src: 's' }] });
    expect(isRecordsBatch(good)).toBe(true);
    expect(isRecordsBatch({ ...good, records: [{ ...chunk, seq: 1, src: 'other' }] })).toBe(false);
    expect(isRecordsBatch({ ...good, records: [{ ...chunk, seq: 0, src: 's' }] })).toBe(false);
    expect(isCaptureRecord({ ...chunk, seq: 2, src: 's' })).toBe(true);
  });
});
