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
  return comparable(analyzeRecords(records));
}
