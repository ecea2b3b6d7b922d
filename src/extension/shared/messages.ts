// Every message that crosses a boundary of the capture pipeline: one versioned discriminated union
// per boundary, each with an `isX(msg: unknown)` guard. Nothing that arrives from another context is
// trusted before its guard accepted it (window messages and hook data come from the page's world).
//
//   hook (MAIN) --MessagePort--> relay (ISOLATED) --runtime port--> background --port--> panel
//
// Pure TypeScript: no chrome.*, no DOM, unit-tested in Node.

import type { CaptureRecord, HookRecord } from '../../core/record';
import { isCaptureRecord, isHookRecord } from './record-guards';

export const PROTOCOL_VERSION = 1 as const;
/** Tag on every message so that foreign traffic on shared channels is ignored cheaply. */
export const CHANNEL = 'mcp-stream-inspector' as const;

/** Port names for chrome.runtime.connect. */
export const PANEL_PORT = 'msi-panel';
export const RELAY_PORT = 'msi-relay';
/**
 * The DevTools page (devtools.ts) of every DevTools window: connected while DevTools inspects a
 * tab, whether or not the user ever shows our panel, so relays record only while DevTools is open
 * (as the Network panel does) unless "capture while DevTools is closed" is on.
 */
export const DEVTOOLS_PORT = 'msi-devtools';

/** Per-src cursor: the highest seq the panel holds contiguously (0 = nothing). */
export type Cursors = Record<string, number>;

// ---------------------------------------------------------------------------------------------
// hook -> relay

/** Posted once on `window` by the hook, carrying the MessagePort all later batches use. */
export interface HookHello {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'hook-hello';
}
/**
 * A chunk of a fetch body as the hook sends it: a copy of the bytes the page read (its buffer
 * transferred, not cloned) instead of decoded text. The relay decodes it with one streaming
 * decoder per connection (relay-core.ts), so the page's thread never clones the text twice.
 * XHR chunks stay text records (`kind: 'chunk'` with `text`).
 */
export interface HookChunkBytes {
  kind: 'chunk';
  conn: string;
  t: number;
  data: Uint8Array;
}

/** Sent on the private MessagePort. */
export interface HookBatch {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'hook-batch';
  records: unknown[]; // validated one by one with isHookRecord (page-controlled data)
}

// ---------------------------------------------------------------------------------------------
// relay <-> background (runtime messages and the relay port)

/** relay -> background, chrome.runtime.sendMessage at start: "is a panel attached to my tab?" */
export interface RelayHello {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'relay-hello';
  src: string;
}
export interface RelayHelloReply {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'relay-hello-reply';
  attach: boolean;
  /** A DevTools window (or a panel) inspects the relay's tab: the relay records. */
  inspected: boolean;
}
/**
 * background -> relays of a tab (chrome.tabs.sendMessage, all frames): the tab became inspected
 * (a DevTools window opened on it) or is no longer inspected (the last one closed).
 */
export interface Inspected {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'inspected';
  inspected: boolean;
}
/** background -> relays of a tab (chrome.tabs.sendMessage, all frames): send from these cursors. */
export interface Attach {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'attach';
  cursors: Cursors;
}
/** relay -> background: the reply to an attach (a live relay of this extension instance exists). */
export interface AttachAck {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'attach-ack';
  src: string;
}
/** background -> relay port: no panel is listening any more; close the port. */
export interface Detach {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'detach';
}
/** relay -> background -> panel: numbered records of one src, ascending seq. */
export interface RecordsBatch {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'records';
  src: string;
  /** Filled in by the background from the port's sender (not trusted from the relay). */
  frameId?: number;
  /** true when this batch answers an attach (backfill), false for live records. */
  backfill: boolean;
  records: CaptureRecord[];
}

// ---------------------------------------------------------------------------------------------
// DevTools page -> background (DEVTOOLS_PORT)

/** Sent once per port by the DevTools page: chrome.devtools.inspectedWindow.tabId. */
export interface DevtoolsHello {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'devtools-hello';
  tabId: number;
}

// ---------------------------------------------------------------------------------------------
// panel <-> background

