// Issue 19: the findings about the client in `audit`'s every format (text, --json, junit, github)
// and the Markdown export, on the committed captures of the real SDK clients.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import';
import { exportMarkdown } from '../../../src/export/markdown';

const CAPTURES = join(__dirname, '..', '..', 'fixtures', 'captures');

async function run(argv: string[]) {
  let stdout = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: () => {} });
  return { code, stdout };
}

const CASES: [file: string, code: string, level: 'error' | 'warning'][] = [
  ['evicted.har', 'resume-cursor-lost', 'warning'],
  ['v2/legacy-lossy-fed-forward.har', 'lossy-output-carried', 'error'],
  ['resume-loop.har', 'client-retry-loop', 'warning'],
  ['v2/modern-listen-narrowed.har', 'listen-narrowed', 'error'],
];

describe('audit and the Markdown export name the findings about the client', () => {
  it.each(CASES)('%s: %s', async (name, code, level) => {
    const file = join(CAPTURES, name);
    const snap = analyzeRecords(importText(readFileSync(file, 'utf8')).records);
    const f = snap.findings.find((x) => x.code === code)!;
    expect(f).toBeDefined();
    const text = (await run(['audit', file])).stdout;
    expect(text).toContain(code);
    const json = JSON.parse((await run(['audit', file, '--json'])).stdout);
    const all = JSON.stringify(json);
    expect(all).toContain(`"code":"${code}"`);
    expect(all).toContain(JSON.stringify(f.message).slice(1, 80));
    const junit = (await run(['audit', file, '--format', 'junit'])).stdout;
    // Warnings go to the test case's output, errors are failures (the default --fail-on error).
    expect(junit).toContain(level === 'error' ? `<failure message="${code}:` : `WARNING ${code}`);
    const github = (await run(['audit', file, '--format', 'github'])).stdout;
    expect(github).toMatch(new RegExp(`^::(error|warning) title=${code}`, 'm'));
    if (level === 'error') expect(github).toMatch(new RegExp(`^::error title=${code}`, 'm'));
    expect(exportMarkdown(snap)).toContain(`\`${code}\``);
  });

  it('the carried link in text, --json (carriesFrom / carriedInto, links) and the Markdown export', async () => {
    const file = join(CAPTURES, 'v2/legacy-lossy-fed-forward.har');
    expect((await run(['audit', file])).stdout).toMatch(/link: request 3's arguments carry \d+ characters of request 2's lossy result/);
    const all = JSON.stringify(JSON.parse((await run(['audit', file, '--json'])).stdout));
    expect(all).toContain('"carriesFrom":2');
    expect(all).toContain('"carriedInto":3');
    expect(all).toContain('"kind":"carried"');
    const md = exportMarkdown(analyzeRecords(importText(readFileSync(file, 'utf8')).records));
    expect(md).toMatch(/Output carried forward: request 3's arguments carry \d+ characters of request 2's lossy result/);
  });
});
