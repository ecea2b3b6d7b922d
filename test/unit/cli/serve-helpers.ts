// Shared by the serve tests: load a fixture capture, serve it on port 0, point the fixture's SDK
// client scenario at it, and reduce an analysis to what "the same findings" means.
import { readFileSync } from 'node:fs';
import { startServe, type ServeHandle, type ServeOptions } from '../../../src/cli/serve/command.js';
import { analyzeRecords } from '../../../src/core/analyzer.js';
import { importText } from '../../../src/core/import/index.js';
import type { AnalysisSnapshot } from '../../../src/core/model.js';
import type { CaptureRecord } from '../../../src/core/record.js';
import type { FixtureServer } from '../../fixtures/mcp-server/server.js';
import type { V2FixtureServer } from '../../fixtures/v2/server/server.js';

export const CAPTURES = 'test/fixtures/captures/';

export function loadRecords(file: string): CaptureRecord[] {
  return importText(readFileSync(file, 'utf8')).records;
}

export interface Served extends ServeHandle {
  url: string;
  lines: string[];
}

export async function serve(records: readonly CaptureRecord[], o: Omit<ServeOptions, 'records'> = {}): Promise<Served> {
  const lines: string[] = [];
  const h = await startServe({ port: 0, ...o, records, log: (l) => lines.push(l) });
  return Object.assign(h, { url: h.endpoints[0]!.url, lines });
}

/** The served capture in the shape runScenario takes for an already running server. */
export function asFixtureServer(s: Served): FixtureServer {
  return { url: s.url, origin: s.origin, modeUrl: () => s.url, log: [], sessions: new Map(), close: async () => {} };
}

/** The same for the v2 runner, which asks for `/mcp/<scenario>`: the capture's own path. */
export function asV2FixtureServer(s: Served): V2FixtureServer {
  const at = (name: string) => s.endpoints.find((e) => e.url.endsWith(`/${name}`))?.url ?? s.url;
  return { url: s.url, origin: s.origin, modeUrl: at, log: [], close: async () => {} };
}

/** What must be equal between a capture and a replay of it: finding codes, severities, requests, ids. */
export function comparable(snap: AnalysisSnapshot) {
  return {
    sessions: snap.sessions.map((s) => ({ protocolVersion: s.protocolVersion, idScheme: s.idScheme.kind, lossless: s.lossless, gapless: s.gaplessDeclared })),
    findings: snap.findings.map((f) => ({ code: f.code, severity: f.severity, requestId: f.requestId, missing: f.missing, eventIds: f.eventIds })),
    requests: snap.sessions.map((s) => (snap.requests[s.key] ?? []).map((r) => ({ id: r.id, method: r.method, verdict: r.verdict, response: r.response, findings: r.findings }))),
  };
}

export function analysisOf(records: readonly CaptureRecord[]) {
  return comparable(analyzeRecords(withoutAbortedReconnects(records)));
}

/**
 * Leaves out connections the client opened after its session ended and aborted itself before any
 * answer (no response record): the SDK client schedules a reconnect of its standalone GET when
 * the server ends it (here: as the session's DELETE is handled), and whether that timer fires
 * before the scenario's close() depends on the machine's load, in the recording as in the replay
 * (seen on python-shared under load: two session-less GETs, aborted at once, an extra group;
 * or one that reached serve after the DELETE and was answered 405, not in the recording).
 * Nothing the server sent is left out.
 */
function withoutAbortedReconnects(records: readonly CaptureRecord[]): CaptureRecord[] {
  const answered = new Set<string>();
  const aborted = new Set<string>();
  const sessionless = new Set<string>();
  for (const r of records) {
    const key = `${r.src}\u0000${'conn' in r ? r.conn : ''}`;
    if (r.kind === 'response') answered.add(key);
    else if (r.kind === 'end' && r.how === 'page-aborted') aborted.add(key);
    else if (r.kind === 'request' && r.method === 'GET' && !r.headers.some(([k]) => k.toLowerCase() === 'mcp-session-id')) sessionless.add(key);
  }
  // Also a session-less GET sent after the client's DELETE, whatever its answer: the same
  // reconnect, when it reached the server (serve answers 405, the recording's server its own).
  const deleteAt = Math.min(...records.filter((r) => r.kind === 'request' && r.method === 'DELETE').map((r) => r.t));
  const late = new Set(records.filter((r) => r.kind === 'request' && r.t >= deleteAt).map((r) => `${r.src}\u0000${'conn' in r ? r.conn : ''}`));
  const drop = new Set([...sessionless].filter((k) => (aborted.has(k) && !answered.has(k)) || late.has(k)));
  return drop.size === 0 ? [...records] : records.filter((r) => !drop.has(`${r.src}\u0000${'conn' in r ? r.conn : ''}`));
}
