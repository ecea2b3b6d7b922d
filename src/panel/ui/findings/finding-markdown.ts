// A finding as Markdown, to paste into a bug: the same escaping as the Markdown report
// (src/export/escape.ts) for every piece of page or server data; only the product's own
// vocabulary (codes, severities) goes in code spans.

import type { AnalysisSnapshot, Finding } from '../../../core/model';
import { mdText } from '../../../export/escape';
import { toolName } from '../common/labels';
import { SEV_ICON } from '../common/severity';

const code = (c: string) => `\`${c.replace(/`/g, '')}\``;

export function findingMarkdown(snap: AnalysisSnapshot, f: Finding, laneLabel: (streamId: string) => string, message = f.message): string {
  const out = [`**${SEV_ICON[f.severity]} ${code(f.code)}** (${f.severity})${f.pending ? ' — pending: may still change while streams are open' : ''}`, '', mdText(message, 4000), ''];
  const session = snap.sessions.find((s) => s.key === f.sessionKey);
  out.push(`- Session: ${mdText(f.sessionId ?? `(no session) ${session?.endpoint ?? f.sessionKey}`, 300)}`);
  if (session) out.push(`- Endpoint: ${mdText(session.endpoint, 300)}`);
  if (f.requestId !== undefined) {
    const r = snap.requests[f.sessionKey]?.find((x) => x.id === f.requestId);
    out.push(`- Request: ${mdText(f.requestId, 80)}${r ? ` (${mdText(r.method + toolName(r.params), 160)}, verdict ${code(r.verdict)})` : ''}`);
  }
  if (f.streamId) {
    const rel = (f.relatedStreamIds ?? []).map((id) => mdText(laneLabel(id), 160));
    out.push(`- Stream: ${mdText(laneLabel(f.streamId), 160)}${rel.length ? ` (related: ${rel.join(', ')})` : ''}`);
  }
  if (f.missing) out.push(`- Missing event ids: ${mdText(f.missing, 300)}`);
  if (f.eventIds.length) out.push(`- Event ids: ${mdText(f.eventIds.slice(0, 40).join(', '), 600)}${f.eventIds.length > 40 ? ` … (${f.eventIds.length})` : ''}`);
  return out.join('\n');
}
