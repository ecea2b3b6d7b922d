// Adapter from the capture engineer's live store (src/panel/live/store.ts: subscribe/getSnapshot,
// setPreserveLog, clear) to the UI's InspectorSource. Typed structurally so the UI does not
// depend on the live store's module.
//
// Record toggle: the capture itself keeps running (a connection captured only in part would be
// misanalysed as lossy); "not recording" freezes what the panel shows, and turning it back on
// catches up with everything captured meanwhile.

import type { CaptureRecord } from '../../../core/record';
import { createEmitter } from '../common/emitter';
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
  let unsub: (() => void) | undefined;
  const changed = createEmitter({
    first: () => (unsub = store.subscribe(() => changed.emit())),
    last: () => {
      unsub?.();
      unsub = undefined;
    },
  });
  const status = (): SourceStatus => ({ recording, preserveLog: store.getSnapshot().preserveLog });
  return {
    subscribe: changed.subscribe,
    getRecords: () => frozen ?? store.getSnapshot().records,
    label: () => opts.label?.(),
    controls: {
      getStatus: status,
      setRecording(on) {
        recording = on;
        frozen = on ? undefined : store.getSnapshot().records.slice(); // the live array grows in place
        changed.emit();
      },
      setPreserveLog(on) {
        store.setPreserveLog(on);
      },
      clear() {
        store.clear();
        if (frozen) frozen = store.getSnapshot().records.slice();
        changed.emit();
      },
    },
  };
}
