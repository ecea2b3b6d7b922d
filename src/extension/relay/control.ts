// When the relay records, and with which limits: the relay's side of "Capture while DevTools is
// closed" (docs/capture.md) and of the settings in chrome.storage.local. Pure; relay.ts feeds it
// the background's answers and the storage values.
//
// Records are kept while a DevTools window inspects this tab (the background says so in the hello
// reply and broadcasts changes; an attached panel counts) or while the setting `captureWhileClosed`
// is on. Until both answers are in, the relay records: a page loaded with DevTools already open
// must not start with a gap, and the few milliseconds it costs otherwise are kept like any other
// records.

import { recordMaxChars } from './limits';
import type { RelayCore } from './relay-core';

export const SETTINGS = ['bufferMaxRecords', 'bufferMaxBytes', 'recordMaxChars', 'captureWhileClosed'] as const;

export interface RelayControl {
  /** Storage values (all of them at start, the changed ones later). */
  settings(v: Record<string, unknown>, initial?: boolean): void;
  /** The background said (broadcast or attach) whether the tab is inspected. */
  inspected(on: boolean): void;
  /** A hello is about to be sent: the token to answer it with. */
  asking(): number;
  /** The hello's answer; ignored when a newer word (broadcast, attach) overtook it. */
  answer(token: number, inspected: boolean): void;
}

export function createRelayControl(core: Pick<RelayCore, 'setRecording' | 'setOptions'>): RelayControl {
  let inspected: boolean | undefined;
  let whileClosed: boolean | undefined;
  /** Counts what the background said; a hello reply older than a broadcast is stale. */
  let told = 0;
  const update = () => core.setRecording(!(inspected === false && whileClosed === false));
  const setInspected = (on: boolean) => {
    told++;
    inspected = on;
    update();
  };
  return {
    settings(v, initial = false) {
      if (initial || 'captureWhileClosed' in v) {
        whileClosed = v.captureWhileClosed === true;
        update();
      }
      const o: { maxRecords?: number; maxBytes?: number; recordMaxChars?: number } = {};
      const posInt = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x > 0;
      if (posInt(v.bufferMaxRecords)) o.maxRecords = v.bufferMaxRecords as number;
      if (posInt(v.bufferMaxBytes)) o.maxBytes = v.bufferMaxBytes as number;
      const chars = recordMaxChars(v.recordMaxChars);
      if (chars !== null) o.recordMaxChars = chars;
      core.setOptions(o);
    },
    inspected: setInspected,
    asking: () => told,
    answer(token, on) {
      if (told === token) setInspected(on);
    },
  };
}
