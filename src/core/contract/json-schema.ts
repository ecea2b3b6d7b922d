// The JSON Schema of the capture file, generated from the record contract (records.ts). The
// committed schema/capture-file.schema.json is this (`npm run schema` writes it); a unit test
// fails when they differ, or when the schema and the validator disagree on generated records.
import * as z from 'zod/mini';
import { captureFile } from './records';

export const SCHEMA_ID = 'https://github.com/mcp-stream-inspector/schema/capture-file.schema.json';

export function captureFileJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(captureFile, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: SCHEMA_ID,
    title: 'MCP Stream Inspector capture file (CaptureFile v1)',
    description:
      "The product's own export: a versioned list of CaptureRecords. Generated from src/core/contract/records.ts (npm run schema); importing such a file reproduces the same analysis. Records may carry fields not listed here (later versions add optional ones).",
    ...rest,
  };
}

/** The schema as committed: two-space JSON with a final newline. */
export function captureFileJsonSchemaText(): string {
  return JSON.stringify(captureFileJsonSchema(), null, 2) + '\n';
}
