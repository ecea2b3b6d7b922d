// The `mcp-stream-inspector` command. `main` never throws for bad input: it prints one line and
// returns 2. Exit 1 when a finding is at or above --fail-on.
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeRecords } from '../core/analyzer';
import { SEVERITY_RANK } from '../core/presentation';
import { IMPORT_LIMIT_BYTES, importText, isImportError, type Imported } from '../core/import/index';
import type { AnalysisSnapshot, Severity } from '../core/model';
import { renderHuman, terminalSafe, toAuditJson, worstSeverity } from './report';
import { noticesOf, type AuditInput } from './audit-input';
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

const NAME = 'mcp-stream-inspector';

/**
 * Largest input file, in MB (10^6 bytes). A file is read whole and parsed as JSON, which takes a
 * few times its size in memory: above this the command says so instead of running out of heap.
 * `--max-size` changes it.
 */
export const DEFAULT_MAX_MB = IMPORT_LIMIT_BYTES / 1e6;

export const USAGE = `Usage: ${NAME} audit <file...> [--json] [--fail-on error|warning|never] [--format text|json|junit|github]

Audit saved MCP Streamable HTTP traffic for event-id gaps across reconnects and results the
client accepted over lossy or unverifiable replays.

  <file...>          HAR 1.2 files (Chrome DevTools "Save all as HAR with content", Playwright
                     recordHar, HARs with _eventSourceMessages) or captures exported by the
                     inspector (*.msi.json)
  --format FORMAT    text (default): the report for people
                     json: { version, sessions, findings } (and notices, when the files carry any)
                     junit: JUnit XML, one test case per JSON-RPC request, failing at --fail-on
                     github: GitHub Actions annotations (::error / ::warning / ::notice)
  --json             the same as --format json
  --fail-on LEVEL    exit 1 when a finding is at or above LEVEL: error (default), warning, never;
                     in junit, the test cases with such a finding fail
  --max-size MB      refuse input files larger than MB megabytes (default ${DEFAULT_MAX_MB})
  -V, --version      print the version
  -h, --help         show this help

Exit status: 0 no finding at or above --fail-on, 1 there is one, 2 unreadable input or bad usage.
Finding codes are explained in docs/findings.md.

A capture served back as an MCP server: ${NAME} serve <file> (see ${NAME} serve --help).
The inspector as an MCP server for coding agents: ${NAME} mcp (see ${NAME} mcp --help).
`;

function fsError(e: unknown): string {
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return e instanceof Error ? e.message.split('\n')[0]! : String(e);
  }
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  if (argv[0] === 'serve') return serveCommand(argv.slice(1), io);
  if (argv[0] === 'mcp') return mcpCommand(argv.slice(1), io);
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
    io.stderr(`${NAME}: unknown command "${command}"; the commands are "audit", "serve" and "mcp" (see --help)\n`);
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
  if (format !== 'text' && format !== 'json' && format !== 'junit' && format !== 'github') {
    io.stderr(`${NAME}: --format must be text, json, junit or github, not "${terminalSafe(format)}"\n`);
    return 2;
  }
  if (values.json && format !== 'json') {
    io.stderr(`${NAME}: --json is --format json; it cannot go with --format ${format}\n`);
    return 2;
  }

  const maxMb = values['max-size'] === undefined ? DEFAULT_MAX_MB : Number(values['max-size']);
  if (!Number.isFinite(maxMb) || maxMb <= 0) {
    io.stderr(`${NAME}: --max-size must be a positive number of megabytes, not "${terminalSafe(values['max-size'] ?? '')}"\n`);
    return 2;
  }
  const maxBytes = Math.floor(maxMb * 1e6);

  const inputs: { file: string; imported: Imported }[] = [];
  for (const file of files) {
    const name = terminalSafe(file);
    let text: string;
    try {
      const st = await stat(file);
      if (st.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
      if (st.size > maxBytes) {
        io.stderr(`${NAME}: ${name}: the file is ${(st.size / 1e6).toFixed(1)} MB, over the ${maxMb} MB limit (raise it with --max-size)\n`);
        return 2;
      }
      text = await readFile(file, 'utf8');
    } catch (e) {
      io.stderr(`${NAME}: ${name}: ${terminalSafe(fsError(e))}\n`);
      return 2;
    }
    try {
      // Playwright's `content: 'attach'` keeps bodies in files beside the HAR.
      const readAttachment = (name: string): Uint8Array | undefined => {
        try {
          return readFileSync(join(dirname(file), basename(name)));
        } catch {
          return undefined;
        }
      };
      inputs.push({ file, imported: importText(text, { readAttachment }) });
    } catch (e) {
      const msg = isImportError(e) ? e.message : `cannot read it (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
      io.stderr(`${NAME}: ${name}: ${terminalSafe(msg)}\n`);
      return 2;
    }
  }

  const snaps: AnalysisSnapshot[] = [];
  for (const { file, imported } of inputs) {
    try {
      snaps.push(analyzeRecords(imported.records));
    } catch (e) {
      // Should not happen (the analyzer tolerates any records); still one line, no stack.
      io.stderr(`${NAME}: ${terminalSafe(file)}: analysis failed (${terminalSafe(e instanceof Error ? e.message.split('\n')[0]! : String(e))})\n`);
      return 2;
    }
  }

  const audited: AuditInput[] = inputs.map(({ file, imported }, i) => ({
    file,
    format: imported.format === 'har' ? 'HAR' : imported.format === 'capture' ? 'capture' : 'records',
    snap: snaps[i]!,
    notices: noticesOf(snaps[i]!),
  }));
  try {
    if (format === 'json') {
      const notices = audited.flatMap((a) => a.notices.map((n) => ({ file: a.file, ...n })));
      io.stdout(JSON.stringify({ ...toAuditJson(audited), ...(notices.length ? { notices } : {}) }, null, 2) + '\n');
    } else if (format === 'junit') io.stdout(renderJunit(audited, failOn));
    else if (format === 'github') io.stdout(renderGithub(audited));
    else {
      audited.forEach((a, i) => {
        if (i > 0) io.stdout('\n');
        io.stdout(renderHuman(a.file, a.format, a.snap, a.notices));
      });
    }
  } catch (e) {
    io.stderr(`${NAME}: cannot print the report (${e instanceof Error ? e.message.split('\n')[0] : String(e)})\n`);
    return 2;
  }

  if (failOn === 'never') return 0;
  const worst = worstSeverity(snaps);
  return worst !== undefined && SEVERITY_RANK[worst] >= SEVERITY_RANK[failOn as Severity] ? 1 : 0;
}
