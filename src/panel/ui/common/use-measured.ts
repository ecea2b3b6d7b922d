import { useLayoutEffect } from 'react';

/** Call `measure(el)` now and whenever the element resizes (ResizeObserver, where there is one). */
export function useMeasured(get: () => HTMLElement | null | undefined, measure: (el: HTMLElement) => void, deps: unknown[]) {
  useLayoutEffect(() => {
    const el = get();
    if (!el) return;
    const run = () => measure(el);
    run();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(run);
    ro.observe(el);
    return () => ro.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
