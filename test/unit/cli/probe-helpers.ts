// Runs `probe` in-process against a server on 127.0.0.1 with small k, short pacing and timeouts,
// and returns the JSON report card.
import { probeCommand } from '../../../src/cli/probe/command.js';
import type { ReportCard } from '../../../src/cli/probe/types.js';

export const QUICK = ['--timeout', '1500', '--pace', '10', '--pace-for', '100', '--listen', '200'];
export const LONG_TASK = ['--tool', 'long_task', '--args', '{"chunks":4,"delayMs":10}'];
/** Enough to fill loopback socket buffers (~4 MB) while the reader is slow. */
export const FLOOD = ['--tool', 'flood', '--args', '{"parts":200,"bytes":32768}', '--timeout', '5000', '--pace', '100', '--pace-for', '1000', '--listen', '200'];

export async function probe(url: string, argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await probeCommand([url, ...argv], { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) }, env);
  return { code, stdout, stderr };
}

export async function card(url: string, argv: string[] = [...LONG_TASK, ...QUICK]): Promise<{ code: number; card: ReportCard }> {
  const r = await probe(url, [...argv, '--format', 'json']);
  if (r.code === 2) throw new Error(`probe failed: ${r.stderr}`);
  return { code: r.code, card: JSON.parse(r.stdout) as ReportCard };
}

export const verdicts = (c: ReportCard) => Object.fromEntries([...c.conditions, ...c.checks].map((g) => [g.key, g.verdict]));
export const because = (c: ReportCard, key: string) => [...c.conditions, ...c.checks].find((g) => g.key === key)!.because;
