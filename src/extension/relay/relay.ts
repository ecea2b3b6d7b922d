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
  type AttachAck,
  isAttach,
  isDetach,
  isHookHello,
  isInspected,
  isRelayHelloReply,
  RELAY_PORT,
  type RecordsBatch,
  type RelayHello,
} from '../shared/messages';
import { recordMaxChars } from './limits';
import { createRelayCore } from './relay-core';
import { TEST_HOOKS } from '../shared/test-hooks';

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
    hookPort.onmessage = (m) => {
      // Checked per batch (one property read): an orphaned relay stops buffering at once, even
      // when no panel port was open to tell it.
      if (!orphaned()) core.onHookMessage(m.data);
    };
  },
  { capture: true },
);

// First record of every src: which document this is.
core.add({ kind: 'navigation', t: now(), url: location.href, top: window === window.top });

// Recording: records are kept while a DevTools window inspects this tab (the background says so
// in the hello reply and broadcasts changes; an attached panel counts) or while the setting
// `captureWhileClosed` is on. Until both answers are in, the relay records: a page loaded with
// DevTools already open must not start with a gap, and the few milliseconds it costs otherwise
// are kept like any other records. See docs/capture.md "Capture while DevTools is closed".
let inspected: boolean | undefined;
let whileClosed: boolean | undefined;
function updateRecording() {
  core.setRecording(!(inspected === false && whileClosed === false));
}
/** Counts what the background said since; a hello reply older than a broadcast is stale. */
let told = 0;
function setInspected(on: boolean) {
  told++;
  inspected = on;
  updateRecording();
}

// Limits from extension storage (set by the user or by tests), applied live when they change.
// See docs/capture.md "Limits".
const SETTINGS = ['bufferMaxRecords', 'bufferMaxBytes', 'recordMaxChars', 'captureWhileClosed'] as const;
function applySettings(v: Record<string, unknown>, initial = false) {
  if (initial || 'captureWhileClosed' in v) {
    whileClosed = v.captureWhileClosed === true;
    updateRecording();
  }
  const o: { maxRecords?: number; maxBytes?: number; recordMaxChars?: number } = {};
  const posInt = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x > 0;
  if (posInt(v.bufferMaxRecords)) o.maxRecords = v.bufferMaxRecords as number;
  if (posInt(v.bufferMaxBytes)) o.maxBytes = v.bufferMaxBytes as number;
  const chars = recordMaxChars(v.recordMaxChars);
  if (chars !== null) o.recordMaxChars = chars;
  core.setOptions(o);
}
try {
  chrome.storage.local.get([...SETTINGS]).then(
    (v) => applySettings(v, true),
    () => applySettings({}, true),
  );
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local') return;
    const v: Record<string, unknown> = {};
    for (const k of SETTINGS) if (changes[k]) v[k] = changes[k].newValue;
    applySettings(v);
  });
} catch {
  applySettings({}, true); // defaults
}

// The extension was reloaded or removed while this document stayed open: this relay belongs to
// the old instance (chrome.runtime.id is gone, every chrome.* call throws "Extension context
// invalidated") and can never deliver again. Stop taking records and free the buffer; the new
// instance's panel reports the loss (tab-status, docs/capture.md "Extension reload").
let released = false;
function orphaned(): boolean {
  if (released) return true;
  let gone = false;
  try {
    gone = !chrome.runtime?.id;
  } catch {
    gone = true;
  }
  if (gone) {
    released = true;
    core.release();
    if (hookPort) {
      hookPort.onmessage = null;
      hookPort.close();
    }
  }
  return gone;
}

// Diagnostics for tests and curious users: the relay's counters, readable only from this
// extension's isolated world (the page cannot see this global), never posted anywhere.
if (TEST_HOOKS) Object.defineProperty(globalThis, '__MSI_RELAY__', { value: Object.freeze({ stats: () => core.stats() }) });

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
      try {
        void chrome.runtime.lastError;
      } catch {
        /* context invalidated */
      }
      if (port === p) port = null;
      core.detach();
      orphaned();
    });
    return p;
  } catch {
    return null; // extension context invalidated (extension reloaded)
  }
}

function attach(cursors: Record<string, number>) {
  // A panel attached: the tab is inspected (the panel port counts as inspecting), so record
  // before backfilling, and the records made on starting reach the panel too.
  setInspected(true);
  const p = connect();
  if (!p) return;
  core.attach(
    {
      send(records: CaptureRecord[], backfill: boolean) {
        // This postMessage is most of the extension's time on the page's main thread with a panel
        // open (the ISOLATED world shares it): it serialises every chunk's text. The manifest's
        // `message_serialization: "structured_clone"` (Chrome 148+) makes that a structured clone
        // instead of JSON.stringify + UTF-8 conversion, about half the time per byte (measured:
        // 2.2-2.6 ms vs 3.4-8.4 ms for a 1.2 MB chunk, docs/capture.md). Older Chrome ignores the
        // key and uses JSON: records are plain data (strings, numbers, booleans, arrays, null; no
        // typed arrays), so both formats deliver the same records.
        const msg = envelope<RecordsBatch>({ type: 'records', src, backfill, records });
        try {
          p.postMessage(msg);
        } catch {
          core.detach(); // port closed under us; the panel re-attaches from its cursor
          orphaned();
        }
      },
    },
    cursors,
  );
}

chrome.runtime.onMessage.addListener((msg: unknown, _sender, sendResponse) => {
  if (isInspected(msg)) {
    if (!orphaned()) setInspected(msg.inspected);
    return false;
  }
  if (!isAttach(msg)) return false;
  attach(msg.cursors);
  // Tells the background that a relay of this extension instance lives in the tab.
  sendResponse(envelope<AttachAck>({ type: 'attach-ack', src }));
  return false;
});

function hello() {
  const asked = told;
  // An 'inspected' broadcast or an attach may overtake the reply (separate channels): the newer
  // word wins.
  const answer = (on: boolean) => {
    if (told === asked) setInspected(on);
  };
  try {
    chrome.runtime
      .sendMessage(envelope<RelayHello>({ type: 'relay-hello', src }))
      .then(
        (reply: unknown) => {
          if (!isRelayHelloReply(reply)) return answer(false);
          if (reply.attach) attach({});
          else answer(reply.inspected);
        },
        () => answer(false),
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
