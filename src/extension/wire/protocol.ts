// The protocol map: every message that crosses a boundary of the capture pipeline, keyed by its
// `type`, and for each endpoint the messages it may receive (its inbox). One map for every
// channel, so a message is named and shaped once; `endpoint.ts` narrows `on(type, fn)` by it.
//
//   hook (MAIN)  ⇄ private MessagePort ⇄  relay (ISOLATED)  ⇄ runtime port / messages ⇄  background
//   background  ⇄ runtime port ⇄  panel          DevTools page → runtime port → background
//
// Direction of commands (issue 14, fault injection): panel → background
// (`PanelInbox`'s sender, the panel port) → the relays of the inspected tab (their relay port) →
// the hook (the private MessagePort). Each hop is a port only this extension's code holds: the
// background accepts panel ports only from its own pages (senders.ts), relay ports only from its
// content scripts, and the hook's port is handed to the relay before any page script runs. A page
// can therefore neither forge a command nor read one; the hook reads its port with natives
// captured at install. `mode` below is the first message on that path (relay → hook).
//
// Pure TypeScript: no chrome.*, no DOM.

import type { CaptureRecord, Header } from '../../core/record';
import type { FaultSpec } from '../../core/faults/spec';
import type { HookWireRecord, WireRecord } from './records';

export const PROTOCOL_VERSION = 2 as const;
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

interface Envelope<T extends string> {
  ch: typeof CHANNEL;
  v: typeof PROTOCOL_VERSION;
  type: T;
}

// ---------------------------------------------------------------------------------------------
// hook ⇄ relay (the private MessagePort; the hello travels once on `window`)

/**
 * The hook's synchronous channel (emitter.ts, ordered-inbox.ts): the hook dispatches, once, a
 * FocusEvent of type SYNC_HELLO on `window` whose relatedTarget is a private EventTarget (the
 * relay cancels it to say it listens there), then messages as MessageEvents of type SYNC_MESSAGE
 * on that target, `lastEventId` their `seq`. Every message the hook sends carries `seq`.
 */
export const SYNC_HELLO = 'mcp-stream-inspector-sync-hello';
export const SYNC_MESSAGE = 'mcp-stream-inspector-sync';

/** Posted once on `window` by the hook, carrying the MessagePort every later message uses. */
export interface HookHello extends Envelope<'hook-hello'> {}
/** hook → relay: records as the page's reads made them (untrusted: validated one by one). */
export interface HookBatch extends Envelope<'hook-batch'> {
  records: HookWireRecord[];
}
/**
 * relay → hook: copy the bytes of each read (`copy: true`), or only say that a read happened
 * (`copy: false`, while the relay does not record: DevTools closed and capture while closed off).
 */
export interface Mode extends Envelope<'mode'> {
  copy: boolean;
}
/**
 * relay → hook: a panel takes the relay's records (`on`), or no longer does. While one does, a
 * large read is sent as a Blob of the page's chunk (HookBlobChunk) instead of a copy: the relay
 * would put the copy in a Blob for the panel anyway.
 */
export interface Panel extends Envelope<'panel'> {
  on: boolean;
}
/** hook → relay, after the batch made in the previous mode: records from here on are in `copy` mode. */
export interface ModeAck extends Envelope<'mode-ack'> {
  copy: boolean;
}

/**
 * relay → hook: faults are armed in this tab (or not any more). The hook learns nothing else:
 * which faults, and what they will do, stay in the relay. While `on` is false the hook does
 * nothing extra per request or read.
 */
export interface FaultArm extends Envelope<'fault-arm'> {
  on: boolean;
}
/** hook → relay, faults armed: a response arrived; does a fault apply to it? */
export interface FaultQuery extends Envelope<'fault-query'> {
  conn: string;
  method: string;
  url: string;
  headers: Header[];
  body: string | null;
  status: number;
  contentType: string | null;
  /** An event stream already open when the faults were armed: faults apply from its next read. */
  live?: boolean;
}
/**
 * relay → hook: `pass` (no fault: the response goes to the page as it is), `stream` (every read of
 * its body goes through the relay, which says what the page gets: fault-read / fault-out), or
 * `replace` (the page gets this answer instead of the server's; the server's body is cancelled).
 */
export interface FaultPlan extends Envelope<'fault-plan'> {
  conn: string;
  plan: 'pass' | 'stream' | 'replace';
  status?: number;
  statusText?: string;
  contentType?: string;
  body?: string;
  /** replace: an empty event stream that stays open. */
  hold?: boolean;
  /** stream: a cut before any event (after 0 events). */
  end?: 'reset' | 'close';
}
/** hook → relay: one read of a faulted body as the server sent it (bytes), its end, or its error. */
export interface FaultRead extends Envelope<'fault-read'> {
  conn: string;
  data?: Uint8Array;
  done?: boolean;
  error?: string;
}
/** relay → hook: what the page gets of that read: parts (each after its delay), then maybe an end. */
export interface FaultOut extends Envelope<'fault-out'> {
  conn: string;
  parts: { data: Uint8Array; delayMs: number }[];
  /** reset: the page's next read rejects (TypeError "network error"); close: it ends; hold: it never ends. */
  end?: 'reset' | 'close' | 'hold';
}

// ---------------------------------------------------------------------------------------------
// relay ⇄ background (runtime messages, the relay port)

/** A fault the user armed in the panel: its spec (validated by the panel), a random id, its words. */
export interface ArmedFault {
  id: string;
  spec: FaultSpec;
  text: string;
}
/** background → relays of a tab (chrome.tabs.sendMessage, all frames): the faults armed now. */
export interface Faults extends Envelope<'faults'> {
  faults: ArmedFault[];
}

