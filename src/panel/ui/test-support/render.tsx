// Mounting the inspector UI in a test DOM (happy-dom) and driving it: clicks, keys, typing.
import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Mounted {
  container: HTMLElement;
  root: Root;
  unmount(): void;
}

export async function mount(el: ReactElement): Promise<Mounted> {
  const container = document.createElement('div');
  container.style.width = '1200px';
  container.style.height = '800px';
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => {
    root.render(el);
  });
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
  });
  return {
    container,
    root,
    unmount() {
      act(() => root.unmount());
      container.remove();
    },
  };
}

export async function click(el: Element | null | undefined) {
  if (!el) throw new Error('element not found');
  await act(async () => {
    (el as HTMLElement).click();
  });
}

export async function key(el: Element | null | undefined, k: string, init: KeyboardEventInit = {}) {
  if (!el) throw new Error('element not found');
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  });
}

/** Set a controlled input's value the way React notices. */
export async function type(el: HTMLInputElement | null, value: string) {
  if (!el) throw new Error('input not found');
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')!.set!;
    setter.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function tick(ms = 0) {
  await act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });
}

export const $ = (root: ParentNode, sel: string) => root.querySelector<HTMLElement>(sel);
export const $$ = (root: ParentNode, sel: string) => [...root.querySelectorAll<HTMLElement>(sel)];

/** Poll `check` (an assertion) until it passes, letting React and timers run between tries. */
export async function until(check: () => void, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() > end) throw e;
    }
    await tick(20);
  }
}
