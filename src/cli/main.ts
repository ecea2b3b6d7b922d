// The `mcp-stream-inspector` command. `main` never throws for bad input: it prints one line and
// returns 2. Exit 1 when a finding is at or above --fail-on.
import { parseArgs } from 'node:util';
import { baselineStates, type BaselineStatus } from '../core/diff/index';
import type { Finding } from '../core/model';
import { renderHuman, terminalSafe, toAuditJson } from './report';
import { fails, failsAgainst, noticesOf, type AuditInput } from './audit-input';
import { renderBaselineSummary, baselineJson } from './baseline';
import { diffCommand } from './diff-command';
import { renderSarif } from './format-sarif';
import { DEFAULT_MAX_MB, loadInputs, maxBytesOf, NAME } from './inputs';
import { renderGithub } from './format-github';
import { renderJunit } from './format-junit';
import { PRODUCT_VERSION } from '../export/version';
import { serveCommand } from './serve/command';
import { mcpCommand } from './mcp/command';

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const defaultIo: Io = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
};

export { DEFAULT_MAX_MB };

export const USAGE = `Usage: ${NAME} audit <file...> [--json] [--fail-on error|warning|never] [--format text|json|junit|github|sarif] [--baseline <file>...] [--allow-empty]
       ${NAME} diff <base> <head> [--json]
       ${NAME} serve <file> (see ${NAME} serve --help)

Audit saved MCP Streamable HTTP traffic for event-id gaps across reconnects and results the
client accepted over lossy or unverifiable replays.

  <file...>          HAR 1.2 files (Chrome DevTools "Save all as HAR with content", Playwright
                     recordHar, HARs with _eventSourceMessages) or captures exported by the
                     inspector (*.msi.json)
  --format FORMAT    text (default): the report for people
                     json: { version, sessions, findings } (and notices, when the files carry any;
                     baseline, with --baseline)
                     junit: JUnit XML, one test case per JSON-RPC request, failing at --fail-on
                     github: GitHub Actions annotations (::error / ::warning / ::notice)
                     sarif: SARIF 2.1.0 for code scanning; one rule per finding code (with its
                     explanation), one result per finding, levels error / warning / note
  --json             the same as --format json
  --fail-on LEVEL    exit 1 when a finding is at or above LEVEL: error (default), warning, never;
                     in junit, the test cases with such a finding fail
  --baseline FILE    a capture or HAR of a known-good (or known) run of the same scenario (repeat
                     for several files): only findings the baseline does not have fail, matched
                     as diff matches them (code, session, request by method, tool name and
                     order); the report says how many the baseline has (suppressed). A finding
                     the baseline has below --fail-on that is now at or above it fails too.
  --allow-empty      a file without MCP traffic does not fail (by default it does: nothing in it
                     was checked, as when a recording filter left the MCP requests out)
  --max-size MB      refuse input files larger than MB megabytes (default ${DEFAULT_MAX_MB})
  -V, --version      print the version
  -h, --help         show this help

Exit status: 0 no finding at or above --fail-on (not in the baseline), 1 there is one (or a file
holds no MCP traffic, without --allow-empty), 2 unreadable input or bad usage. Finding codes are explained in docs/findings.md.

${NAME} diff <base> <head>: two runs of one scenario compared (new, gone and changed findings,
verdicts, resumes, eras); exit 0 no difference, 1 differences, 2 bad input (see ${NAME} diff --help).
CI recipes (baseline gate, SARIF upload, Playwright HAR): docs/ci.md.

A capture served back as an MCP server: ${NAME} serve <file> (see ${NAME} serve --help).
A live server graded on Last-Event-ID resumption: ${NAME} probe <url> (see ${NAME} probe --help).
The inspector as an MCP server for coding agents: ${NAME} mcp (see ${NAME} mcp --help).
`;

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  if (argv[0] === 'serve') return serveCommand(argv.slice(1), io);
  if (argv[0] === 'mcp') return mcpCommand(argv.slice(1), io);
  if (argv[0] === 'diff') return diffCommand(argv.slice(1), io);
  // Loaded on demand: the SDK client it drives is most of its size, and `audit` needs none of it.
  if (argv[0] === 'probe') return (await import('./probe/command')).probeCommand(argv.slice(1), io);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        format: { type: 'string' },
        version: { type: 'boolean', short: 'V' },
        'fail-on': { type: 'string' },
        'max-size': { type: 'string' },
        baseline: { type: 'string', multiple: true },
        'allow-empty': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.stderr(`${NAME}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} (see --help)\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if (values.version) {
    io.stdout(`${NAME} ${PRODUCT_VERSION}\n`);
    return 0;
  }
  const [command, ...files] = positionals;
  if (command === undefined) {
    io.stderr(`${NAME}: missing command; try "${NAME} audit <file...>" (see --help)\n`);
    return 2;
  }
  if (command !== 'audit') {
    io.stderr(`${NAME}: unknown command "${command}"; the commands are "audit", "diff", "serve", "probe" and "mcp" (see --help)\n`);
    return 2;
  }
  if (files.length === 0) {
    io.stderr(`${NAME}: audit needs at least one file (see --help)\n`);
    return 2;
  }
  const failOn = values['fail-on'] ?? 'error';
  if (failOn !== 'error' && failOn !== 'warning' && failOn !== 'never') {
    io.stderr(`${NAME}: --fail-on must be error, warning or never, not "${failOn}"\n`);
    return 2;
  }

  const format = values.format ?? (values.json ? 'json' : 'text');
  if (format !== 'text' && format !== 'json' && format !== 'junit' && format !== 'github' && format !== 'sarif') {
    io.stderr(`${NAME}: --format must be text, json, junit, github or sarif, not "${terminalSafe(format)}"\n`);
    return 2;
  }
  if (values.json && format !== 'json') {
    io.stderr(`${NAME}: --json is --format json; it cannot go with --format ${format}\n`);
    return 2;
  }

  const limit = maxBytesOf(values['max-size']);
  if (typeof limit === 'string') {
    io.stderr(limit);
    return 2;
  }
  const loaded = await loadInputs(files, limit, io.stderr);
  if (!loaded) return 2;
  const audited: AuditInput[] = loaded.map((x) => ({ ...x, notices: noticesOf(x.snap) }));

  // --baseline: the findings a baseline run of the same scenario has do not fail (src/core/diff).
  let baseline: { files: string[]; states: BaselineStatus[] } | undefined;
  if (values.baseline?.length) {
    const b = await loadInputs(values.baseline, limit, io.stderr);
    if (!b) return 2;
    baseline = {
      files: values.baseline,
      states: baselineStates(
        b.map((x) => x.snap),
        audited.map((x) => x.snap),
      ),
    };
  }
  const known = new Set<Finding>((baseline?.states ?? []).filter((x) => !failsAgainst(x, failOn)).map((x) => x.finding));

  try {
    if (format === 'json') {
      const notices = audited.flatMap((a) => a.notices.map((n) => ({ file: a.file, ...n })));
      io.stdout(JSON.stringify({ ...toAuditJson(audited), ...(notices.length ? { notices } : {}), ...(baseline ? { baseline: baselineJson(baseline, failOn) } : {}) }, null, 2) + '\n');
    } else if (format === 'junit') io.stdout(renderJunit(audited, failOn, known));
    else if (format === 'sarif') io.stdout(renderSarif(audited, baseline ? { baseline } : {}));
    else if (format === 'github') io.stdout(renderGithub(audited, known));
    else {
      audited.forEach((a, i) => {
        if (i > 0) io.stdout('\n');
        io.stdout(renderHuman(a.file, a.format, a.snap, a.notices));
      });
      if (baseline) io.stdout(renderBaselineSummary(baseline, audited, failOn));
    }
  } catch (e) {
    io.stderr(`${NAME}: cannot print the report (${e instanceof Error ? e.message.split('\n')[0] : String(e)})\n`);
    return 2;
  }

  if (failOn === 'never') return 0;
  // A gate that checked nothing must not pass: a file without MCP traffic (a recording filter that
  // left the MCP requests out, a moved endpoint, a HAR saved without them) holds no finding either.
  const empty = values['allow-empty'] ? [] : audited.filter((a) => a.snap.sessions.length === 0);
  for (const a of empty) io.stderr(`${NAME}: ${terminalSafe(a.file)}: no MCP traffic found, so nothing in it was checked; pass --allow-empty when a file may hold none\n`);
  if (empty.length > 0) return 1;
  const all = audited.flatMap((a) => a.snap.findings);
  return all.some((f) => fails(f, failOn) && !known.has(f)) ? 1 : 0;
}
