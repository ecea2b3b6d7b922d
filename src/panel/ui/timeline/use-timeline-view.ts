// The timeline's zoom and pan: the whole session until the user zooms or pans; a focus request
// (reducer state with a sequence number: "Show in timeline", a finding selected elsewhere) centres
// it once and is then marked done, so a later visit to the tab does not apply it again; the user's
// view is kept in the navigation state (relative to the session's start) and restored after a
// reload, or on the same page's next capture.

import { useEffect, useRef, useState } from 'react';
import { resolveSessionRef, sessionRefOf } from '../navigation/resolve';
import { useNav, useNavDispatch } from '../navigation/NavigationProvider';
import type { SessionView, ViewModel } from '../store/view-model';
import type { View } from './timeline-geom';

export interface TimelineViewState {
  view: View;
  /** Set a view chosen by the user (zoom, pan): kept across reloads. */
  set(v: View | ((v: View) => View)): void;
  /** Back to the whole session. */
  reset(): void;
}

export function useTimelineView(vm: ViewModel, sv: SessionView | undefined, onFocus: (takeFocus: boolean) => void): TimelineViewState {
  const nav = useNav();
  const dispatch = useNavDispatch();
  const key = sv?.session.key;
  const range = sv?.lanes.range ?? { start: 0, end: 1000 };
  const t0 = sv?.lanes.t0 ?? 0;
  const stored = () => {
    const tv = nav.timeline;
    return tv && key !== undefined && resolveSessionRef(vm, tv.session) === key ? { start: t0 + tv.from, end: t0 + tv.to } : undefined;
  };
  const [user, setUser] = useState<{ key: string | undefined; view: View } | undefined>(() => {
    const v = stored();
    return v ? { key, view: v } : undefined;
  });
  const view = user && user.key === key ? user.view : range;
  // A view restored from before a reload waits for its session's records.
  useEffect(() => {
    if (key === undefined || user?.key === key) return;
    const v = stored();
    if (v) setUser({ key, view: v });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // The user's view, kept in the navigation state a moment after the last wheel or drag (and at
  // once when the timeline goes away). A view set by a focus request is not the user's: it is not
  // kept, so the next visit shows the whole session again.
  const pending = useRef<(() => void) | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const flush = () => {
    clearTimeout(timer.current);
    const p = pending.current;
    pending.current = undefined;
    p?.();
  };
  useEffect(() => flush, []);
  const commit = (v: View | undefined) => {
    clearTimeout(timer.current);
    pending.current = () => {
      const session = key === undefined ? undefined : sessionRefOf(vm, key);
      dispatch({ type: 'set-timeline-view', view: v && session ? { session, from: v.start - t0, to: v.end - t0 } : undefined });
    };
    timer.current = setTimeout(flush, 250);
  };
  const set = (next: View | ((v: View) => View), keep = true) => {
    const v = typeof next === 'function' ? next(view) : next;
    setUser({ key, view: v });
    if (keep) commit(v);
  };

  // A focus request: centred once, then done (the reducer drops it).
  const focus = nav.focus;
  useEffect(() => {
    if (!focus || !sv) return;
    let t: number | undefined;
    if (focus.streamId) {
      const s = vm.snap.streams[focus.streamId];
      t = s ? ((focus.index !== undefined ? s.events.at(focus.index)?.t : undefined) ?? s.start) : undefined;
    }
    if (t !== undefined) {
      const cur = view.end - view.start;
      const sp = Math.min(cur, Math.max(200, (range.end - range.start) / 1.2));
      set({ start: t - sp / 2, end: t + sp / 2 }, false);
    }
    onFocus(focus.takeFocus);
    dispatch({ type: 'focus-done', seq: focus.seq });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus?.seq, !!sv]);

  return {
    view,
    set,
    reset() {
      setUser(undefined);
      commit(undefined);
    },
  };
}
