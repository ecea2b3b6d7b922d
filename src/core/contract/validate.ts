// The one validator of the record contract (records.ts), for the relay (records from the page's
// world are untrusted: every field is checked for type, not for truth), the panel's link and the
// importers. Errors name the path and what was expected: `records[3].reason: not one of ...`.
// Cost: a checker derived from the schemas (check.ts) answers first, in about 0.1 µs per record
// and no copy; zod parses only what it refused, for the message (docs/benchmarks.md, "record
// contract"). Never per byte: a record's strings are type-checked, not scanned.
import type { z } from 'zod/mini';
import { compile } from './check';
import { captureFile, captureRecord, hookRecord } from './records';

/** Yes/no checks of the contract (derived from the same schemas as the messages). */
export const isRecord = compile(captureRecord);
const hookOk = compile(hookRecord);
const fileOk = compile(captureFile);

/** Whether `x` is a record the page hook may send (never numbered by the page). */
export function isHookRecordValue(x: unknown): boolean {
  return typeof x === 'object' && x !== null && !('seq' in x) && !('src' in x) && hookOk(x);
}

type Issue = z.core.$ZodIssue;

/** File data quoted in a message, cut to `max` characters. */
function clip(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `records[3].reason` from a zod path (keys of the file are data: clipped). */
export function pathText(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${clip(String(p), 40)}`;
  return out || '(top level)';
}

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'number' && !Number.isFinite(v) ? String(v) : typeof v;
const EXPECTED: Record<string, string> = { string: 'a string', number: 'a number', int: 'an integer', boolean: 'a boolean', array: 'an array', object: 'an object', tuple: 'an array' };
const expected = (e: string) => EXPECTED[e] ?? e;

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const p of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

/** What was wrong, in words. */
function issueText(issue: Issue, root: unknown): string {
  const got = valueAt(root, issue.path);
  switch (issue.code) {
    case 'invalid_value':
      return issue.values.length === 1 ? `not ${JSON.stringify(issue.values[0])}` : `not one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator) return `${issue.discriminator} is not a record kind`;
      return 'matches no record kind';
    case 'invalid_type':
      if (got === undefined) return `missing (expected ${expected(issue.expected)})`;
      if (issue.expected === 'int' && typeof got === 'number' && Number.isFinite(got)) return `expected an integer, got ${clip(String(got), 20)}`;
      return `expected ${expected(issue.expected)}, got ${typeOf(got)}`;
    case 'too_small':
      return issue.origin === 'array' ? `expected ${issue.minimum} item(s)` : `expected at least ${String(issue.minimum)}, got ${clip(String(got), 20)}`;
    case 'too_big':
      return issue.origin === 'array' ? `expected at most ${issue.maximum} item(s)` : `expected at most ${String(issue.maximum)}`;
    default:
      return clip(issue.message, 120);
  }
}

/** The first issue of a failed parse, as `path: what`. */
function describe(issues: readonly Issue[], root: unknown, prefix: string): string {
  const issue = issues[0];
  if (!issue) return 'invalid';
  // A wrong kind is reported on the kind, not as a union failure.
  if (issue.code === 'invalid_union' && (issue as { note?: string }).note === 'No matching discriminator') {
    const kind = valueAt(root, issue.path);
    return `${pathText(issue.path, prefix)}: ${kind === undefined ? 'missing' : `${clip(JSON.stringify(kind) ?? typeOf(kind), 40)} is not a record kind${(issue as { options?: unknown[] }).options ? ` (one of ${(issue as { options: unknown[] }).options.map(String).join(', ')})` : ''}`}`;
  }
  return `${pathText(issue.path, prefix)}: ${issueText(issue, root)}`;
}

/** Why `x` is no CaptureRecord (`reason: not one of ...`), or undefined when it is one. */
export function recordError(x: unknown): string | undefined {
  if (isRecord(x)) return undefined;
  const r = captureRecord.safeParse(x);
  return r.success ? DISAGREE : describe(r.error.issues, x, '');
}

/** What the messages say if the derived checker and zod ever disagree (the contract test fails then). */
const DISAGREE = '(top level): refused by the contract checker (check.ts) but not by its schema';

/** Why `x` is no record the page hook may send, or undefined. The hook never numbers records. */
export function hookRecordError(x: unknown): string | undefined {
  if (typeof x === 'object' && x !== null && ('seq' in x || 'src' in x)) return `${'seq' in x ? 'seq' : 'src'}: set by the relay, not by the page`;
  if (hookOk(x)) return undefined;
  const r = hookRecord.safeParse(x);
  return r.success ? DISAGREE : describe(r.error.issues, x, '');
}

/** Why the product's own export file `v` is invalid (`records[3].reason: ...`), or undefined. */
export function captureFileError(v: unknown): string | undefined {
  if (fileOk(v)) return undefined;
  const r = captureFile.safeParse(v);
  return r.success ? DISAGREE : describe(r.error.issues, v, '');
}

/** Why a bare list of records is invalid (`records[3].t: ...`), or undefined. */
export function recordListError(v: unknown): string | undefined {
  if (!Array.isArray(v)) return `records: expected an array, got ${typeOf(v)}`;
  for (let i = 0; i < v.length; i++) {
    if (isRecord(v[i])) continue;
    const r = captureRecord.safeParse(v[i]);
    return r.success ? `records[${i}]: ${DISAGREE.slice('(top level): '.length)}` : describe(r.error.issues, v[i], `records[${i}]`);
  }
  return undefined;
}
