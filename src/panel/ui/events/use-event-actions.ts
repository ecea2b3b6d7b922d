// The actions on an event, shared by the events table, the timeline and the event detail: copy its
// raw SSE text, its data as JSON, its id; copy the request of its stream as cURL, or a resume
// from this event (Last-Event-ID = the cursor after it) as cURL; show it in the other view.

import type { MenuItem } from '../common/ContextMenu';
import { useCopy } from '../common/copy';
import { visibleLine } from '../common/text';
import type { EventRef } from '../navigation/state';
import { useNavActions } from '../navigation/NavigationProvider';
import { useRequestActions } from '../requests/request-actions';
import { useViewModel } from '../store/StoreContext';
import { jsonText, rawText } from './event-copy';

export function useEventActions() {
  const vm = useViewModel();
  const act = useNavActions();
  const copy = useCopy();
  const { copyStream, copyResume } = useRequestActions();
  const at = (ref: EventRef) => {
    const s = vm.snap.streams[ref.streamId];
    return { s, e: s?.events.at(ref.index) };
  };
  const copyRaw = (ref: EventRef) => {
    const { e } = at(ref);
    if (e) copy(rawText(e), 'the raw SSE text');
  };
  const items = (ref: EventRef, where: 'events' | 'timeline'): MenuItem[] => {
    const { s, e } = at(ref);
    if (!s || !e) return [];
    const cursor = e.cursor;
    return [
      { label: 'Copy raw SSE', onSelect: () => copy(rawText(e), 'the raw SSE text'), testId: 'menu-copy-raw' },
      { label: 'Copy data as JSON', onSelect: () => copy(jsonText(e), 'the data as JSON'), testId: 'menu-copy-json' },
      ...(e.id !== undefined ? [{ label: 'Copy event id', onSelect: () => copy(e.id!, 'the event id') }] : []),
      'separator',
      { label: 'Copy stream request as cURL', onSelect: () => copyStream(s), testId: 'menu-copy-stream-curl' },
      ...(cursor !== undefined ? [{ label: `Copy resume after this event as cURL (Last-Event-ID: ${cursor.length > 24 ? `…${visibleLine(cursor.slice(-20))}` : visibleLine(cursor)})`, onSelect: () => copyResume(s, cursor), testId: 'menu-copy-resume-curl' }] : []),
      'separator',
      where === 'events' ? { label: 'Show in timeline', onSelect: () => act.showEventInTimeline(ref) } : { label: 'Show in events', onSelect: () => act.showEvent(ref) },
    ];
  };
  return { items, copyRaw };
}
