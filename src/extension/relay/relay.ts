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
//  - validates every record from the port (relay-core.ts) and numbers it itself;
//  - sends into the page only `mode` messages, on the private port.

import { TEST_HOOKS } from '../shared/test-hooks';
import { isMessage } from '../wire/guards';
import { messagePortAdapter } from '../wire/message-port';
import { CHANNEL, envelope, RELAY_PORT } from '../wire/protocol';
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
const core = createRelayCore(randomId(), {}, now);
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
window.addEventListener(
  'message',
  (ev: MessageEvent) => {
    if (ev.source !== window) return;
    const d = ev.data as { ch?: unknown; type?: unknown } | null;
    // Any hello on our channel, whatever its version: all but the hook's first are forgeries.
    if (typeof d !== 'object' || d === null || d.ch !== CHANNEL || d.type !== 'hook-hello') return;
    ev.stopImmediatePropagation();
    if (isMessage(d, 'hook-hello') && ev.ports.length === 1 && link.hook(messagePortAdapter(ev.ports[0]!))) return;
    if (forged++ === 0)
      core.add({ kind: 'notice', t: now(), level: 'warning', code: 'forged-hook-hello', message: 'The page posted a message imitating the capture hook; it was ignored.' });
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
if (TEST_HOOKS) Object.defineProperty(globalThis, '__MSI_RELAY__', { value: Object.freeze({ stats: () => core.stats() }) });

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
