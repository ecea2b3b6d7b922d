// Hostile text put into every page-controlled field of a real capture: header values, the method
// and tool names in a request body, event types, data.

import type { CaptureRecord } from '../../../core/record';

export function poison(records: readonly CaptureRecord[], h: readonly string[]): CaptureRecord[] {
  let k = 0;
  const next = () => h[k++ % h.length]!;
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const sid = (hs: [string, string][]) => hs.map(([n, v]) => [n, n.toLowerCase() === 'mcp-session-id' ? `${v}${next()}` : v] as [string, string]);
  return records.map((r) => {
    switch (r.kind) {
      case 'request':
        return { ...r, headers: sid(r.headers), body: r.body?.replace('"tools/call"', JSON.stringify(`tools/call${next()}`)).replace('"long_task"', JSON.stringify(`long${next()}`)) ?? null };
      case 'response':
        return { ...r, headers: sid(r.headers) };
      case 'chunk':
        return {
          ...r,
          text: r.text
            .replace(/^event: message/m, `event: message${next().replace(/[\r\n]/g, '')}`)
            .replace(/^id: (\d+)$/m, (_m, n: string) => `id: ${n}${next().replace(/[\r\n]/g, '')}`)
            .replace(/\[main (\d+)/, (_m, n: string) => json(`[main ${n}${next()}`)),
        };
      default:
        return r;
    }
  });
}
