// One guard per message type of the protocol map, applied once, by the endpoint that receives the
// message (endpoint.ts). A guard checks the envelope and the message's own fields; records inside
// a batch are checked where they enter the extension: hook records by the relay (records.ts
// isHookWireRecord, record by record), never again downstream. The relay → background → panel
// hops carry what the relay numbered; the background knows its senders (senders.ts) and checks the
// batch's envelope only.

import { CHANNEL, PROTOCOL_VERSION, type Cursors, type MessageType, type Protocol } from './protocol';

type O = Record<string, unknown>;

function isObj(x: unknown): x is O {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
/** Tagged with our channel and version, with a string type. */
export function isEnvelope(x: unknown): x is O & { type: string } {
  return isObj(x) && x.ch === CHANNEL && x.v === PROTOCOL_VERSION && typeof x.type === 'string';
}
export function isCursors(x: unknown): x is Cursors {
  if (!isObj(x)) return false;
  for (const v of Object.values(x)) if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return false;
  return true;
}
const bool = (x: unknown) => typeof x === 'boolean';
const str = (x: unknown) => typeof x === 'string';
const optStr = (x: unknown) => x === undefined || typeof x === 'string';
const int = (x: unknown) => typeof x === 'number' && Number.isInteger(x);
/**
 * An armed fault's envelope: id, words, a spec with an action kind. The spec itself was validated
 * by the panel that made it (core/faults/spec.ts validateFaults) and only extension pages reach
 * the background's panel port; the relay's matching reads only the fields it knows.
 */
function isArmedFault(x: unknown): boolean {
  if (!isObj(x) || !str(x.id) || !str(x.text) || !isObj(x.spec)) return false;
  const a = x.spec.action;
  return isObj(a) && str(a.kind) && (x.spec.match === undefined || isObj(x.spec.match));
}
const armedList = (x: unknown) => Array.isArray(x) && x.length <= 100 && x.every(isArmedFault);
const isHeaders = (x: unknown) => Array.isArray(x) && x.every((h) => Array.isArray(h) && h.length === 2 && str(h[0]) && str(h[1]));
const tabId = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/** The fields of each message beyond its envelope. */
export const GUARDS: { [K in MessageType]: (m: O) => boolean } = {
  'hook-hello': () => true,
  'hook-batch': (m) => Array.isArray(m.records),
  mode: (m) => bool(m.copy),
  'mode-ack': (m) => bool(m.copy),
  'fault-arm': (m) => bool(m.on),
  panel: (m) => bool(m.on),
  'fault-query': (m) => str(m.conn) && str(m.method) && str(m.url) && isHeaders(m.headers) && (m.body === null || str(m.body)) && int(m.status) && (m.contentType === null || str(m.contentType)) && (m.live === undefined || bool(m.live)),
  'fault-plan': (m) => str(m.conn) && (m.plan === 'pass' || m.plan === 'stream' || m.plan === 'replace'),
  'fault-read': (m) => str(m.conn) && (m.data === undefined || m.data instanceof Uint8Array) && (m.done === undefined || bool(m.done)) && optStr(m.error),
  'fault-out': (m) => str(m.conn) && Array.isArray(m.parts),
  faults: (m) => armedList(m.faults),
  'arm-faults': (m) => armedList(m.faults),
  'relay-hello': (m) => typeof m.src === 'string',
  'relay-hello-reply': (m) => bool(m.attach) && bool(m.inspected) && (m.faults === undefined || armedList(m.faults)),
  inspected: (m) => bool(m.inspected),
  attach: (m) => isCursors(m.cursors),
  'attach-ack': (m) => typeof m.src === 'string',
  detach: () => true,
  records: (m) =>
    typeof m.src === 'string' && bool(m.backfill) && Array.isArray(m.records) &&
    (m.frameId === undefined || typeof m.frameId === 'number') &&
    (m.blobs === undefined || (Array.isArray(m.blobs) && m.blobs.every((b) => b instanceof Blob))),
  'devtools-hello': (m) => tabId(m.tabId),
  'panel-hello': (m) => tabId(m.tabId) && isCursors(m.cursors),
  'tab-status': (m) =>
    bool(m.relays) &&
    (m.installedAt === undefined || (typeof m.installedAt === 'number' && Number.isFinite(m.installedAt))) &&
    (m.installReason === undefined || typeof m.installReason === 'string'),
  'inspected-tabs': () => true,
  'inspected-tabs-reply': (m) => Array.isArray(m.tabs) && m.tabs.every(tabId),
};

/** `x` is a well-formed message of type `type`. */
export function isMessage<K extends MessageType>(x: unknown, type: K): x is Protocol[K] {
  return isEnvelope(x) && x.type === type && GUARDS[type](x);
}
