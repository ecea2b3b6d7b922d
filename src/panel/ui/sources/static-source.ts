import type { CaptureRecord } from '../../../core/record';
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
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of [...listeners]) l();
  };
  return {
    subscribe(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getRecords: () => records,
    push(...r) {
      records = records.concat(r);
      emit();
    },
    clear() {
      records = [];
      emit();
    },
  };
}
