// `mcp-stream-inspector serve <capture.json|file.har>`: the recorded sessions served back as an
// MCP server (see docs/faults-and-serve.md, "Serving a capture back"). Runs until SIGINT / SIGTERM; bad input is one
// line and exit 2, like `audit`.
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeRecords } from '../../core/analyzer';
import { describeFault, evaluatePreset, FaultSpecError, parseFaultText, presetById, type FaultPreset, type FaultSpec, type PresetResult } from '../../core/faults/index';
import { IMPORT_LIMIT_BYTES, importText, isImportError } from '../../core/import/index';
import type { CaptureRecord } from '../../core/record';
import { terminalSafe } from '../report';
import { buildRecording, type Recording } from './recording';
import { createReplay } from './replay';
import { startServeServer, type ServeServer } from './server';
import { untilSignal } from '../until-signal';

const NAME = 'mcp-stream-inspector';
export const DEFAULT_PORT = 6399;

export const SERVE_USAGE = `Usage: ${NAME} serve <capture.json|file.har> [--port N] [--host H] [--speed X] [--loop]
                          [--fault F]... [--match params|method] [--allow-origin O]

Serve the MCP sessions of a capture back as a Streamable HTTP server, on 127.0.0.1: responses with
their headers, SSE events with their ids, retry fields and timing, cuts where the recording had
them, resumes answered as the server answered them (gaps included), JSON answers and 404s. Point
a client at the printed URL; what it asks is matched to the recording by JSON-RPC method and
params (ids rewritten to the client's); what the recording does not hold gets a JSON-RPC error and
a line here.

  --port N           port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H           address to listen on (default 127.0.0.1; anything else lets other machines
                     read the capture)
  --speed X          play the recorded timing X times faster (default 1; 0.5 is slower)
  --loop             serve the recording again to each new initialize once it has been used
  --fault F          misbehave on purpose; repeatable. A preset:
                       resume-after-cut     Does my client resume after a cut?
                       lossy-replay         Does it notice a lossy replay?
                       reissue-after-break  Does it re-issue after a broken stream (2026-07-28)?
                       session-404          Does it survive a 404 session?
                     or a fault: cut:N  withhold:A-B  delay:MS[:A-B]  drop-result[:keep-open]
                       answer-resume:404|409|empty  expire-session, with ,method= ,tool= ,url=
                       ,id= ,on=request|resume|standalone|any ,era=legacy|modern ,times=N|always
                     or JSON, or @file.json (docs/faults-and-serve.md)
  --match params     match requests by method and params (default); "method" ignores params
  --allow-origin O   the only page origin allowed by CORS (default: any origin)
  --max-size MB      refuse input files larger than MB megabytes (default ${IMPORT_LIMIT_BYTES / 1e6})
  -h, --help         show this help
`;

export interface ServeOptions {
  records: readonly CaptureRecord[];
  port?: number;
  host?: string;
  speed?: number;
  loop?: boolean;
  faults?: FaultSpec[];
  match?: 'params' | 'method';
  allowOrigin?: string;
  log?: (line: string) => void;
  /** Presets whose verdict to print when it changes. */
  presets?: FaultPreset[];
}

export interface ServeHandle {
  origin: string;
  port: number;
  recording: Recording;
  /** Served path → recorded endpoint. */
  endpoints: { url: string; recorded: string }[];
  /** What was served, from the server's side, as CaptureRecords. */
  records: CaptureRecord[];
  /** What the client did for each preset, from what was served so far. */
  presetResults(): { preset: FaultPreset; result: PresetResult }[];
  /** How many times each armed fault may still apply. */
  remainingFaults(): number[];
  close(): Promise<void>;
}

