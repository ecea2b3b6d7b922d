// `mcp-stream-inspector probe <url>`: parses the options, applies the safety rules, runs the
// experiments (run.ts), prints the report card and saves the captures. Exit 1 when the card fails
// the run at --fail-on (grade.ts's runFails, which the JUnit cases follow too), else 0; 2: bad
// usage or the server could not be probed.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { exportJson } from '../../export/json';
import { terminalSafe } from '../report';
import { shownUrl } from './credentials';
import { hasShortSecret, redactRecords, redactText, SHORT_NOTE } from './redact';
import { renderJson, renderJunit, renderText } from './render';
import { runFails, type FailOn } from './grade';
import { renderSarif } from './render-sarif';
import { ProbeError, runProbe } from './run';
import { HEADERS_ENV, isLoopback, parseHeaders, secretsOf, type ProbeSettings } from './settings';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const NAME = 'mcp-stream-inspector probe';

export const PROBE_USAGE = `Usage: ${NAME} <url> [--tool NAME --args JSON] [options]

Drives a live MCP server (Streamable HTTP) with the official SDK client through experiments (a
baseline call of a streaming tool, cuts and resumes with Last-Event-ID, a slow reader, resumes with
unknown, malformed and evicted cursors and from a second session, the standalone GET stream),
records every exchange, analyses it, and grades the server on the conditions of sound resumption:
gapless retention, drops only idempotent, terminal pinned, gap signalled, session scoping; and
checks priming events, ids unique across streams and resumes answered promptly (a browser holds
every later GET to the endpoint while a resume waits for its headers).

  <url>                the MCP endpoint, e.g. http://127.0.0.1:3000/mcp
  --tool NAME          the streaming tool to call (default: the first tool annotated
                       readOnlyHint: true, or allowed with --allow-tool, that streams progress or
                       log notifications)
  --args JSON          its arguments (default {})
  --allow-tool NAME    allow calling a tool that is not annotated readOnlyHint (repeatable); the
                       probe never calls any other tool
  --era ERA            legacy (2025, Last-Event-ID: the SDK v1 client), modern (2026-07-28: the
                       SDK v2 client; re-issue and listen experiments) or auto (default: what the
                       SDK v2 client's negotiation settles on)
  --header 'N: V'      a request header, e.g. authorization (repeatable); also from the
                       environment, ${HEADERS_ENV} (one 'Name: value' per line). Values are never
                       printed and are redacted in saved captures
  --remote             allow a server that is not on this machine (loopback only by default)
  --format FORMAT      text (default), json, junit, sarif (SARIF 2.1.0 for code scanning: a
                       result per failed condition and experiment, a security result for a
                       cross-session leak, a note per unknown condition; with --out, results
                       point at the saved captures)
  --out DIR            save the captures (*.msi.json: open them in the panel or \`audit\` them)
  --slow               also wait past the server's retention for the evicted-cursor experiment
  --retention MS       how long --slow waits (default 60000)
  --timeout MS         per tool call (default 10000)
  --pace MS            slow reader: one event per MS (default 50) ...
  --pace-for MS        ... for MS from the first read (default 2000)
  --listen MS          how long a resumed or standalone stream is read (default 500)
  --fail-on LEVEL      exit 1 on: fail (default: a condition failed, ids repeat across streams,
                       or a security finding; priming and resume-prompt failures only warn),
                       not-yes (also when resumption is "not shown"), never
  -h, --help           show this help

Examples:
  ${NAME} http://127.0.0.1:3000/mcp --tool long_task --args '{"chunks":8}'
  ${NAME} http://127.0.0.1:3000/mcp --tool long_task --format sarif --out probe/ > probe.sarif

Without --tool (and no read-only tool that streams), nothing is called and the answer is "not
shown". The tool is called for real, up to six times (a baseline, up to four cuts, a slow
reader; without --tool, each read-only candidate once until one streams).

Exit status: 0 no failure at --fail-on, 1 failure, 2 bad usage or the server could not be probed.
See docs/probe.md.
`;

const num = (v: string | undefined, d: number, name: string): number => {
  if (v === undefined) return d;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new ProbeError(`${name} must be a number of milliseconds, not "${v}"`);
  return n;
};

