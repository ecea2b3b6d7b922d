// Issue 19's client findings in every `audit` format: the re-issued destructive tool (SDK v2), the
// result in a named event (SDK v1), duplicated output (SDK v1). Fails before issue 19 (no such codes).
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';

const DIR = 'test/fixtures/captures/';
async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}
const FILES = [`${DIR}v2/playwright-shape/modern-reissue-destructive.har`, `${DIR}result-event-type.capture.json`, `${DIR}duplicate-replay.capture.json`];

describe('audit: findings about the client', () => {
  it('text: the codes, the explanation and what to do; exit 1 (errors)', async () => {
    const r = await run(['audit', ...FILES]);
    expect(r.code).toBe(1);
    for (const s of ['destructive-tool-rerun', 'purge_task', 'result-not-taken', 'SSE event of type "result"', 'duplicate-output-accepted', 'duplicated', 'What to do: Before re-issuing a tool call'])
      expect(r.stdout).toContain(s);
    expect(r.stdout).not.toMatch(/(ERROR|WARNING) +result-missing/);
  });

  it('json: codes, severities, related requests and advice', async () => {
    const j = JSON.parse((await run(['audit', ...FILES, '--json'])).stdout) as { findings: { code: string; severity: string; requestId: unknown; relatedRequestIds: unknown[]; advice?: string }[]; sessions: { requests: { verdict: string }[] }[] };
    const d = j.findings.find((f) => f.code === 'destructive-tool-rerun')!;
    expect(d).toMatchObject({ severity: 'error', requestId: 2, relatedRequestIds: [1] });
    expect(d.advice).toContain('idempotency key');
    expect(j.findings.find((f) => f.code === 'result-not-taken')).toMatchObject({ severity: 'error', requestId: 2 });
    expect(j.findings.find((f) => f.code === 'duplicate-output-accepted')).toMatchObject({ severity: 'error' });
    expect(j.sessions.flatMap((s) => s.requests.map((q) => q.verdict))).toContain('duplicated');
  });

  it('junit and github: one failure / annotation per client finding, with its advice', async () => {
    const x = (await run(['audit', ...FILES, '--format', 'junit'])).stdout;
    expect(x).toContain('type="destructive-tool-rerun"');
    expect(x).toContain('result-not-taken');
    expect(x).toContain('What to do:');
    const g = (await run(['audit', ...FILES, '--format', 'github'])).stdout;
    expect(g).toMatch(/::error [^\n]*destructive-tool-rerun[^\n]*::[^\n]*purge_task/);
    expect(g).toMatch(/::error [^\n]*result-not-taken/);
    expect(g).toMatch(/::error [^\n]*duplicate-output-accepted/);
  });
});
