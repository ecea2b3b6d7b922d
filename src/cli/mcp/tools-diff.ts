// diff_captures: the CLI's `diff` (the core's diffSnapshots) between open captures: what is new,
// gone or changed between a base and a head run of one scenario, by role (the n-th session of an
// endpoint, the n-th call of a tool), never by JSON-RPC id or session id.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { diffSnapshots, type FindingEntry, type RequestRef, type SnapshotDiff } from '../../core/diff/index';
import type { McpContext } from './context';
import { guarded, ok } from './results';
import * as S from './schemas';
import { captureFor } from './tools-files';
import { cap, capMissing, MESSAGE_MAX, REQUEST_ID_MAX, URL_MAX } from './text';

const MAX = 50;
// Roles are named after the page's text (a tool's name, a batch's requests, a stream id): a tool
// named in 60,000 characters made each entry that long.
const ROLE_MAX = 300;
const reqName = (r: RequestRef | null) => (r ? cap(`${r.name} #${r.ordinal}`, ROLE_MAX) : null);
const idOrNull = (id: string | undefined) => (id === undefined ? null : cap(id, REQUEST_ID_MAX));
const role = <T extends { endpoint: string }>(s: T) => ({ ...s, endpoint: cap(s.endpoint, URL_MAX) });

function findingOut(e: FindingEntry) {
  return {
    code: e.ref.code,
    severity: e.at.severity,
    session: e.ref.session ? role(e.ref.session) : null,
    request: reqName(e.ref.request),
    stream: e.ref.stream === null ? null : cap(e.ref.stream, ROLE_MAX),
    requestId: idOrNull(e.at.requestId),
    missing: capMissing(e.at.missing),
    message: cap(e.at.message, MESSAGE_MAX),
  };
}

export function diffView(d: SnapshotDiff, base: string[], head: string[]) {
  let truncated = false;
  const lim = <T>(xs: readonly T[]) => {
    if (xs.length > MAX) truncated = true;
    return xs.slice(0, MAX);
  };
  const out = {
    base,
    head,
    same: d.same,
    count: d.count,
    endpoints: lim(d.endpoints).map((p) => ({ base: cap(p.base, URL_MAX), head: cap(p.head, URL_MAX), how: p.how })),
    findings: {
      new: lim(d.findings.new).map(findingOut),
      gone: lim(d.findings.gone).map(findingOut),
      changed: lim(d.findings.changed).map((c) => ({
        code: c.ref.code,
        session: c.ref.session ? role(c.ref.session) : null,
        request: reqName(c.ref.request),
        what: c.what.slice(),
        base: { severity: c.base.severity, missing: capMissing(c.base.missing) },
        head: { severity: c.head.severity, missing: capMissing(c.head.missing) },
      })),
      unchanged: d.findings.unchanged,
    },
    verdicts: lim(d.verdicts).map((v) => ({
      session: role(v.session),
      request: reqName(v.request)!,
      base: v.base,
      head: v.head,
      baseId: idOrNull(v.baseId),
      headId: idOrNull(v.headId),
      findings: { new: v.findings.new.map((f) => f.ref.code), gone: v.findings.gone.map((f) => f.ref.code) },
    })),
    resumes: lim(d.resumes).map((r) => ({ session: role(r.session), chain: cap(r.chain, 200), base: r.base, head: r.head })),
    eras: {
      servers: lim(d.eras.servers).map((x) => ({ endpoint: cap(x.endpoint, URL_MAX), base: x.base, head: x.head })),
      sessions: { new: lim(d.eras.sessions.new).map(role), gone: lim(d.eras.sessions.gone).map(role) },
    },
    truncated: false,
  };
  out.truncated = truncated;
  return out;
}

const ids = z.union([z.string().max(200), z.array(z.string().max(200)).min(1).max(20)]);

export function registerDiffTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'diff_captures',
    {
      title: 'Compare two runs',
      description:
        "Compare two captures of one scenario (a base run and a head run; each one capture id or several): findings new, gone or changed (severity, missing ids), request verdicts that changed, reconnect chains, server eras. Things are matched by their role (the n-th session of an endpoint, the n-th call of a tool), never by JSON-RPC or session ids, so two runs of the same test compare. The same comparison as the CLI's `diff`.",
      inputSchema: z.object({ base: ids.describe('capture id(s) of the base run'), head: ids.describe('capture id(s) of the head run') }),
      outputSchema: S.diff,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ base, head }) =>
      guarded(async () => {
        const b = await Promise.all((Array.isArray(base) ? base : [base]).map((id) => captureFor(ctx, id)));
        const h = await Promise.all((Array.isArray(head) ? head : [head]).map((id) => captureFor(ctx, id)));
        const d = diffSnapshots(
          b.map((c) => c.snapshot()),
          h.map((c) => c.snapshot()),
        );
        return ok(diffView(d, b.map((c) => c.id), h.map((c) => c.id)));
      }),
  );
}
