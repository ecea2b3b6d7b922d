// The SARIF 2.1.0 JSON schema (OASIS 2.1.0-rtm.5, the final 2.1.0 schema, as Microsoft's
// @microsoft/jest-sarif ships it; draft-04, hence ajv-draft-04) compiled once, for the tests of
// `audit --format sarif`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';

export type SarifValidate = ((x: unknown) => boolean) & { errors?: unknown };

const require = createRequire(import.meta.url);
export const SARIF_SCHEMA_PATH = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

export function sarifValidator(): { validate: SarifValidate; title: string } {
  const schema = JSON.parse(readFileSync(SARIF_SCHEMA_PATH, 'utf8')) as { title: string };
  // unicodeRegExp: false: the schema's `language` pattern has a stray `]` that is an error only
  // under the u flag (JavaScript reads it as a literal there, as the schema's own tools do).
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return { validate: ajv.compile(schema) as SarifValidate, title: schema.title };
}

/** Valid, or the first errors on stderr and false. */
export function isValidSarif(validate: SarifValidate, log: unknown): boolean {
  const ok = validate(log);
  if (!ok) console.error(JSON.stringify(validate.errors, null, 2).slice(0, 2000));
  return ok;
}