export interface PanelHello {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'panel-hello';
  tabId: number;
  cursors: Cursors;
}

/**
 * background -> panel, after each panel-hello: whether any frame of the tab answered the attach.
 * `relays: false` means no content script of this extension instance runs in the tab: the page
 * was loaded before the extension was installed or reloaded, or it is a page content scripts
 * cannot run in. `installedAt`/`installReason` tell which (from chrome.runtime.onInstalled).
 */
export interface TabStatus {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: 'tab-status';
  relays: boolean;
  installedAt?: number;
  installReason?: string;
}

export type RelayToBackground = RecordsBatch;
export type BackgroundToRelay = Attach | Detach | Inspected;
export type DevtoolsToBackground = DevtoolsHello;
export type PanelToBackground = PanelHello;
export type BackgroundToPanel = RecordsBatch | TabStatus;

type Envelope = { ch: typeof CHANNEL; v: typeof PROTOCOL_VERSION; type: string };
type Body<M extends Envelope> = Omit<M, 'ch' | 'v'>;

/** Wrap a message body with the channel tag and version. Give M to get the body type-checked. */
export function envelope<M extends Envelope = Envelope & Record<string, unknown>>(body: Body<M>): M {
  return { ch: CHANNEL, v: PROTOCOL_VERSION, ...body } as M;
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
function isEnvelope(x: unknown, type: string): x is Record<string, unknown> {
  return isObj(x) && x.ch === CHANNEL && x.v === PROTOCOL_VERSION && x.type === type;
}
export function isCursors(x: unknown): x is Cursors {
  if (!isObj(x)) return false;
  for (const v of Object.values(x)) if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return false;
  return true;
}

export function isHookHello(x: unknown): x is HookHello {
  return isEnvelope(x, 'hook-hello');
}
export function isHookBatch(x: unknown): x is HookBatch {
  return isEnvelope(x, 'hook-batch') && Array.isArray(x.records);
}
export function isRelayHello(x: unknown): x is RelayHello {
  return isEnvelope(x, 'relay-hello') && typeof x.src === 'string';
}
export function isRelayHelloReply(x: unknown): x is RelayHelloReply {
  return isEnvelope(x, 'relay-hello-reply') && typeof x.attach === 'boolean' && typeof x.inspected === 'boolean';
}
export function isInspected(x: unknown): x is Inspected {
  return isEnvelope(x, 'inspected') && typeof x.inspected === 'boolean';
}
export function isDevtoolsHello(x: unknown): x is DevtoolsHello {
  return isEnvelope(x, 'devtools-hello') && typeof x.tabId === 'number' && Number.isInteger(x.tabId) && x.tabId >= 0;
}
export function isAttach(x: unknown): x is Attach {
  return isEnvelope(x, 'attach') && isCursors(x.cursors);
}
export function isAttachAck(x: unknown): x is AttachAck {
  return isEnvelope(x, 'attach-ack') && typeof x.src === 'string';
}
export function isTabStatus(x: unknown): x is TabStatus {
  return (
    isEnvelope(x, 'tab-status') && typeof x.relays === 'boolean' &&
    (x.installedAt === undefined || (typeof x.installedAt === 'number' && Number.isFinite(x.installedAt))) &&
    (x.installReason === undefined || typeof x.installReason === 'string')
  );
}
export function isDetach(x: unknown): x is Detach {
  return isEnvelope(x, 'detach');
}
export function isPanelHello(x: unknown): x is PanelHello {
  return isEnvelope(x, 'panel-hello') && typeof x.tabId === 'number' && isCursors(x.cursors);
}
/** Full check of a batch: every record must be a CaptureRecord of the batch's src. */
export function isRecordsBatch(x: unknown): x is RecordsBatch {
  if (!isEnvelope(x, 'records') || typeof x.src !== 'string' || typeof x.backfill !== 'boolean') return false;
  if (x.frameId !== undefined && typeof x.frameId !== 'number') return false;
  if (!Array.isArray(x.records)) return false;
  for (const r of x.records) if (!isCaptureRecord(r) || r.src !== x.src) return false;
  return true;
}

export { isCaptureRecord, isHookRecord };
export type { HookRecord };
