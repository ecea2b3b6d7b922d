import type { CaptureRecord } from '../../../core/record';
import { createEmitter } from '../common/emitter';
import type { InspectorSource } from '../store/types';

/** A fixed list of records (an imported file, the standalone viewer, tests). */
export function createStaticSource(records: readonly CaptureRecord[], label?: string): InspectorSource {
  const frozen = records.slice();
  return {
    subscribe: () => () => {},
    getRecords: () => frozen,
    label: () => label,
    complete: true,
  };
}

/** A source whose records can be appended (tests, benchmarks). */
export function createMutableSource(initial: readonly CaptureRecord[] = []): InspectorSource & {
  push(...r: CaptureRecord[]): void;
  clear(): void;
} {
  let records: CaptureRecord[] = initial.slice();
  const changed = createEmitter();
  return {
    subscribe: changed.subscribe,
    getRecords: () => records,
    push(...r) {
      records = records.concat(r);
      changed.emit();
    },
    clear() {
      records = [];
      changed.emit();
    },
  };
}
