// Relay entry: ISOLATED world, document_start, all frames (self-contained IIFE, listed before the
// hook in the manifest so that its window listener exists when the hook's hello is dispatched).
// Wires chrome's adapters to the relay (relay-link.ts, relay-core.ts, control.ts).
//
// Threat model (docs/capture.md "Relay"): the page shares `window` with the hook and can post any
// message, patch any MAIN-world global after document_start and call fetch itself. The relay
//  - accepts exactly one hello, the first, which the hook posts at document_start before any page
//    script can run; it must come from this window and carry a MessagePort; its propagation is
//    stopped in the capture phase so page listeners never see the port;
//  - ignores every other window message; later hellos (forgeries) are reported once;
//  - takes, the same way, the first synchronous hello (a FocusEvent whose relatedTarget is the
//    hook's private EventTarget: emitter.ts) and reads the hook's messages dispatched on that
//    target, put back in the hook's order with the port's (wire/ordered-inbox.ts);
//  - validates every record from the port (relay-core.ts) and numbers it itself;
//  - sends into the page only `mode` and fault messages (fault-arm: on/off; the answers to the
//    hook's fault questions: what the page gets), on the private port; which faults are armed,
//    and what they withhold, never enter the page's world (relay/faults.ts).

import { TEST_HOOKS } from '../shared/test-hooks';
import { isMessage } from '../wire/guards';
import { messagePortAdapter } from '../wire/message-port';
import { MAX_HELD, orderedInbox, skippedText, type OrderedInbox } from '../wire/ordered-inbox';
import { CHANNEL, envelope, RELAY_PORT, SYNC_HELLO, SYNC_MESSAGE } from '../wire/protocol';
import { portAdapter } from '../wire/runtime-port';
import { createRelayControl, SETTINGS } from './control';
import { createRelayCore } from './relay-core';
import { createRelayLink } from './relay-link';

function randomId(): string {
  const a = new Uint8Array(9);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

const now = () => performance.timeOrigin + performance.now();
const core = createRelayCore(randomId(), { pace: { now: () => performance.now() } }, now);
// What waits for its turn (delivery.ts "Pacing") is sent before the document goes; the hook's own
// pagehide flush, after this listener, then goes through at once too.
window.addEventListener('pagehide', () => core.unpaced(true), { capture: true });
window.addEventListener('pageshow', (ev) => {
  if (ev.persisted) core.unpaced(false);
}, { capture: true });
const control = createRelayControl(core);
const link = createRelayLink(core, control, {
  connect: () => portAdapter(chrome.runtime.connect({ name: RELAY_PORT })),
  // The extension was reloaded or removed while this document stayed open: this relay belongs to
  // the old instance (chrome.runtime.id is gone, chrome.* throws "Extension context invalidated").
  orphaned: () => {
    try {
      return !chrome.runtime?.id;
    } catch {
      return true;
    }
  },
});

let forged = 0;
const forgery = () => {
  if (forged++ === 0)
    core.add({ kind: 'notice', t: now(), level: 'warning', code: 'forged-hook-hello', message: 'The page posted a message imitating the capture hook; it was ignored.' });
};

/** The hook's messages, from its port and its synchronous channel (set by the port's hello). */
let inbox: OrderedInbox | undefined;
/** Synchronous messages before the port's hello (the hook sends none then: kept in case). */
const early: [number, () => unknown][] = [];
let syncTarget: EventTarget | undefined;
/** Messages read from the synchronous channel (the test hook's stats). */
let syncMessages = 0;
window.addEventListener(
  SYNC_HELLO,
  (ev) => {
    ev.stopImmediatePropagation();
    const target = (ev as FocusEvent).relatedTarget;
    if (syncTarget || !target) return forgery();
    syncTarget = target;
    ev.preventDefault();
    target.addEventListener(SYNC_MESSAGE, (e) => {
      const m = e as MessageEvent;
      const id = m.lastEventId;
      const seq = /^\d{1,15}$/.test(id) ? Number(id) : -1;
      // Read now, in the dispatch: a message may hold the page's own chunk, which the page gets
      // after it (emitter.ts sendRead); this clone is the copy of its bytes.
      let data: unknown;
      let unreadable = false;
      try {
        data = m.data;
      } catch {
        unreadable = true;
      }
      const read = () => {
        if (unreadable) throw new Error('unreadable');
        return data;
      };
      syncMessages++;
      if (inbox) inbox.fromSync(seq, read);
      // (bounded: only a page in a frame the hook did not reach could send here before the port)
      else if (early.length < MAX_HELD) early.push([seq, read]);
    });
  },
  { capture: true },
);

window.addEventListener(
  'message',
  (ev: MessageEvent) => {
    if (ev.source !== window) return;
    const d = ev.data as { ch?: unknown; type?: unknown } | null;
    // Any hello on our channel, whatever its version: all but the hook's first are forgeries.
    if (typeof d !== 'object' || d === null || d.ch !== CHANNEL || d.type !== 'hook-hello') return;
    ev.stopImmediatePropagation();
    if (isMessage(d, 'hook-hello') && ev.ports.length === 1 && !inbox) {
      const ordered = orderedInbox(
        messagePortAdapter(ev.ports[0]!),
        (n, why) => core.hookLost(skippedText(n, why), why === 'gap'),
        () => core.hookLost(null, true),
      );
      if (link.hook(ordered)) {
        inbox = ordered;
        for (const [seq, read] of early.splice(0)) ordered.fromSync(seq, read);
        return;
      }
    }
    forgery();
  },
  { capture: true },
);

// First record of every src: which document this is.
core.add({ kind: 'navigation', t: now(), url: location.href, top: window === window.top });

// Limits and capture while closed from extension storage, applied live (docs/capture.md "Limits").
try {
  chrome.storage.local.get([...SETTINGS]).then(
    (v) => control.settings(v, true),
    () => control.settings({}, true),
  );
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local') return;
    const v: Record<string, unknown> = {};
    for (const k of SETTINGS) if (changes[k]) v[k] = changes[k].newValue;
    control.settings(v);
  });
} catch {
  control.settings({}, true); // defaults
}

// Diagnostics for tests and curious users: the relay's counters, readable only from this
// extension's isolated world (the page cannot see this global), never posted anywhere.
if (TEST_HOOKS) Object.defineProperty(globalThis, '__MSI_RELAY__', { value: Object.freeze({ stats: () => ({ ...core.stats(), syncMessages, forgedHellos: forged }), faults: () => link.faults.ids() }) });

chrome.runtime.onMessage.addListener((msg: unknown, _sender, sendResponse) => {
  const reply = link.onRuntimeMessage(msg);
  if (reply) sendResponse(reply);
  return false;
});

function hello() {
  const token = control.asking();
  try {
    chrome.runtime.sendMessage(envelope('relay-hello', { src: core.src })).then(
      (reply: unknown) => link.onHelloReply(token, reply),
      () => link.onHelloReply(token, undefined),
    );
  } catch {
    /* extension context invalidated */
  }
}
hello();
// Back/forward cache: the port was closed when the page was frozen; ask again when it returns.
// A new navigation record marks the restored page as the current one in the panel.
window.addEventListener('pageshow', (ev) => {
  if (!ev.persisted) return;
  core.add({ kind: 'navigation', t: now(), url: location.href, top: window === window.top });
  hello();
});
