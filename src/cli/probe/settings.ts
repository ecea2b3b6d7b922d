// The probe's settings, parsed from the command line and the environment, with its safety rules:
// loopback only unless --remote; headers (auth) from --header or MCP_PROBE_HEADERS, never printed.

import { basicSecrets, urlSecrets } from './credentials';

export type Era = 'legacy' | 'modern' | 'auto';
export type ProbeFormat = 'text' | 'json' | 'junit' | 'sarif';

export interface ProbeSettings {
  url: string;
  era: Era;
  tool?: string;
  args: Record<string, unknown>;
  allowTools: string[];
  headers: Record<string, string>;
  format: ProbeFormat;
  out?: string;
  /** Wait past the server's retention for the evicted-cursor experiment. */
  slow: boolean;
  /** ms the evicted-cursor experiment waits (with --slow). */
  retentionMs: number;
  /** Per call. */
  timeoutMs: number;
  /** Slow reader: one event per paceMs for paceForMs. */
  paceMs: number;
  paceForMs: number;
  /** How long a resumed or standalone stream is read before the probe lets go of it. */
  listenMs: number;
}

export const HEADERS_ENV = 'MCP_PROBE_HEADERS';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(url: URL): boolean {
  const h = url.hostname.toLowerCase();
  return LOOPBACK.has(h) || /^127\.\d+\.\d+\.\d+$/.test(h) || h.endsWith('.localhost');
}

/** `Name: value` lines (flags, or the environment variable separated by newlines). */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    if (!line.trim()) continue;
    const i = line.indexOf(':');
    const name = i > 0 ? line.slice(0, i).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error('a header must be "Name: value" (the value is not shown)');
    out[name] = line.slice(i + 1).trim();
  }
  return out;
}

/** Headers whose value is `<scheme> <credentials>`: a server refusing them may quote the credentials alone. */
const SCHEMED = new Set(['authorization', 'proxy-authorization']);

/**
 * Every header value the user gave, for redaction (report, saved captures), the credentials of an
 * auth scheme alone, what a Basic value decodes to, and the credentials in the URL.
 */
export function secretsOf(s: ProbeSettings): string[] {
  const fromHeaders = Object.entries(s.headers).flatMap(([name, v]) => {
    const m = SCHEMED.has(name.toLowerCase()) ? /^(\S+)\s+(\S.*)$/.exec(v) : null;
    const credentials = m ? [m[2]!, ...(m[1]!.toLowerCase() === 'basic' ? basicSecrets(m[2]!) : [])] : [];
    return [v, ...credentials].filter((x) => x.length > 0);
  });
  return [...new Set([...fromHeaders, ...urlSecrets(s.url)])];
}