export function parseProbeArgs(argv: string[], env: Record<string, string | undefined>): ProbeSettings & { failOn: FailOn; help?: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      tool: { type: 'string' },
      args: { type: 'string' },
      'allow-tool': { type: 'string', multiple: true },
      era: { type: 'string' },
      header: { type: 'string', multiple: true },
      remote: { type: 'boolean' },
      format: { type: 'string' },
      out: { type: 'string' },
      slow: { type: 'boolean' },
      retention: { type: 'string' },
      timeout: { type: 'string' },
      pace: { type: 'string' },
      'pace-for': { type: 'string' },
      listen: { type: 'string' },
      'fail-on': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true } as ProbeSettings & { failOn: 'fail'; help: boolean };
  if (positionals.length !== 1) throw new ProbeError('probe needs one URL');
  let url: URL;
  try {
    url = new URL(positionals[0]!);
  } catch {
    throw new ProbeError(`not a URL: "${positionals[0]}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProbeError('the URL must be http: or https:');
  if (!isLoopback(url) && !values.remote) throw new ProbeError(`${url.host} is not this machine: the probe calls real tools; add --remote to probe it`);
  const era = values.era ?? 'auto';
  if (era !== 'legacy' && era !== 'modern' && era !== 'auto') throw new ProbeError(`--era must be legacy, modern or auto, not "${era}"`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'junit' && format !== 'sarif') throw new ProbeError(`--format must be text, json, junit or sarif, not "${format}"`);
  const failOn = values['fail-on'] ?? 'fail';
  if (failOn !== 'fail' && failOn !== 'not-yes' && failOn !== 'never') throw new ProbeError(`--fail-on must be fail, not-yes or never, not "${failOn}"`);
  let args: Record<string, unknown> = {};
  if (values.args !== undefined) {
    try {
      const v: unknown = JSON.parse(values.args);
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error();
      args = v as Record<string, unknown>;
    } catch {
      throw new ProbeError('--args must be a JSON object');
    }
  }
  const headers = { ...parseHeaders((env[HEADERS_ENV] ?? '').split(/\r?\n/)), ...parseHeaders(values.header ?? []) };
  return {
    url: url.href,
    era,
    ...(values.tool !== undefined ? { tool: values.tool } : {}),
    args,
    allowTools: values['allow-tool'] ?? [],
    headers,
    format,
    ...(values.out !== undefined ? { out: values.out } : {}),
    slow: !!values.slow,
    retentionMs: num(values.retention, 60000, '--retention'),
    timeoutMs: num(values.timeout, 10000, '--timeout'),
    paceMs: num(values.pace, 50, '--pace'),
    paceForMs: num(values['pace-for'], 2000, '--pace-for'),
    listenMs: num(values.listen, 500, '--listen'),
    failOn,
  };
}

export async function probeCommand(argv: string[], io: Io, env: Record<string, string | undefined> = process.env): Promise<number> {
  let s;
  try {
    s = parseProbeArgs(argv, env);
  } catch (e) {
    io.stderr(`${NAME}: ${terminalSafe(e instanceof Error ? e.message.split('\n')[0]! : String(e))} (see --help)\n`);
    return 2;
  }
  if (s.help) {
    io.stdout(PROBE_USAGE);
    return 0;
  }
  const secrets = secretsOf(s);
  // The URL as the user may show it (credentials in its userinfo, path and query replaced): the
  // probe's requests use the real one, what it prints and saves names this one.
  const shown = shownUrl(s.url);
  let result;
  try {
    result = await runProbe(s);
  } catch (e) {
    const msg = e instanceof ProbeError ? e.message : `the probe failed (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
    // An error can quote the server's answer, and a server can echo the credentials it refused.
    io.stderr(`${NAME}: ${terminalSafe(redactText(msg.split(s.url).join(shown), secrets))}\n`);
    return 2;
  }
  const { captures } = result;
  // A short credential is redacted only as a whole token (redact.ts): the report says so, once.
  const card = { ...result.card, url: shown, notes: hasShortSecret(secrets) ? [...result.card.notes, SHORT_NOTE] : result.card.notes };
  if (s.out) {
    try {
      await mkdir(s.out, { recursive: true });
      for (const c of captures) {
        const records = redactRecords(c.records, secrets, Object.keys(s.headers));
        await writeFile(join(s.out, `probe-${c.name}.msi.json`), exportJson(records, { source: `mcp-stream-inspector probe ${shown}` }));
      }
      await writeFile(join(s.out, 'probe-report.json'), renderJson(card, secrets));
    } catch (e) {
      io.stderr(`${NAME}: cannot save to ${terminalSafe(s.out)} (${e instanceof Error ? e.message.split('\n')[0] : String(e)})\n`);
      return 2;
    }
  }
  const render = {
    text: () => renderText(card, secrets),
    json: () => renderJson(card, secrets),
    junit: () => renderJunit(card, secrets, s.failOn),
    sarif: () => renderSarif(card, secrets, s.out !== undefined ? { out: s.out, captures: captures.map((c) => c.name) } : {}),
  };
  io.stdout(render[s.format]());
  return runFails(card, s.failOn) ? 1 : 0;
}
