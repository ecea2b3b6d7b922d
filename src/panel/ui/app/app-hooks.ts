// Small hooks and helpers of <InspectorApp>.

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { AnalysisSnapshot, Finding } from '../../../core/model';
import { sortFindings } from '../../../export/advice';
import type { InspectorSource, SourceStatus } from '../store/types';

export function usePrefersDark(): boolean {
  const [dark, setDark] = useState(() => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const q = matchMedia('(prefers-color-scheme: dark)');
    const on = () => setDark(q.matches);
    q.addEventListener?.('change', on);
    return () => q.removeEventListener?.('change', on);
  }, []);
  return dark;
}

export function useStatus(source: InspectorSource): SourceStatus | undefined {
  const cache = useRef<SourceStatus | undefined>(undefined);
  const get = useCallback(() => {
    const s = source.controls?.getStatus();
    const c = cache.current;
    if (!s) return (cache.current = undefined);
    if (c && c.recording === s.recording && c.preserveLog === s.preserveLog) return c;
    return (cache.current = { recording: s.recording, preserveLog: s.preserveLog });
  }, [source]);
  return useSyncExternalStore(source.subscribe, get, get);
}

/**
 * The session of the worst finding, among the listed sessions (a finding the analyzer could not
 * tie to a session, e.g. records the panel store lost, must not select a session that is not there).
 * `sorted`: the findings already sorted worst first (App's index), else sorted here.
 */
export function worstSessionKey(snap: AnalysisSnapshot, sorted?: readonly Finding[]): string | undefined {
  const keys = new Set(snap.sessions.map((s) => s.key));
  for (const f of sorted ?? sortFindings(snap.findings)) if (keys.has(f.sessionKey)) return f.sessionKey;
  return snap.sessions[0]?.key;
}

