// Output schemas of the tools (outputSchema: the client can validate structuredContent, and a
// model sees the shape before it calls). They mirror views.ts.
import { z } from 'zod';
import { VERDICTS } from '../../core/presentation';

const sev = z.enum(['error', 'warning', 'info']);
const str = z.string();
const nstr = z.string().nullable();
const streamHandle = z.string().describe('short handle of the stream (st1…), which get_events takes');
const streamIdCut = z.string().describe('the stream id, cut to 200 characters saying how much (get_events takes the handle)');
const moreIds = z.number().optional().describe('how many more ids the list left out');
const requestHandle = z.string().describe('short handle of the request (rq1…), which get_request takes: an id over 200 characters is shown cut, its handle always works');

export const finding = z.object({
  finding: str.describe('short id of the finding in this capture (f0, f1…)'),
  code: str.describe('stable finding code; explain_finding says what it means'),
  severity: sev,
  session: nstr,
  requestId: nstr.describe('JSON text of the JSON-RPC id (1 and "1" differ)'),
  request: requestHandle.nullable(),
  stream: streamHandle.nullable(),
  streamId: streamIdCut.nullable(),
  eventIds: z.array(str),
  moreEventIds: z.number().optional(),
  missing: nstr.describe('for gaps: the missing ids as ranges, e.g. "12–13"'),
  message: str,
  pending: z.boolean(),
  injected: nstr.describe('the fault armed on purpose that explains it, if any'),
});

const counts = z.object({ total: z.number(), error: z.number(), warning: z.number(), info: z.number() });

export const captureSummary = z.object({
  capture: str.describe('capture id for the other tools'),
  kind: z.enum(['file', 'live']),
  label: str,
  format: str,
  records: z.number(),
  sessions: z.number(),
  requests: z.number(),
  findings: counts,
  worstFinding: finding.nullable(),
  eras: z.array(str),
  captureHealth: str,
  live: z.boolean(),
});

export const openResult = z.object({
  opened: z.array(captureSummary),
  skipped: z.array(z.object({ file: str, reason: str })),
});

export const captureList = z.object({ captures: z.array(captureSummary) });

export const session = z.object({
  session: str.describe('short session id (s1…) for the other tools'),
  key: str,
  title: str,
  sessionId: nstr,
  era: z.enum(['legacy', 'modern']),
  eraLabel: str,
  serverEra: str,
  endpoint: str,
  idScheme: str,
  lossless: z.boolean(),
  requests: z.number(),
  streams: z.number(),
  verdicts: z.record(z.string(), z.number()),
  findings: counts,
  worstFinding: finding.nullable(),
});

const page = { total: z.number(), nextCursor: z.string().optional().describe('pass it as cursor for the next page') };

export const sessionList = z.object({ capture: str, sessions: z.array(session), ...page });
export const findingList = z.object({ capture: str, findings: z.array(finding), ...page });

export const timeline = z.object({
  capture: str,
  session: str,
  title: str,
  era: str,
  idScheme: z.object({ kind: str, scope: nstr, evidence: str }),
  lossless: z.boolean(),
  losslessReasons: z.array(str),
  startedAt: nstr,
  streams: z.array(
    z.object({
      stream: streamHandle,
      streamId: streamIdCut,
      kind: str,
      httpMethod: str,
      status: z.number().nullable(),
      state: str,
      startMs: z.number().nullable(),
      endMs: z.number().nullable(),
      events: z.number(),
      firstEventId: nstr,
      lastEventId: nstr,
      lastEventIdSent: nstr,
      resumes: nstr,
      resumedBy: z.array(str),
      moreResumedBy: moreIds,
      requestIds: z.array(str),
      moreRequestIds: moreIds,
      requests: z.array(requestHandle.nullable()).describe('the handles of the requests in requestIds, in its order (null for an id the analysis holds no request for)'),
      endReason: nstr,
    }),
  ),
  chains: z.array(
    z.object({
      rootStream: streamHandle.nullable(),
      rootStreamId: streamIdCut,
      requestIds: z.array(str),
      moreRequestIds: moreIds,
      segments: z.array(z.object({ stream: streamHandle.nullable(), streamId: streamIdCut, resumedFrom: nstr, firstId: nstr, lastId: nstr, events: z.number(), state: str, status: z.number().nullable() })),
      moreSegments: z.number().optional().describe('how many more segments (resumes) the chain has'),
    }),
  ),
  links: z.array(z.object({ kind: str, from: str, to: str, fromStream: streamHandle.nullable(), fromStreamId: streamIdCut, toStream: streamHandle.nullable(), toStreamId: streamIdCut, text: str })),
  subscriptions: z.array(z.object({ requestId: str, stream: streamHandle.nullable(), streamId: streamIdCut, state: str, changes: z.number(), text: str })),
  gaps: z.array(finding),
  faults: z.array(z.object({ armed: str, fault: str, text: str, stream: streamHandle.nullable(), streamId: streamIdCut, requestIds: z.array(str), moreRequestIds: moreIds, findings: z.array(str) })),
  total: z.number().describe("the session's streams, over every page"),
  nextCursor: page.nextCursor,
});

