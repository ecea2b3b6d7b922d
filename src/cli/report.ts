// Rendering of an analysis for the `audit` command: the --json shape and the human text.
import type { AnalysisSnapshot, CaptureHealthItem, Finding, RequestLink, ServerEra, Severity, Stream, SubscriptionInfo } from '../core/model';
import { adviceFor, captureItemText, captureSummary, worstSeverity as worstOfFindings } from '../core/presentation';
import { eraLines, linkLine, requestLinks, subLine } from './report-eras';
import type { AuditInput, AuditNotice } from './audit-input';

export interface AuditJson {
  version: 1;
  /** Per server (origin + endpoint) of each file: the era(s) it served, with the evidence. */
  servers: { file: string; endpoint: string; origin: string; era: ServerEra; evidence: string[]; sessionKeys: string[] }[];
  sessions: {
    /** Mcp-Session-Id, `endpoint:<url>` (sessionless 2025) or `conversation:<url> <client> <source>` (2026-07-28). */
    key: string;
    sessionId: string | null;
    /** Every session and sessionless group carries its era (issue 12). */
    era: 'legacy' | 'modern';
    eraEvidence: string;
    /** Its server's era (`dual` when one endpoint served both). */
    serverEra: ServerEra;
    /** 2026-07-28: the client its requests' `_meta` clientInfo names. */
    client: { name: string; version?: string } | null;
    /** 2026-07-28: re-issues and MRTR retries; subscriptions/listen streams with their outages. */
    links: RequestLink[];
    subscriptions: SubscriptionInfo[];
    protocolVersion: string | null;
    endpoint: string;
    idScheme: string;
    lossless: boolean;
    requests: {
      id: string | number | null;
      method: string;
      verdict: string;
      findings: string[];
      /** Present when linked: the request it re-issues / that re-issued it; the MRTR retry links. */
      reissueOf?: string | number | null;
      reissuedAs?: string | number | null;
      retryOf?: string | number | null;
      retriedAs?: string | number | null;
      resultType?: string;
      /** Issue 19: the request whose lossy/partial output it carries / the request that carries its output. */
      carriesFrom?: string | number | null;
      carriedInto?: string | number | null;
    }[];
    /** 'session', 'stream' or 'server' (one counter shared by several sessions); null without a counter. */
    idSchemeScope: string | null;
    idSchemeEvidence: string;
    losslessReasons: string[];
  }[];
  findings: {
    code: string;
    severity: Severity;
    sessionId: string | null;
    sessionKey: string;
    streamId: string | null;
    requestId: string | number | null;
    /** Other requests the finding names (a re-issue and the request it re-issues). */
    relatedRequestIds: (string | number | null)[];
    pending: boolean;
    eventIds: string[];
    message: string;
    /** What to do, for the codes that carry their own advice (lossy and duplicated results, the client findings). */
    advice?: string;
  }[];
  /** Per input file: its capture health (what the inspector lost or did not keep, its notices). */
  files: {
    file: string;
    format: string;
    records: number;
    capture: {
      summary: string;
      worst: Severity | null;
      lost: number;
      notKept: number;
      bodiesAbsent: number;
      unknownLoss: number;
      unseen: number;
      items: { kind: CaptureHealthItem['kind']; level: Severity; code: string; src: string; count: number; lost: number; conns: number; notLost: boolean; message: string }[];
    };
  }[];
}

// C0 and C1 controls (tab, CR and LF included: page data never breaks a line of the report), DEL,
// the Unicode line and paragraph separators, and the bidirectional controls that can make text
// read differently from what it is.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a capture (ids, methods, URLs, messages quoting them) made safe for a terminal: no
 * escape sequence reaches it, no line break or bidi override rearranges the report. Each such
 * character is shown as \u{XXXX}.
 */
