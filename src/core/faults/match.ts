// Which armed faults apply to an HTTP exchange. The injector (serve, the panel's page hook)
// describes the exchange as RequestFacts; arming keeps the counts (`times`) and the sessions a
// fault expired, so "the next matching request" means the same thing everywhere.
import { defaultOn, isModernVersion } from './era';
import type { FaultSpec } from './spec';

export interface RequestFacts {
  url: string;
  httpMethod: string;
  /** The POST carrying a request, a GET with Last-Event-ID, a GET without one, or anything else. */
  on: 'request' | 'resume' | 'standalone' | 'other';
  /**
   * JSON-RPC method, tool name and id (JSON text) of the request; for a resume, of the request
   * whose stream it resumes, when known. A batch: the first request's.
   */
  method?: string;
  tool?: string;
  requestId?: string;
  /** MCP-Protocol-Version of the request (header, or `_meta` in the 2026-07-28 revision). */
  protocolVersion?: string;
  /** Mcp-Session-Id the request carries (as the client sent it). */
  sessionId?: string;
}

export function matchFault(f: FaultSpec, facts: RequestFacts): boolean {
  const m = f.match ?? {};
  const on = m.on ?? defaultOn(f.action);
  if (on !== 'any' && on !== facts.on) return false;
  if (m.method !== undefined && m.method !== facts.method) return false;
  if (m.tool !== undefined && m.tool !== facts.tool) return false;
  if (m.requestId !== undefined && m.requestId !== facts.requestId) return false;
  if (m.url !== undefined && !facts.url.includes(m.url)) return false;
  if (m.era !== undefined) {
    // No version: 2025-03-26 (the spec's rule for a request without MCP-Protocol-Version).
    const modern = isModernVersion(facts.protocolVersion) ?? false;
    if (modern !== (m.era === 'modern')) return false;
  }
  return true;
}

/** A fault taking effect on one exchange. `index` is its position in the armed list. */
export interface ActiveFault {
  index: number;
  spec: FaultSpec;
}

export interface FaultArming {
  readonly faults: readonly FaultSpec[];
  /**
   * The faults that apply to this exchange (each spends one of its `times`), in armed order.
   * A request of a session a fault expired gets that expire-session fault again, without spending.
   */
  take(facts: RequestFacts): ActiveFault[];
  /**
   * The fault took no effect on the exchange it was given (a cut after 5 events of a stream that
   * had 3): it applies to the next matching exchange instead.
   */
  refund(f: ActiveFault): void;
  /** How many times each fault may still apply (Infinity for `always`). */
  remaining(): number[];
  /** Session ids an expire-session fault ended. */
  readonly expiredSessions: ReadonlySet<string>;
}

export function createFaultArming(faults: readonly FaultSpec[]): FaultArming {
  const left = faults.map((f) => (f.times === 'always' ? Infinity : (f.times ?? 1)));
  const expired = new Map<string, number>();
  const expiredSessions = new Set<string>();
  return {
    faults,
    expiredSessions,
    remaining: () => [...left],
    refund(f) {
      if (f.index >= 0 && f.index < left.length && left[f.index] !== Infinity) left[f.index]!++;
    },
    take(facts) {
      if (facts.sessionId !== undefined) {
        const by = expired.get(facts.sessionId);
        if (by !== undefined) return [{ index: by, spec: faults[by]! }];
      }
      const out: ActiveFault[] = [];
      faults.forEach((spec, index) => {
        if (left[index]! <= 0 || !matchFault(spec, facts)) return;
        left[index]!--;
        out.push({ index, spec });
        if (spec.action.kind === 'expire-session' && facts.sessionId !== undefined) {
          expired.set(facts.sessionId, index);
          expiredSessions.add(facts.sessionId);
        }
      });
      return out;
    },
  };
}