export const eventList = z.object({
  capture: str,
  stream: streamHandle,
  streamId: streamIdCut,
  events: z.array(
    z.object({
      index: z.number(),
      id: nstr,
      event: str,
      t: z.number(),
      data: str,
      messages: z.array(z.object({ kind: str, id: nstr, method: nstr, progress: z.number().nullable() })),
      findings: z.array(str),
      duplicate: z.boolean(),
      truncated: z.boolean(),
    }),
  ),
  ...page,
});

export const request = z.object({
  capture: str,
  session: str,
  request: requestHandle.nullable(),
  requestId: str,
  name: str,
  method: str,
  tool: nstr,
  verdict: z.enum(VERDICTS),
  verdictText: str,
  response: nstr,
  stream: streamHandle.nullable(),
  streamId: streamIdCut,
  responseStream: streamHandle.nullable(),
  responseStreamId: streamIdCut.nullable(),
  notifications: z.number(),
  cumulativeNotifications: z.number(),
  loss: z.object({ missing: nstr, missingCount: z.number().nullable(), accumulated: z.number(), implied: z.number().nullable() }).nullable(),
  worstFinding: finding.nullable(),
  findings: z.array(finding),
  moreFindings: z.number(),
  whatToDo: z.array(z.object({ code: str, whatToDo: str })),
  links: z.object({ reissueOf: nstr, reissuedAs: nstr, retryOf: nstr, retriedAs: nstr }),
});

export const explanation = z.object({ code: str, title: str, severity: str, summary: str, explanation: str, whatToDo: z.string().optional() });

export const exported = z.object({
  capture: str,
  format: str,
  bytes: z.number(),
  filename: str,
  writtenTo: nstr.describe('the file written, when a path was given'),
  text: nstr.describe('the export itself, when no path was given and it fits maxBytes'),
  truncated: z.boolean(),
});

const sessionRole = z.object({ endpoint: str, era: str, ordinal: z.number() }).describe('a session by its role: the n-th session of one era at one endpoint');
const findingDiff = z.object({
  code: str,
  severity: sev,
  session: sessionRole.nullable(),
  request: nstr.describe('the request by its role, e.g. "tools/call long_task #1" (the first such call of the session)'),
  stream: nstr,
  requestId: nstr.describe('its JSON-RPC id in that run'),
  missing: nstr,
  message: str,
});

export const diff = z.object({
  base: z.array(str),
  head: z.array(str),
  same: z.boolean(),
  count: z.number().describe('number of differences'),
  endpoints: z.array(z.object({ base: str, head: str, how: str })),
  findings: z.object({
    new: z.array(findingDiff),
    gone: z.array(findingDiff),
    changed: z.array(z.object({ code: str, session: sessionRole.nullable(), request: nstr, what: z.array(str), base: z.object({ severity: sev, missing: nstr }), head: z.object({ severity: sev, missing: nstr }) })),
    unchanged: z.number(),
  }),
  verdicts: z.array(z.object({ session: sessionRole, request: str, base: nstr, head: nstr, baseId: nstr, headId: nstr, findings: z.object({ new: z.array(str), gone: z.array(str) }) })),
  resumes: z.array(z.object({ session: sessionRole, chain: str, base: z.object({ resumes: z.number(), lastEventId: z.array(z.boolean()) }).nullable(), head: z.object({ resumes: z.number(), lastEventId: z.array(z.boolean()) }).nullable() })),
  eras: z.object({ servers: z.array(z.object({ endpoint: str, base: nstr, head: nstr })), sessions: z.object({ new: z.array(sessionRole), gone: z.array(sessionRole) }) }),
  truncated: z.boolean().describe('lists were cut to 50 entries each'),
});
