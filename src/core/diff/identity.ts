// The identity of each finding of one run, as diffSnapshots compares them (match-findings.ts): for
// outputs that must name a finding the same way across runs (SARIF fingerprints, logical locations).
import type { AnalysisSnapshot, Finding } from '../model';
import { list, type DiffInput } from './diff';
import { findingRef } from './match-findings';
import { indexSide } from './roles';
import type { FindingRef } from './types';

export interface FindingIdentity {
  input: number;
  finding: Finding;
  ref: FindingRef;
  /**
   * A stable text of the identity: code, session (endpoint path, era, order), request (method, tool
   * name, order) or stream role, and the occurrence among findings of that same identity. The
   * endpoint's origin is left out (a test server's port changes with every run).
   */
  key: string;
}

function path(endpoint: string): string {
  try {
    return new URL(endpoint).pathname;
  } catch {
    return endpoint;
  }
}

export function findingIdentities(run: DiffInput): FindingIdentity[] {
  const snaps: readonly AnalysisSnapshot[] = list(run);
  const side = indexSide(snaps);
  const seen = new Map<string, number>();
  return side.findings.map((f) => {
    const ref = findingRef(f, (s) => ({ endpoint: s.endpoint, era: s.era, ordinal: s.ordinal }));
    const base = JSON.stringify([ref.code, ref.session ? [path(ref.session.endpoint), ref.session.era, ref.session.ordinal] : null, ref.request ? [ref.request.name, ref.request.ordinal] : null, ref.stream]);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { input: f.input, finding: f.finding, ref, key: `${base}#${n}` };
  });
}
