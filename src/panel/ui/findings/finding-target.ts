// Where a finding points: the event "Show in timeline" and "Show in events" open on.

import type { AnalysisSnapshot, Finding } from '../../../core/model';
import { terminalIndex } from '../common/labels';
import type { EventRef } from '../navigation/state';

/** Identity of a finding across snapshots (objects are rebuilt on every analysis). */
export function findingKey(f: Finding): string {
  return [f.code, f.sessionKey, f.streamId ?? '', f.requestId ?? '', f.eventIndex ?? '', f.eventIds.join(',')].join('\u0000');
}

/** The finding's own event; else the event carrying its request's terminal response; else its stream's last event. */
export function findingTarget(snap: AnalysisSnapshot, f: Finding): EventRef | undefined {
  const s = f.streamId ? snap.streams[f.streamId] : undefined;
  if (!s) return undefined;
  if (f.eventIndex !== undefined && f.eventIndex >= 0 && f.eventIndex < s.events.length) return { streamId: s.id, index: f.eventIndex };
  if (f.requestId !== undefined) {
    for (const sid of [s.id, ...(f.relatedStreamIds ?? [])]) {
      const st = snap.streams[sid];
      const i = st ? terminalIndex(st.events, f.requestId) : -1;
      if (st && i >= 0) return { streamId: st.id, index: i };
    }
  }
  return s.events.length ? { streamId: s.id, index: s.events.length - 1 } : undefined;
}

/** A finding's explanation with the streams it names by internal id named by their lane labels. */
export function findingMessage(vm: { session(key: string): { lanes: { name(text: string): string } } | undefined }, f: Finding): string {
  return vm.session(f.sessionKey)?.lanes.name(f.message) ?? f.message;
}