export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}}`);
}

/** JSON-RPC id text (`1`, `"a"`) back to its value. */
export function idValue(text: string | undefined): string | number | null {
  if (text === undefined) return null;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  } catch {
    return text;
  }
}

export function toAuditJson(inputs: readonly Pick<AuditInput, 'file' | 'format' | 'snap'>[]): AuditJson {
  const out: AuditJson = { version: 1, sessions: [], findings: [], files: [], servers: [] };
  for (const { file, format, snap } of inputs) {
    const c = snap.capture;
    out.files.push({
      file,
      format,
      records: snap.recordCount,
      capture: {
        summary: captureSummary(c),
        worst: c.worst ?? null,
        lost: c.lost,
        notKept: c.notKept,
        bodiesAbsent: c.bodiesAbsent,
        unknownLoss: c.unknownLoss,
        unseen: c.unseen,
        items: c.items.map((x) => ({ kind: x.kind, level: x.level, code: x.code, src: x.src, count: x.count, lost: x.lost, conns: x.conns, notLost: x.notLost, message: x.message })),
      },
    });
    const serverEra = new Map<string, ServerEra>();
    for (const x of snap.servers ?? []) {
      out.servers.push({ file, endpoint: x.endpoint, origin: x.origin, era: x.era, evidence: x.evidence.slice(), sessionKeys: x.sessionKeys.slice() });
      for (const k of x.sessionKeys) serverEra.set(k, x.era);
    }
    for (const s of snap.sessions) {
      out.sessions.push({
        sessionId: s.sessionId,
        protocolVersion: s.protocolVersion ?? null,
        endpoint: s.endpoint,
        idScheme: s.idScheme.kind,
        lossless: s.lossless,
        requests: (snap.requests[s.key] ?? []).map((r) => ({
          id: idValue(r.id),
          method: r.method,
          verdict: r.verdict,
          findings: r.findings.slice(),
          ...requestLinks(r, idValue),
        })),
        idSchemeScope: s.idScheme.scope ?? null,
        idSchemeEvidence: s.idScheme.evidence,
        losslessReasons: s.losslessReasons.slice(),
        key: s.key,
        era: s.era,
        eraEvidence: s.eraEvidence,
        serverEra: serverEra.get(s.key) ?? 'unknown',
        client: s.client ? { ...s.client } : null,
        links: (s.links ?? []).map((l) => ({ ...l })),
        subscriptions: (s.subscriptions ?? []).map((x) => ({ ...x, lists: x.lists.slice(), ...(x.outage ? { outage: { ...x.outage } } : {}) })),
      });
    }
    for (const f of snap.findings) {
      out.findings.push({
        code: f.code,
        severity: f.severity,
        sessionId: f.sessionId,
        streamId: f.streamId ?? null,
        requestId: idValue(f.requestId),
        eventIds: f.eventIds.slice(),
        message: f.message,
        sessionKey: f.sessionKey,
        relatedRequestIds: (f.relatedRequestIds ?? []).map((x) => idValue(x)),
        pending: f.pending === true,
        ...(adviceFor(f.code) ? { advice: adviceFor(f.code)! } : {}),
      });
    }
  }
  return out;
}

export function worstSeverity(snaps: AnalysisSnapshot[]): Severity | undefined {
  return worstOfFindings(snaps.flatMap((s) => s.findings));
}

/**
 * The first (step 1) or last (step -1) event that carries an id and was read whole, or -1. Reads
 * one fact at a time: building each event of a 100k-event stream to find two of them cost a
 * twentieth of `audit` on a large HAR (row 4h of the benchmarks).
 */
function idEdge(events: Stream['events'], step: 1 | -1): number {
  for (let i = step === 1 ? 0 : events.length - 1; i >= 0 && i < events.length; i += step) {
    if (events.id(i) !== undefined && !events.at(i)!.truncated) return i;
  }
  return -1;
}

function streamLine(st: Stream): string {
  const what = st.requestIds.length ? ` req ${st.requestIds.join(',')}` : '';
  const resume = st.lastEventIdSent !== undefined ? ` Last-Event-ID ${st.lastEventIdSent}` : '';
  const first = idEdge(st.events, 1);
  const last = first < 0 ? -1 : idEdge(st.events, -1);
  const idRange = first >= 0 ? `, ids ${st.events.id(first)}${last > first ? ` … ${st.events.id(last)}` : ''}` : '';
  const ct = st.contentType ? ` ${st.contentType.split(';')[0]}` : '';
  const flags = st.captureIncomplete ? ' [capture incomplete]' : '';
  const kind = st.kind === 'resume' ? ' (resume)' : st.kind === 'eventsource' ? ' (EventSource)' : '';
  return `${st.id}  ${st.method}${kind}${what}${resume}  → ${st.status ?? '-'}${ct}, ${st.events.length} event(s)${idRange}, ${st.state}${st.endReason && st.state !== 'complete' ? ` (${st.endReason})` : ''}${flags}`;
}

const SEV_LABEL: Record<Severity, string> = { error: 'ERROR  ', warning: 'WARNING', info: 'INFO   ' };

function findingLines(f: Finding, indent: string): string[] {
  const where = [f.streamId ? `stream ${f.streamId}` : '', f.requestId ? `request ${f.requestId}` : '', f.missing ? `missing ${f.missing}` : f.eventIds.length ? `ids ${f.eventIds.slice(0, 5).join(', ')}${f.eventIds.length > 5 ? ' …' : ''}` : '']
    .filter(Boolean)
    .join(', ');
  const advice = f.severity !== 'info' ? adviceFor(f.code) : undefined;
  return [`${indent}${SEV_LABEL[f.severity]} ${f.code}${where ? `  (${where})` : ''}`, `${indent}        ${f.message}`, ...(advice ? [`${indent}        What to do: ${advice}`] : [])];
}

export function renderHuman(file: string, format: string, snap: AnalysisSnapshot, notices: readonly AuditNotice[] = []): string {
  const L: string[] = [];
  L.push(`${file}  (${format}, ${snap.recordCount} records)`);
  L.push(`  capture health: ${captureSummary(snap.capture)}`);
  for (const x of snap.capture.items) if (x.kind === 'gap') L.push(`    ${SEV_LABEL[x.level].trim().toLowerCase()} ${x.code}: ${captureItemText(x)}`);
  for (const n of notices) L.push(`  notice ${n.level} ${n.code}${n.count > 1 ? ` (×${n.count})` : ''}: ${n.message}`);
  if (snap.sessions.length === 0) L.push('  no MCP traffic found');
  for (const s of snap.sessions) {
    L.push('');
    L.push(...eraLines(snap, s));
    L.push(`    id scheme: ${s.idScheme.kind}${s.idScheme.scope ? ` (${s.idScheme.scope})` : ''}: ${s.idScheme.evidence}`);
    L.push(`    gapless retention declared: ${s.gaplessDeclared ? 'yes' : 'no'}`);
    L.push(`    lossless: ${s.lossless ? 'yes' : 'NO'}${s.losslessReasons.length ? ` (${s.losslessReasons.join('; ')})` : ''}`);
    L.push(`    streams (${s.streamIds.length}):`);
    for (const id of s.streamIds) {
      const st = snap.streams[id];
      if (st) L.push(`      ${streamLine(st)}`);
    }
    const chains = s.chains ?? [];
    if (chains.length) {
      L.push(`    reconnect chains (${chains.length}):`);
      for (const c of chains) {
        const parts = c.segments.map((g) => {
          const from = g.resumedFrom !== undefined ? `resume from ${g.resumedFrom} → ` : '';
          const ids = g.firstId !== undefined ? `ids ${g.firstId}${g.lastId !== g.firstId ? `–${g.lastId}` : ''}` : 'no ids';
          return `${from}${g.streamId} [${g.status ?? '-'}; ${g.events} event(s), ${ids}; ${g.state}]`;
        });
        L.push(`      ${c.requestIds.length ? `request ${c.requestIds.join(',')}: ` : ''}${parts.join('  ⇒  ')}`);
      }
    }
    for (const x of s.links ?? []) L.push(`    link: ${linkLine(x)}`);
    for (const x of s.subscriptions ?? []) L.push(`    subscription: ${subLine(x)}`);
    const reqs = snap.requests[s.key] ?? [];
    L.push(`    requests (${reqs.length}):`);
    for (const r of reqs) {
      L.push(`      ${r.id.padEnd(6)} ${r.method.padEnd(24)} ${r.verdict.padEnd(19)} ${r.findings.join(', ')}`.trimEnd());
    }
    const fs = snap.findings.filter((f) => f.sessionKey === s.key);
    L.push(`    findings (${fs.length}):${fs.length ? '' : ' none'}`);
    for (const f of fs) L.push(...findingLines(f, '      '));
  }
  const global = snap.findings.filter((f) => !snap.sessions.some((s) => s.key === f.sessionKey));
  if (global.length) {
    L.push('');
    L.push('  Capture:');
    for (const f of global) L.push(...findingLines(f, '    '));
  }
  const count = (sev: Severity) => snap.findings.filter((f) => f.severity === sev).length;
  L.push('');
  L.push(`  Summary: ${snap.sessions.length} session(s), ${count('error')} error(s), ${count('warning')} warning(s), ${count('info')} info`);
  return L.map(terminalSafe).join('\n') + '\n';
}
