// Capture health at a glance (issue 9): is the panel recording, and if not why, and does the
// network witness disagree with the capture. Built from the panel's connection (port and the
// background's tab-status) and the witness; read by the toolbar and the witness banner
// (src/panel/ui/capture/NetworkWitness.tsx).

import type { CaptureHealthSnapshot, CaptureHealthSource } from '../ui/capture/network-witness-types';
import type { PanelConnection } from './connection';
import type { Witness } from './witness';

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

export interface CaptureHealthOptions {
  /**
   * Least ms between two notifications for witness changes. The witness changes twice per MCP
   * request (seen, judged) and its counts are in the indicator's tooltip: re-rendering the toolbar
   * per request cost a page's 1,000 POSTs ~0.5 ms each in the panel (issue 22). Connection and
   * status changes notify at once. Default 250.
   */
  witnessIntervalMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  now?: () => number;
}

export function createCaptureHealth(
  connection: Pick<PanelConnection, 'connected' | 'connects' | 'status' | 'subscribe'>,
  witness: Pick<Witness, 'snapshot' | 'subscribe'>,
  opts: CaptureHealthOptions = {},
): CaptureHealthSource {
  const listeners = new Set<() => void>();
  const interval = opts.witnessIntervalMs ?? 250;
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const now = opts.now ?? (() => Date.now());
  // Computed when read: getSnapshot() is always current, whether or not listeners were told yet.
  let snap: CaptureHealthSnapshot | undefined;
  let pending = false;
  let lastNotify = -Infinity;
  const notify = () => {
    pending = false;
    lastNotify = now();
    for (const l of [...listeners]) l();
  };
  connection.subscribe(() => {
    snap = undefined;
    notify();
  });
  witness.subscribe(() => {
    snap = undefined;
    if (pending) return;
    const wait = lastNotify + interval - now();
    if (wait <= 0) return notify();
    pending = true;
    setTimer(() => {
      if (pending) notify();
    }, wait);
  });

  function compute(): CaptureHealthSnapshot {
    const w = witness.snapshot();
    const st = connection.status();
    const base = { seen: w.seen, captured: w.captured, checking: w.checking, unseen: w.missing };
    const missed = w.missing.length;
    const missedText = missed ? ` The network saw ${plural(missed, 'MCP request')} the capture does not hold.` : '';
    if (connection.connects() === 0 || !connection.connected() || st === null) {
      return {
        ...base,
        state: 'connecting',
        label: 'Connecting…',
        detail: `Connecting to the extension's background (Chrome stops its service worker when idle; the panel reconnects and the page's capture catches up, nothing is lost).${missedText}`,
      };
    }
    if (!st.relays) {
      const when = st.installedAt !== undefined ? ` at ${new Date(st.installedAt).toISOString().slice(11, 19)} UTC` : '';
      return {
        ...base,
        state: 'not-recording',
        label: 'Not recording',
        detail:
          `No capture script of this extension answered in this tab: the extension was ${st.installReason === 'update' ? 'reloaded or updated' : 'installed'}${when}, after the page loaded (reload the page), ` +
          `or the page is one Chrome keeps extensions out of (chrome://, the Web Store, other extensions' pages).${missedText}`,
      };
    }
    if (missed) {
      return {
        ...base,
        state: 'blind',
        label: `${missed} not captured`,
        detail: `Recording, but the network saw ${plural(missed, 'MCP request')} the capture does not hold (${[...new Set(w.missing.map((m) => m.reasonText.split(':')[0]))].join('; ')}).`,
      };
    }
    return {
      ...base,
      state: 'recording',
      label: 'Recording',
      detail: `Recording every event stream and MCP request this tab's pages read (fetch, EventSource, XHR) in every frame.${w.seen ? ` The network view agrees: ${plural(w.captured, 'MCP request')} seen there, all captured.` : ''}`,
    };
  }

  return {
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    getSnapshot: () => (snap ??= compute()),
  };
}