/** Starts serving; the caller stops it with close(). */
export async function startServe(o: ServeOptions): Promise<ServeHandle> {
  const recording = buildRecording(o.records);
  const replay = createReplay(recording, { loop: o.loop ?? false, match: o.match ?? 'params', faults: o.faults ?? [] });
  const presets = o.presets ?? [];
  const log = o.log ?? (() => {});
  const last = new Map<string, string>();
  let server: ServeServer | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const results = () => {
    if (!server || presets.length === 0) return [];
    const snap = analyzeRecords(server.records);
    return presets.map((preset) => ({ preset, result: evaluatePreset(preset, snap) }));
  };
  const printChanged = () => {
    for (const { preset, result } of results()) {
      const line = `preset ${preset.id}: ${result.outcome.toUpperCase()}: ${result.observed}`;
      if (last.get(preset.id) === line) continue;
      last.set(preset.id, line);
      log(line);
    }
  };
  server = await startServeServer({
    replay,
    ...(o.host !== undefined ? { host: o.host } : {}),
    port: o.port ?? DEFAULT_PORT,
    speed: o.speed ?? 1,
    ...(o.allowOrigin !== undefined ? { allowOrigin: o.allowOrigin } : {}),
    log,
    onExchangeEnd: () => {
      if (presets.length === 0) return;
      clearTimeout(timer);
      // After a quiet moment: a resume follows its cut within the client's retry delay.
      timer = setTimeout(printChanged, 400);
    },
  });
  const s = server;
  return {
    origin: s.origin,
    port: s.port,
    recording,
    endpoints: [...recording.paths].map(([path, recorded]) => ({ url: s.origin + path, recorded })),
    records: s.records,
    presetResults: results,
    remainingFaults: () => replay.arming.remaining(),
    close: async () => {
      clearTimeout(timer);
      await s.close();
      if (s.records.length > 0) printChanged();
    },
  };
}

function summary(rec: Recording): string[] {
  const out: string[] = [];
  const groups = new Map<string, typeof rec.exchanges>();
  for (const ex of rec.exchanges) groups.set(ex.group, [...(groups.get(ex.group) ?? []), ex]);
  for (const [group, exs] of groups) {
    const byMethod = new Map<string, number>();
    for (const ex of exs) byMethod.set(ex.httpMethod, (byMethod.get(ex.httpMethod) ?? 0) + 1);
    const cuts = exs.filter((ex) => ex.end?.how === 'network-error').length;
    const resumes = exs.filter((ex) => ex.lastEventId !== undefined);
    const who = group.startsWith('session:') ? `session ${group.slice(8)}` : `sessionless traffic at ${group.slice(9)}`;
    const parts = [`${exs.length} exchange${exs.length === 1 ? '' : 's'} (${[...byMethod].map(([m, n]) => `${m} ${n}`).join(', ')})`];
    if (cuts) parts.push(`${cuts} cut${cuts === 1 ? '' : 's'}`);
    if (resumes.length) parts.push(`${resumes.length} resume${resumes.length === 1 ? '' : 's'} (Last-Event-ID ${resumes.map((r) => r.lastEventId).join(', ')})`);
    out.push(`    ${terminalSafe(who)}: ${terminalSafe(parts.join(', '))}`);
  }
  return out;
}

export interface ServeCommandHooks {
  /** Resolves when serving should stop (default: SIGINT or SIGTERM). */
  stop?: Promise<unknown>;
  onListening?: (h: ServeHandle) => void;
}

