// Small hooks and helpers of <InspectorApp>.

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { AnalysisSnapshot } from '../../core/model';
import { sortFindings } from '../../export/advice';
import type { InspectorSource, SourceStatus } from './store-types';

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

export function worstSessionKey(snap: AnalysisSnapshot): string | undefined {
  const f = sortFindings(snap.findings)[0];
  return f?.sessionKey ?? snap.sessions[0]?.key;
}

