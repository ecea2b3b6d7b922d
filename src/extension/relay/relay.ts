// Relay entry: ISOLATED world, document_start, all frames (self-contained IIFE, listed before the
// hook in the manifest so that its window listener exists when the hook's hello is dispatched).
//
// Threat model: the page shares `window` with the hook and can post any message, patch any
// MAIN-world global after document_start and call fetch itself. The relay therefore
//  - accepts exactly one hello, the first, which the hook posts at document_start before any page
//    script can run; it must come from this window and carry a MessagePort; its propagation is
//    stopped in the capture phase so page listeners never see the port;
//  - ignores every other window message; later hellos (forgeries) are counted and reported;
//  - validates every record from the port by shape (isHookRecord) and numbers it itself;
//  - never sends anything back into the page.
// What it cannot prevent: a page producing genuine traffic, or a frame whose hook never ran (the
// panel then falls back to chrome.devtools.network for finished requests).

import type { CaptureRecord } from '../../core/record';
import {
  envelope,
  isAttach,
  isDetach,
  isHookHello,
  isRelayHelloReply,
  RELAY_PORT,
  type RecordsBatch,
  type RelayHello,
} from '../shared/messages';
import { createRelayCore } from './relay-core';

function randomId(): string {
  const a = new Uint8Array(9);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

const now = () => performance.timeOrigin + performance.now();
const src = randomId();
const core = createRelayCore(src, {}, now);
let hookPort: MessagePort | null = null;
let forged = 0;

window.addEventListener(
  'message',
  (ev: MessageEvent) => {
    if (ev.source !== window || !isHookHello(ev.data)) return;
    ev.stopImmediatePropagation();
    if (hookPort || ev.ports.length !== 1) {
      if (forged++ === 0)
        core.add({ kind: 'notice', t: now(), level: 'warning', code: 'forged-hook-hello', message: 'The page posted a message imitating the capture hook; it was ignored.' });
      return;
    }
    hookPort = ev.ports[0]!;
    hookPort.onmessage = (m) => core.onHookMessage(m.data);
  },
  { capture: true },
);

// First record of every src: which document this is.
core.add({ kind: 'navigation', t: now(), url: location.href, top: window === window.top });

// Optional buffer caps from extension storage (set by the user or by tests).
try {
  chrome.storage?.local.get(['bufferMaxRecords', 'bufferMaxBytes']).then((v) => {
    const o: { maxRecords?: number; maxBytes?: number } = {};
    if (typeof v.bufferMaxRecords === 'number' && v.bufferMaxRecords > 0) o.maxRecords = v.bufferMaxRecords;
    if (typeof v.bufferMaxBytes === 'number' && v.bufferMaxBytes > 0) o.maxBytes = v.bufferMaxBytes;
    core.buffer.setOptions(o);
  }, () => {});
} catch {
  /* defaults */
}

let port: chrome.runtime.Port | null = null;

function connect(): chrome.runtime.Port | null {
  if (port) return port;
  try {
    const p = chrome.runtime.connect({ name: RELAY_PORT });
    port = p;
    p.onMessage.addListener((msg: unknown) => {
      if (isDetach(msg)) {
        core.detach();
        p.disconnect();
        if (port === p) port = null;
      }
    });
    p.onDisconnect.addListener(() => {
      void chrome.runtime.lastError;
      if (port === p) port = null;
      core.detach();
    });
    return p;
  } catch {
    return null; // extension context invalidated (extension reloaded)
  }
}

function attach(cursors: Record<string, number>) {
  const p = connect();
  if (!p) return;
  core.attach(
    {
      send(records: CaptureRecord[], backfill: boolean) {
        const msg = envelope<RecordsBatch>({ type: 'records', src, backfill, records });
        try {
          p.postMessage(msg);
        } catch {
          core.detach(); // port closed under us; the panel re-attaches from its cursor
        }
      },
    },
    cursors,
  );
}

chrome.runtime.onMessage.addListener((msg: unknown) => {
  if (isAttach(msg)) attach(msg.cursors);
  return false;
});

function hello() {
  try {
    chrome.runtime
      .sendMessage(envelope<RelayHello>({ type: 'relay-hello', src }))
      .then((reply: unknown) => {
        if (isRelayHelloReply(reply) && reply.attach) attach({});
      }, () => {});
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
