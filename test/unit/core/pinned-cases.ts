// Inputs whose full analysis is pinned by pinned.test.ts (hashes in pinned.json): every fixture
// capture (our format and HAR) and generated streams shaped like the benchmark's and the hostile
// micro benchmarks'. Performance work on the core must leave each snapshot byte for byte the same.
import { readFileSync, readdirSync } from 'node:fs';
import type { CaptureRecord } from '../../../src/core/record';
import { buildCapture } from '../../../bench/lib/workload';

const DIR = 'test/fixtures/captures/';

type ImportText = (text: string) => { records: CaptureRecord[] };

function hostile(n: number, mode: 'drop' | 'dup' | 'mixed'): CaptureRecord[] {
  const url = 'http://h/mcp';
  let seq = 0;
  const out: CaptureRecord[] = [
    { kind: 'request', seq: ++seq, src: 's', t: 1, conn: 'p', transport: 'fetch', method: 'POST', url, headers: [['mcp-session-id', 'S']], body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"tok"}}}' },
    { kind: 'response', seq: ++seq, src: 's', t: 2, conn: 'p', status: 200, statusText: '', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' },
  ];
  let text = '';
  for (let k = 1; k <= n; k++) {
    if (mode === 'drop' && k % 10 === 5) continue;
    const id = mode === 'dup' ? Math.ceil(k / 2) : k;
    const eol = mode === 'mixed' ? ['\n', '\r\n', '\r'][k % 3]! : '\n';
    const data =
      k % 3 === 0
        ? `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"chunk ${k}"}}`
        : k % 3 === 1
          ? `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":${mode === 'mixed' && k % 7 === 0 ? k - 5 : k}}}`
          : k % 11 === 0
            ? 'not json'
            : `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${k % 4 === 0 ? 7 : '"tok"'},"progress":${k}}}`;
    text += `id: ${mode === 'mixed' && k % 13 === 0 ? 'x' + id : String(id).padStart(mode === 'mixed' ? 4 : 0, '0')}${eol}${k % 5 === 0 ? `event: message${eol}` : ''}data: ${data}${eol}${eol}`;
    if (k % 37 === 0) {
      out.push({ kind: 'chunk', seq: ++seq, src: 's', t: 3 + k, conn: 'p', text: text.slice(0, 20), bytes: 20 });
      out.push({ kind: 'chunk', seq: ++seq, src: 's', t: 3 + k, conn: 'p', text: text.slice(20), bytes: text.length - 20 });
      text = '';
    }
  }
  text += `id: ${n + 1}\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`;
  out.push({ kind: 'chunk', seq: ++seq, src: 's', t: 9e6, conn: 'p', text, bytes: text.length });
  out.push({ kind: 'end', seq: ++seq, src: 's', t: 9e6 + 1, conn: 'p', how: 'network-error' });
  out.push({ kind: 'request', seq: ++seq, src: 's', t: 9e6 + 2, conn: 'g', transport: 'fetch', method: 'GET', url, headers: [['mcp-session-id', 'S'], ['last-event-id', String(Math.floor(n / 2))]], body: null });
  out.push({ kind: 'response', seq: ++seq, src: 's', t: 9e6 + 3, conn: 'g', status: 200, statusText: '', headers: [['content-type', 'text/event-stream']], url, redirected: false, type: 'basic', capture: 'sse' });
  const replay = `id: ${Math.floor(n / 2) + 3}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n`;
  out.push({ kind: 'chunk', seq: ++seq, src: 's', t: 9e6 + 4, conn: 'g', text: replay, bytes: replay.length });
  out.push({ kind: 'end', seq: ++seq, src: 's', t: 9e6 + 5, conn: 'g', how: 'complete' });
  return out;
}

export function pinnedCases(importText: ImportText): [string, CaptureRecord[]][] {
  const cases: [string, CaptureRecord[]][] = [];
  for (const f of readdirSync(DIR).sort()) {
    if (!f.endsWith('.capture.json') && !f.endsWith('.har')) continue;
    cases.push([f, importText(readFileSync(DIR + f, 'utf8')).records]);
  }
  cases.push(['bench-3000', buildCapture(3000, 200, 4096).records]);
  for (const mode of ['drop', 'dup', 'mixed'] as const) cases.push([`hostile-${mode}`, hostile(1500, mode)]);
  return cases;
}