/** relay → background, chrome.runtime.sendMessage at start: "is a panel attached to my tab?" */
export interface RelayHello extends Envelope<'relay-hello'> {
  src: string;
}
export interface RelayHelloReply extends Envelope<'relay-hello-reply'> {
  attach: boolean;
  /** A DevTools window (or a panel) inspects the relay's tab: the relay records. */
  inspected: boolean;
  /** Faults armed for the tab by its panel (a document loaded while they are armed gets them). */
  faults?: ArmedFault[];
}
/** background → relays of a tab (chrome.tabs.sendMessage, all frames): inspected or not any more. */
export interface Inspected extends Envelope<'inspected'> {
  inspected: boolean;
}
/** background → relays of a tab (chrome.tabs.sendMessage, all frames): send from these cursors. */
export interface Attach extends Envelope<'attach'> {
  cursors: Cursors;
}
/** relay → background: the reply to an attach (a live relay of this extension instance exists). */
export interface AttachAck extends Envelope<'attach-ack'> {
  src: string;
}
/** background → relay port: no panel is listening any more; close the port. */
export interface Detach extends Envelope<'detach'> {}
/**
 * relay → background → panel: numbered records of one src, ascending seq. Fetch chunks are not
 * decoded yet (records.ts WireChunk): their bytes are inline, or in one of `blobs` (each chunk
 * naming its part and range), and the panel decodes them (decode.ts).
 */
export interface RecordsBatch extends Envelope<'records'> {
  src: string;
  /** Filled in by the background from the port's sender (not trusted from the relay). */
  frameId?: number;
  /** true when this batch answers an attach (backfill), false for live records. */
  backfill: boolean;
  records: WireRecord[];
  blobs?: Blob[];
}

// ---------------------------------------------------------------------------------------------
// DevTools page → background (DEVTOOLS_PORT)

/** Sent on every (re)connect by the DevTools page: chrome.devtools.inspectedWindow.tabId. */
export interface DevtoolsHello extends Envelope<'devtools-hello'> {
  tabId: number;
}

// ---------------------------------------------------------------------------------------------
// panel ⇄ background (PANEL_PORT)

export interface PanelHello extends Envelope<'panel-hello'> {
  tabId: number;
  cursors: Cursors;
}
/** panel → background: arm these faults in the panel's tab (replaces the list; [] disarms). */
export interface ArmFaults extends Envelope<'arm-faults'> {
  faults: ArmedFault[];
}
/**
 * background → panel, after each panel-hello: whether any frame of the tab answered the attach.
 * `relays: false` means no content script of this extension instance runs in the tab: the page
 * was loaded before the extension was installed or reloaded, or it is a page content scripts
 * cannot run in. `installedAt`/`installReason` tell which (from chrome.runtime.onInstalled).
 */
export interface TabStatus extends Envelope<'tab-status'> {
  relays: boolean;
  installedAt?: number;
  installReason?: string;
}

// ---------------------------------------------------------------------------------------------
// agent bridge page → background (chrome.runtime.sendMessage; issue 21)

/** An extension page asks which tabs a DevTools window or a panel inspects now. */
export interface InspectedTabs extends Envelope<'inspected-tabs'> {}
export interface InspectedTabsReply extends Envelope<'inspected-tabs-reply'> {
  tabs: number[];
}

/** Every message, by type. */
export interface Protocol {
  'hook-hello': HookHello;
  'hook-batch': HookBatch;
  mode: Mode;
  'mode-ack': ModeAck;
  'fault-arm': FaultArm;
  panel: Panel;
  'fault-query': FaultQuery;
  'fault-plan': FaultPlan;
  'fault-read': FaultRead;
  'fault-out': FaultOut;
  faults: Faults;
  'arm-faults': ArmFaults;
  'relay-hello': RelayHello;
  'relay-hello-reply': RelayHelloReply;
  inspected: Inspected;
  attach: Attach;
  'attach-ack': AttachAck;
  detach: Detach;
  records: RecordsBatch;
  'devtools-hello': DevtoolsHello;
  'panel-hello': PanelHello;
  'tab-status': TabStatus;
  'inspected-tabs': InspectedTabs;
  'inspected-tabs-reply': InspectedTabsReply;
}
export type MessageType = keyof Protocol;
export type Message = Protocol[MessageType];
/** A message without its envelope: what a sender writes. */
export type Body<M> = Omit<M, 'ch' | 'v' | 'type'>;

// What each endpoint may receive. An endpoint drops anything else (endpoint.ts).
export type HookInbox = Pick<Protocol, 'mode' | 'panel' | 'fault-arm' | 'fault-plan' | 'fault-out'>;
export type RelayFromHook = Pick<Protocol, 'hook-batch' | 'mode-ack' | 'fault-query' | 'fault-read'>;
export type RelayFromBackground = Pick<Protocol, 'detach'>;
export type RelayRuntimeInbox = Pick<Protocol, 'attach' | 'inspected' | 'faults'>;
export type BackgroundFromRelay = Pick<Protocol, 'records'>;
export type BackgroundRuntimeInbox = Pick<Protocol, 'relay-hello'>;
export type BackgroundFromPanel = Pick<Protocol, 'panel-hello' | 'arm-faults'>;
export type BackgroundFromDevtools = Pick<Protocol, 'devtools-hello'>;
export type PanelInbox = Pick<Protocol, 'records' | 'tab-status'>;

/** Wrap a body with the channel tag and version. */
export function envelope<K extends MessageType>(type: K, body: Body<Protocol[K]>): Protocol[K] {
  return { ch: CHANNEL, v: PROTOCOL_VERSION, type, ...body } as Protocol[K];
}

export type { CaptureRecord };
