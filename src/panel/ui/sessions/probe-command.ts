// "Probe this server": the `mcp-stream-inspector probe` command line for a session's endpoint and
// the tool it saw called (preferring one that streamed notifications), to paste in a terminal.
// The panel sends nothing itself. Auth headers are left out on purpose: the user adds --header.

import type { AnalysisSnapshot, Session } from '../../../core/model';
import { shellQuote } from '../requests/curl';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

interface SeenTool {
  name: string;
  args?: unknown;
  notifications: number;
}

function toolsSeen(snap: AnalysisSnapshot, s: Session): SeenTool[] {
  const out: SeenTool[] = [];
  for (const r of snap.requests[s.key] ?? []) {
    if (r.method !== 'tools/call' || !r.params || typeof r.params !== 'object') continue;
    const p = r.params as { name?: unknown; arguments?: unknown };
    if (typeof p.name !== 'string' || !p.name) continue;
    out.push({ name: p.name, ...(p.arguments !== undefined ? { args: p.arguments } : {}), notifications: r.notificationCount ?? r.notifications.length });
  }
  return out;
}

export function probeCommandFor(snap: AnalysisSnapshot, s: Session): string | undefined {
  let url: URL;
  try {
    url = new URL(s.endpoint);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const parts = ['npx mcp-stream-inspector probe', shellQuote(url.href)];
  const seen = toolsSeen(snap, s);
  const tool = seen.find((t) => t.notifications > 0) ?? seen[0];
  if (tool) {
    parts.push('--tool', shellQuote(tool.name));
    if (tool.args !== undefined) parts.push('--args', shellQuote(JSON.stringify(tool.args)));
  }
  if (!LOOPBACK.test(url.hostname)) parts.push('--remote');
  return parts.join(' ');
}