export async function serveCommand(argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void }, hooks: ServeCommandHooks = {}): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        speed: { type: 'string' },
        loop: { type: 'boolean' },
        fault: { type: 'string', multiple: true },
        match: { type: 'string' },
        'allow-origin': { type: 'string' },
        'max-size': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    io.stderr(`${NAME} serve: ${e instanceof Error ? e.message.split('\n')[0] : String(e)} (see --help)\n`);
    return 2;
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    io.stdout(SERVE_USAGE);
    return 0;
  }
  const bad = (msg: string) => {
    io.stderr(`${NAME} serve: ${terminalSafe(msg)}\n`);
    return 2;
  };
  if (positionals.length !== 1) return bad(positionals.length === 0 ? 'needs one capture or HAR file (see --help)' : 'serves one file at a time');
  const port = v.port === undefined ? DEFAULT_PORT : Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return bad(`--port must be a port number (0-65535), not "${v.port}"`);
  const speed = v.speed === undefined ? 1 : Number(v.speed);
  if (!Number.isFinite(speed) || speed <= 0) return bad(`--speed must be a positive number, not "${v.speed}"`);
  const match = v.match ?? 'params';
  if (match !== 'params' && match !== 'method') return bad(`--match must be params or method, not "${match}"`);
  const maxMb = v['max-size'] === undefined ? IMPORT_LIMIT_BYTES / 1e6 : Number(v['max-size']);
  if (!Number.isFinite(maxMb) || maxMb <= 0) return bad(`--max-size must be a positive number of megabytes, not "${v['max-size']}"`);

  const faults: FaultSpec[] = [];
  const presets: FaultPreset[] = [];
  for (const f of v.fault ?? []) {
    try {
      let text = f;
      if (f.startsWith('@')) {
        try {
          text = readFileSync(f.slice(1), 'utf8');
        } catch (e) {
          return bad(`--fault ${f}: cannot read the file (${(e as { code?: string }).code ?? String(e)})`);
        }
      }
      faults.push(...parseFaultText(text));
      const p = presetById(f.trim());
      if (p && !presets.includes(p)) presets.push(p);
    } catch (e) {
      return bad(`--fault ${f}: ${e instanceof FaultSpecError ? e.message.replace(/^fault: /, '') : String(e)}`);
    }
  }

  const file = positionals[0]!;
  let records: CaptureRecord[];
  let format: string;
  try {
    const st = await stat(file);
    if (st.isDirectory()) return bad(`${file}: is a directory, not a file`);
    if (st.size > maxMb * 1e6) return bad(`${file}: the file is ${(st.size / 1e6).toFixed(1)} MB, over the ${maxMb} MB limit (raise it with --max-size)`);
    const text = await readFile(file, 'utf8');
    const readAttachment = (name: string): Uint8Array | undefined => {
      try {
        return readFileSync(join(dirname(file), basename(name)));
      } catch {
        return undefined;
      }
    };
    const imported = importText(text, { readAttachment });
    records = imported.records;
    format = imported.format === 'har' ? 'HAR' : imported.format === 'capture' ? 'capture file' : 'record list';
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT') return bad(`${file}: no such file`);
    if (code === 'EACCES' || code === 'EPERM') return bad(`${file}: permission denied`);
    return bad(`${file}: ${isImportError(e) ? e.message : e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }

  const started = performance.now();
  const line = (s: string) => io.stdout(`${`+${((performance.now() - started) / 1000).toFixed(3)}s`.padEnd(10)}${terminalSafe(s)}\n`);
  let handle: ServeHandle;
  try {
    handle = await startServe({
      records,
      port,
      ...(v.host !== undefined ? { host: v.host } : {}),
      speed,
      loop: v.loop ?? false,
      faults,
      match,
      ...(v['allow-origin'] !== undefined ? { allowOrigin: v['allow-origin'] } : {}),
      log: line,
      presets,
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    return bad(code === 'EADDRINUSE' ? `port ${port} is in use (--port 0 picks a free one)` : `cannot listen: ${e instanceof Error ? e.message : String(e)}`);
  }
  const rec = handle.recording;
  if (rec.exchanges.length === 0) {
    await handle.close();
    return bad(`${file}: no MCP traffic in it (no JSON-RPC request, Mcp-Session-Id or event stream)`);
  }
  io.stdout(`${NAME} serve: ${terminalSafe(file)} (${format}, ${records.length} records${rec.ignored ? `; ${rec.ignored} non-MCP requests left out` : ''})\n`);
  for (const e of handle.endpoints) {
    io.stdout(`  ${e.url}   recorded at ${terminalSafe(e.recorded)}\n`);
    io.stdout(summary({ ...rec, exchanges: rec.exchanges.filter((x) => handle.origin + x.path === e.url) }).join('\n') + '\n');
  }
  io.stdout(`  speed ${speed}×; ${v.loop ? 'loops' : 'plays once (--loop to repeat)'}; matches by ${match === 'params' ? 'method and params' : 'method'}\n`);
  faults.forEach((f, i) => io.stdout(`  fault ${i + 1}: ${terminalSafe(describeFault(f))}\n`));
  for (const p of presets) io.stdout(`  preset ${p.id}: ${p.question} ${p.correct}\n`);
  for (const w of rec.warnings) io.stdout(`  note: ${terminalSafe(w)}\n`);
  if (v.host !== undefined && v.host !== '127.0.0.1' && v.host !== 'localhost' && v.host !== '::1') io.stdout(`  warning: listening on ${terminalSafe(v.host)}: other machines can read this capture\n`);
  io.stdout('Ctrl+C stops.\n');
  hooks.onListening?.(handle);

  await (hooks.stop ?? untilSignal());
  await handle.close();
  return 0;
}
