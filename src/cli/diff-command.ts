// `mcp-stream-inspector diff <base> <head>`: two runs of one scenario compared (src/core/diff).
// Exit status as `git diff --exit-code`: 0 no difference, 1 differences, 2 bad input or usage.
import { parseArgs } from 'node:util';
import { diffSnapshots } from '../core/diff/index';
import { renderDiff } from './format-diff';
import { loadInputs, maxBytesOf, NAME } from './inputs';
import { terminalSafe } from './report';

export const DIFF_USAGE = `Usage: ${NAME} diff <base> <head> [--json]
       ${NAME} diff --base <file> [--base <file>...] --head <file> [--head <file>...] [--json]

Compare two runs of the same scenario (captures or HARs) and print what is new in head, gone
from base and changed: findings, verdicts, resumes (reconnect chains) and eras.

Runs are compared by role, never by JSON-RPC id, Mcp-Session-Id, connection id or time: servers
by endpoint (origin + path; another port or host is matched by host and path, then by path),
sessions by endpoint, era and order, requests by method, tool name and order. A finding is the
same in both runs when its code, session and request (or, for a finding about no request, its
stream's role) are; the ids a gap misses count only when both runs number events with the same
counter (then other ids are a change). See docs/ci.md.

  <base> <head>      one file each: HAR 1.2 or a capture (*.msi.json / CaptureFile)
  --base FILE        a file of the base run (repeat for a run recorded in several files)
  --head FILE        a file of the head run (repeat likewise)
  --json             the structured diff (src/core/diff/types.ts SnapshotDiff) instead of text
  --exit-code        accepted for git's sake: the exit status is always as below
  --max-size MB      refuse input files larger than MB megabytes
  -h, --help         show this help

Exit status: 0 no difference, 1 differences, 2 unreadable input or bad usage.
`;

export async function diffCommand(argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        base: { type: 'string', multiple: true },
        head: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        'exit-code': { type: 'boolean' },
        'max-size': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.stderr(`${NAME} diff: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} (see ${NAME} diff --help)\n`);
    return 2;
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    io.stdout(DIFF_USAGE);
    return 0;
  }
  let base: string[];
  let head: string[];
  if (v.base || v.head) {
    if (positionals.length || !v.base?.length || !v.head?.length) {
      io.stderr(`${NAME} diff: with --base and --head, give both and no other file (see ${NAME} diff --help)\n`);
      return 2;
    }
    base = v.base;
    head = v.head;
  } else {
    if (positionals.length !== 2) {
      io.stderr(`${NAME} diff: needs two files, <base> <head>, not ${positionals.length} (or --base/--head; see ${NAME} diff --help)\n`);
      return 2;
    }
    base = [positionals[0]!];
    head = [positionals[1]!];
  }
  const limit = maxBytesOf(v['max-size']);
  if (typeof limit === 'string') {
    io.stderr(limit);
    return 2;
  }
  const b = await loadInputs(base, limit, io.stderr);
  if (!b) return 2;
  const h = await loadInputs(head, limit, io.stderr);
  if (!h) return 2;
  const d = diffSnapshots(
    b.map((x) => x.snap),
    h.map((x) => x.snap),
  );
  try {
    if (v.json) io.stdout(JSON.stringify({ ...d, base: { files: base }, head: { files: head } }, null, 2) + '\n');
    else io.stdout(renderDiff(d, base.map(terminalSafe), head.map(terminalSafe)));
  } catch (e) {
    io.stderr(`${NAME} diff: cannot print the diff (${e instanceof Error ? e.message.split('\n')[0] : String(e)})\n`);
    return 2;
  }
  return d.same ? 0 : 1;
}
