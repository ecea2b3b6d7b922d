// Adapter from the capture engineer's live store (src/panel/live/store.ts: subscribe/getSnapshot,
// setPreserveLog, clear) to the UI's InspectorSource. Typed structurally so the UI does not
// depend on the live store's module.
//
// Record toggle: the capture itself keeps running (a connection captured only in part would be
// misanalysed as lossy); "not recording" freezes what the panel shows, and turning it back on
// catches up with everything captured meanwhile.

import type { CaptureRecord } from '../../../core/record';
import type { InspectorSource, SourceStatus } from '../store/types';

export interface LiveStoreLike {
  subscribe(listener: () => void): () => void;
  getSnapshot(): { readonly records: readonly CaptureRecord[]; readonly preserveLog: boolean };
  setPreserveLog(on: boolean): void;
  clear(): void;
}

export function createLiveSource(store: LiveStoreLike, opts: { label?: () => string | undefined } = {}): InspectorSource {
  let recording = true;
  let frozen: readonly CaptureRecord[] | undefined;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  let unsub: (() => void) | undefined;
  const status = (): SourceStatus => ({ recording, preserveLog: store.getSnapshot().preserveLog });
  return {
    subscribe(cb) {
      listeners.add(cb);
      if (!unsub) unsub = store.subscribe(emit);
      return () => {
        listeners.delete(cb);
        if (!listeners.size && unsub) {
          unsub();
          unsub = undefined;
        }
      };
    },
    getRecords: () => frozen ?? store.getSnapshot().records,
    label: () => opts.label?.(),
    controls: {
      getStatus: status,
      setRecording(on) {
        recording = on;
        frozen = on ? undefined : store.getSnapshot().records.slice(); // the live array grows in place
        emit();
      },
      setPreserveLog(on) {
        store.setPreserveLog(on);
      },
      clear() {
        store.clear();
        if (frozen) frozen = store.getSnapshot().records.slice();
        emit();
      },
    },
  };
}
