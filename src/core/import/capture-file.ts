// The product's own export (CaptureFile v1), validated with zod. Unknown extra fields are kept
// (records may gain optional fields); missing or mistyped required fields are an ImportError.
import { z } from 'zod';
import type { CaptureFile, CaptureRecord } from '../record';
import { ImportError, clip } from './errors';

const header = z.tuple([z.string(), z.string()]);
const base = { seq: z.number(), src: z.string(), t: z.number() };
const conn = { ...base, conn: z.string() };
const transport = z.enum(['fetch', 'xhr', 'eventsource', 'network', 'import']);

const recordSchema = z.discriminatedUnion('kind', [
  z.looseObject({
    ...conn,
    kind: z.literal('request'),
    transport,
    method: z.string(),
    url: z.string(),
    headers: z.array(header),
    body: z.string().nullable(),
  }),
  z.looseObject({
    ...conn,
    kind: z.literal('response'),
    status: z.number(),
    statusText: z.string(),
    headers: z.array(header),
    url: z.string(),
    redirected: z.boolean(),
    type: z.string(),
    capture: z.enum(['sse', 'json', 'none']),
  }),
  z.looseObject({ ...conn, kind: z.literal('chunk'), text: z.string(), bytes: z.number() }),
  z.looseObject({ ...conn, kind: z.literal('es-event'), type: z.string(), data: z.string(), lastEventId: z.string() }),
  z.looseObject({
    ...conn,
    kind: z.literal('end'),
    how: z.enum(['complete', 'page-aborted', 'page-cancelled', 'network-error', 'unread', 'closed', 'unknown']),
  }),
  z.looseObject({ ...base, kind: z.literal('navigation'), url: z.string(), top: z.boolean() }),
  z.looseObject({
    ...base,
    kind: z.literal('capture-gap'),
    lost: z.number(),
    conns: z.array(z.string()),
    reason: z.string(),
  }),
  z.looseObject({ ...base, kind: z.literal('notice'), level: z.string(), code: z.string(), message: z.string() }),
]);

const fileSchema = z.looseObject({
  format: z.literal('mcp-stream-inspector'),
  version: z.literal(1),
  createdAt: z.string().optional(),
  source: z.string().optional(),
  records: z.array(recordSchema),
});

function describeIssue(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'invalid capture file';
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  // Keys of the file (the path) and zod's message (it may quote a value) are file data: clipped.
  return `${clip(path || '(top level)')}: ${clip(issue.message, 200)}`;
}

export function isCaptureFileLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { format?: unknown }).format === 'mcp-stream-inspector';
}

export function importCaptureFile(v: unknown): CaptureRecord[] {
  if (isCaptureFileLike(v)) {
    const version = (v as { version?: unknown }).version;
    if (version !== 1) throw new ImportError(`capture file version ${clip(JSON.stringify(version) ?? String(version))} is not supported (this tool reads version 1)`);
  }
  const r = fileSchema.safeParse(v);
  if (!r.success) throw new ImportError(`invalid capture file: ${describeIssue(r.error)}`);
  return (r.data as unknown as CaptureFile).records;
}

/** A bare JSON array of records. */
export function importRecordArray(v: unknown): CaptureRecord[] {
  const r = z.array(recordSchema).safeParse(v);
  if (!r.success) throw new ImportError(`invalid record list: ${describeIssue(r.error)}`);
  return r.data as unknown as CaptureRecord[];
}
