// Issue 19's client findings and the `duplicated` verdict in the exports (Markdown report, OTLP,
// Trace Event Format) on the real SDK captures. Fails before issue 19 (no such codes or verdict).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import { exportMarkdown, exportTrace } from '../../../src/export';
import { toOtlp } from '../../../src/export/otlp';

const load = (f: string) => analyzeRecords(importText(readFileSync('test/fixtures/captures/' + f, 'utf8')).records);

describe('exports: findings about the client', () => {
  it('Markdown: the destructive re-run with its advice; a duplicated request has its own section', () => {
    const md = exportMarkdown(load('v2/playwright-shape/modern-reissue-destructive.har'));
    expect(md).toMatch(/`destructive-tool-rerun`[^\n]*purge\\_task/);
    expect(md).toContain('What to do: Before re-issuing a tool call');
    const dup = exportMarkdown(load('duplicate-replay.capture.json'));
    expect(dup).toContain('result accepted over duplicated output');
    expect(dup).toContain('Verdict `duplicated`');
    expect(dup).toContain('Event ids delivered twice: 10');
    const nt = exportMarkdown(load('result-event-type.capture.json'));
    expect(nt).toMatch(/`result-not-taken`/);
    expect(nt).not.toMatch(/`result-missing`/);
  });

  it('OTLP: the duplicated call is a span with status ERROR and error.type duplicate-output-accepted; the finding events carry the new codes', () => {
    const o = JSON.stringify(toOtlp(load('duplicate-replay.capture.json')));
    expect(o).toContain('"duplicate-output-accepted"');
    expect(o).toContain('"mcp_stream_inspector.request.verdict","value":{"stringValue":"duplicated"}');
    expect(o).toContain('"error.type","value":{"stringValue":"duplicate-output-accepted"}');
    const r = JSON.stringify(toOtlp(load('v2/modern-reissue-destructive.capture.json')));
    expect(r).toContain('"destructive-tool-rerun"');
  });

  it('Trace Event Format names the verdict', () => {
    expect(exportTrace(load('duplicate-replay.capture.json'))).toContain('duplicated');
  });
});
