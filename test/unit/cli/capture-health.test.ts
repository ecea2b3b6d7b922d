// One voice: `audit` prints each file's capture health (what the inspector lost or did not keep,
// and its notices) in text, --json, junit and github, in the same words as the Markdown report
// (src/core/presentation.ts over snapshot.capture).
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { analyzeRecords } from '../../../src/core/analyzer';
import { exportMarkdown } from '../../../src/export/markdown';
import { Capture, call, ev, initSession, progress, result } from '../core/helpers';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

const tmp = mkdtempSync(join(tmpdir(), 'msi-health-'));

function lossyCapture(): string {
  const c = new Capture();
  initSession(c);
  const post = c.request({ sessionId: 'sess-1', body: call(2) });
  c.response(post);
  c.chunk(post, ev('1', progress(2, 1)));
  c.gap([post], 3);
  c.chunk(post, ev('5', progress(2, 5)) + ev('6', result(2)));
  c.end(post);
  c.records.push({ kind: 'notice', seq: c.records.length + 1, src: 'tab1', t: c.t + 1, level: 'warning', code: 'hook-wrapped', message: 'The page wrapped fetch after the hook.' });
  const file = join(tmp, 'lossy-capture.json');
  writeFileSync(file, JSON.stringify({ format: 'mcp-stream-inspector', version: 1, createdAt: 'x', records: c.records }));
  return file;
}

describe('audit: capture health per file, in every format', () => {
  const file = lossyCapture();
  const SUMMARY = 'The inspector lost 3 record(s); 1 capture notice(s)';
  const ITEM = 'The inspector itself lost 3 record(s), reason buffer-cap (in capture source tab1; 1 connection(s) affected).';

  it('text, json, junit, github and the Markdown report say the same', async () => {
    const text = await run(['audit', file]);
    expect(text.stdout).toContain(`capture health: ${SUMMARY}\n    error capture-gap:buffer-cap: ${ITEM}\n`);
    const json = JSON.parse((await run(['audit', file, '--json'])).stdout) as { files: { file: string; capture: { summary: string; worst: string; lost: number; items: { code: string; message: string; level: string }[] } }[] };
    expect(json.files).toHaveLength(1);
    expect(json.files[0]!.file).toBe(file);
    expect(json.files[0]!.capture).toMatchObject({ summary: SUMMARY, worst: 'error', lost: 3 });
    expect(json.files[0]!.capture.items.map((x) => [x.level, x.code, x.message])).toEqual([
      ['error', 'capture-gap:buffer-cap', ITEM],
      ['warning', 'hook-wrapped', 'The page wrapped fetch after the hook.'],
    ]);
    const junit = (await run(['audit', file, '--format', 'junit'])).stdout;
    expect(junit).toContain(`<property name="capture" value="${SUMMARY}"/>`);
    expect(junit).toContain(`Capture health: ${SUMMARY}\nCapture: ERROR capture-gap:buffer-cap: ${ITEM}`);
    const github = (await run(['audit', file, '--format', 'github'])).stdout;
    expect(github).toMatch(new RegExp(`^::error title=capture health,file=[^:]*::${SUMMARY.replace(/[()]/g, '\\$&')}$`, 'm'));
    const { importText } = await import('../../../src/core/import/index');
    const { readFileSync } = await import('node:fs');
    const md = exportMarkdown(analyzeRecords(importText(readFileSync(file, 'utf8')).records), { createdAt: 'now' });
    expect(md).toContain(`- Capture: ⛔ error ${SUMMARY}`);
    expect(md).toContain('`capture-gap:buffer-cap`: The inspector itself lost 3 record(s), reason buffer-cap (in capture source tab1; 1 connection(s) affected).');
  });

  it('a clean file says it is complete', async () => {
    const text = await run(['audit', 'test/fixtures/captures/lossless.capture.json']);
    expect(text.stdout).toContain('capture health: complete: the inspector lost no records and has no notice about capture\n');
  });

  it('a HAR without the bodies of cut streams: not the inspector\'s loss', async () => {
    const json = JSON.parse((await run(['audit', 'test/fixtures/captures/browser/dropped-result.playwright.har', '--json'])).stdout) as { files: { capture: { summary: string; worst: string; lost: number } }[] };
    expect(json.files[0]!.capture).toMatchObject({ summary: 'The file holds no body for 2 response(s)', worst: 'warning', lost: 0 });
  });
});
