// Pins the full analysis (every field of the snapshot) of the inputs in pinned-cases.ts: the
// hashes in pinned.json were taken before the core's push path was optimised, so representation
// changes for speed cannot change a result unnoticed. A deliberate change of the analysis
// regenerates them: PINNED_UPDATE=1 npx vitest run --project unit test/unit/core/pinned.test.ts
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import { parseIdGeneric, parseIdRegex } from '../../../src/core/ids';
import { pinnedCases } from './pinned-cases';

const FILE = 'test/unit/core/pinned.json';

describe('pinned analysis results', () => {
  it('every pinned input gives the same snapshot as before', () => {
    const got: Record<string, string> = {};
    const counts: Record<string, number> = {};
    for (const [name, recs] of pinnedCases(importText)) {
      const snap = analyzeRecords(recs);
      got[name] = createHash('sha256').update(JSON.stringify(snap)).digest('hex');
      counts[name] = snap.findings.length;
    }
    if (process.env.PINNED_UPDATE) writeFileSync(FILE, JSON.stringify(got, null, 2) + '\n');
    expect(got).toEqual(JSON.parse(readFileSync(FILE, 'utf8')));
    // The generated inputs do exercise the analysis (gaps, duplicates, reorders, resumes).
    expect(counts['hostile-drop']).toBeGreaterThan(10);
    expect(counts['hostile-dup']).toBeGreaterThan(10);
    expect(counts['hostile-mixed']).toBeGreaterThan(3);
  });

  it('the hand-written id parser is the regex definition', () => {
    const id = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.tuple(fc.constantFrom('', 's1-', 'a_', 'x\u2028', '\n', '7', '0'), fc.stringMatching(/^[0-9]{0,18}$/)).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(id, (x) => {
        expect(parseIdGeneric(x)).toEqual(parseIdRegex(x));
      }),
      { numRuns: 5000 },
    );
  });
});
