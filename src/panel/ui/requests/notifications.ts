// Notifications of a request, in one line each, and where the lost ids fall between them.

/** One line for a notification: progress as "progress 3/8 message", messages by their data. */
export function notificationSummary(data: string): string {
  try {
    const m = JSON.parse(data) as { method?: string; params?: Record<string, unknown> };
    const p = m.params ?? {};
    if (m.method === 'notifications/progress') return `progress ${String(p.progress)}${p.total !== undefined ? `/${String(p.total)}` : ''}${typeof p.message === 'string' ? ` ${p.message}` : ''}`;
    if (m.method === 'notifications/message') return `message [${String(p.level ?? '')}] ${typeof p.data === 'string' ? p.data : JSON.stringify(p.data)}`;
    return `${m.method ?? '?'} ${JSON.stringify(p)}`;
  } catch {
    return data;
  }
}

/** The part of a missing-ids text ("12–13, 20") that lies between two delivered ids, if any. */
export function missingBetween(missing: string, before: string | undefined, after: string | undefined): string | undefined {
  const num = (id: string | undefined) => {
    const m = id === undefined ? null : /(\d+)$/.exec(id);
    return m ? Number(m[1]) : undefined;
  };
  const a = num(before);
  const b = num(after);
  if (a === undefined || b === undefined || b - a < 2) return undefined;
  const hit = missing
    .split(/[,;]\s*/)
    .map((part) => part.trim())
    .filter((part) => {
      const m = /^(.*?)(\d+)(?:\s*[–—-]\s*(.*?)(\d+))?$/.exec(part);
      if (!m) return false;
      const lo = Number(m[2]);
      const hi = m[4] !== undefined ? Number(m[4]) : lo;
      return lo > a && hi < b;
    });
  return hit.length ? hit.join(', ') : undefined;
}
