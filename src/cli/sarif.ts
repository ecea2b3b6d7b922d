// What every SARIF 2.1.0 log of the CLI shares (`audit --format sarif`, `probe --format sarif`):
// the schema URI, the driver, rule names, artifact URIs and the fingerprint. Each writer builds
// its own rules and results; the tests validate both against the SARIF 2.1.0 JSON schema.
import { createHash } from 'node:crypto';
import { PRODUCT_VERSION } from '../export/version';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export type SarifLevel = 'error' | 'warning' | 'note' | 'none';

/** `replay-gap` → `ReplayGap` (SARIF's rule `name`: an identifier-like form of the id). */
export const ruleName = (id: string) => id.replace(/(^|[-/])([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** SARIF uri of a file given on the command line: relative paths as they are (with `/`), absolute ones as file: URIs. */
export function artifactUri(file: string): string {
  const p = file.replace(/\\/g, '/');
  if (p.startsWith('/')) return `file://${encodeURI(p)}`;
  return encodeURI(p.replace(/^\.\//, ''));
}

/**
 * partialFingerprints for one result: the sha-256 of an identity key the writer builds from what
 * stays the same across runs (never ids, ports or session ids), under a name of its own.
 */
export function fingerprint(name: string, key: string): Record<string, string> {
  return { [name]: createHash('sha256').update(key).digest('hex') };
}

/** One run of the tool, in a SARIF 2.1.0 log, as the text the CLI prints. */
export function sarifLog(run: { rules: unknown[]; results: unknown[] } & Record<string, unknown>): string {
  const { rules, results, ...rest } = run;
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mcp-stream-inspector', version: PRODUCT_VERSION, semanticVersion: PRODUCT_VERSION, rules } },
        ...rest,
        results,
        columnKind: 'unicodeCodePoints',
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
