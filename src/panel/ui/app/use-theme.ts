import { useEffect, useState } from 'react';

export type ThemeName = 'light' | 'dark' | 'default' | 'auto';

function usePrefersDark(): boolean {
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

/** 'default' and 'light' are DevTools' light theme; 'auto' (and none) follows prefers-color-scheme. */
export function useDark(theme: ThemeName | undefined): boolean {
  const prefersDark = usePrefersDark();
  return theme === 'dark' || ((theme === 'auto' || theme === undefined) && prefersDark);
}
