// npm run schema: writes schema/capture-file.schema.json from the record contract
// (src/core/contract/records.ts). test/unit/core/contract.test.ts fails while it is stale.
import { writeFileSync } from 'node:fs';
import { captureFileJsonSchemaText } from '../src/core/contract/json-schema';

writeFileSync(new URL('../schema/capture-file.schema.json', import.meta.url), captureFileJsonSchemaText());
process.stdout.write('wrote schema/capture-file.schema.json\n');
