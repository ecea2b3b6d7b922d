// Polling instead of sleeping: wait until a condition holds, or fail with a useful message.

export async function waitFor<T>(
  fn: () => T | Promise<T>,
  opts: { timeoutMs?: number; intervalMs?: number; message?: string | (() => string) } = {},
): Promise<NonNullable<T>> {
  const timeout = opts.timeoutMs ?? 15_000;
  const interval = opts.intervalMs ?? 50;
  const deadline = Date.now() + timeout;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      lastErr = e;
    }
    if (Date.now() > deadline) {
      const m = typeof opts.message === 'function' ? opts.message() : opts.message;
      throw new Error(`waitFor timed out after ${timeout} ms${m ? `: ${m}` : ''}${lastErr ? ` (last error: ${String(lastErr)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
