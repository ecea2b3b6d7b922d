// Node benchmarks of the analysis core (rows 4, 5) and the relay buffer cap (row 7b, replay).
// Run in a child process (`node --expose-gc --import tsx bench/core.ts '<json config>'`) so each
// measurement starts from a collected heap and the browsers are not running meanwhile.
//
// Row 4: the same chunk texts of a 1M-event capture (a) fed to eventsource-parser alone, counting
//        events, and (b) pushed as CaptureRecords through createAnalyzer() + finish() + snapshot().
//        Alternating order; ratio core / parser per pair.
// Row 5: per-event time at 1M events vs at 10k events (10k timed as the median of 5 runs).
// Row 4h: `audit` on a HAR file of an agent's tool calls (each a tools/call POST answered by a long
//        SSE stream of progress notifications and its result), run in-process through the CLI's
//        own main() as the command runs it (read, import, analysis, text report), against the bare
//        work of reading the file: read it, JSON.parse the HAR, eventsource-parser over each
//        entry's body and JSON.parse of each event's data. Alternating order; ratio per pair.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { loadInputs } from '../src/cli/inputs';
import { main as cliMain } from '../src/cli/main';
import { exportHar } from '../src/export/har';
import { createAnalyzer } from '../src/core';
import type { HookRecord } from '../src/core/record';
import { createRelayBuffer, DEFAULT_BUFFER_OPTIONS } from '../src/extension/relay/buffer';
import { median, spread, type Spread } from './lib/stats';
import { buildCallsCapture, buildCapture, chunkText, sseBody, type Capture } from './lib/workload';

export interface CoreConfig {
  reps: number;
  bigEvents: number;
  smallEvents: number;
  eventBytes: number;
  /** Row 7b replay: stream size (events of relayEventBytes) pushed through the relay buffer. */
  relayEvents: number;
  relayEventBytes: number;
  /** Row 4h: events in the HAR, and events per tool call (one entry each). */
  auditEvents: number;
  auditPerCall: number;
}

export interface CoreResults {
  throughput: { ratios: Spread; coreMs: Spread; parserMs: Spread; events: number; mb: number; eventsSeen: number };
  /** Row 4m: the same, each progress message counting too (the core's progress shape has a string hole). */
  counting: { ratios: Spread; coreMs: Spread; parserMs: Spread };
  scaling: { ratios: Spread; usPerEventBig: Spread; usPerEventSmall: Spread };
  audit: { ratios: Spread; auditMs: Spread; bareMs: Spread; events: number; entries: number; mb: number };
  relayReplay: { cap: number; maxBytes: number; maxRecords: number; capRecords: number; pushes: number; chunkSize: number; heldCap: number; heldBytes: number; heldEstimate: number };
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function timeParser(c: Capture): { ms: number; events: number } {
  gc();
  const t0 = performance.now();
  let events = 0;
  const p = createParser({ onEvent: () => void events++ });
  for (const ch of c.chunks) p.feed(ch);
  p.reset({ consume: true });
  return { ms: performance.now() - t0, events };
}

function timeCore(c: Capture): { ms: number; events: number } {
  gc();
  const t0 = performance.now();
  const a = createAnalyzer();
  a.pushAll(c.records);
  a.finish();
  const snap = a.snapshot();
  const ms = performance.now() - t0;
  let events = 0;
  for (const s of Object.values(snap.streams)) events += s.events.length;
  return { ms, events };
}

/** Parser and core on `cap`, in the order pair `i` takes (alternating); both must see every event. */
function pair(cap: Capture, i: number, events: number): { p: { ms: number; events: number }; c: { ms: number; events: number } } {
  const p0 = i % 2 === 0 ? timeParser(cap) : undefined;
  const c = timeCore(cap);
  const p = p0 ?? timeParser(cap);
  if (p.events !== events || c.events !== events) throw new Error(`events: parser ${p.events}, core ${c.events}, expected ${events}`);
  return { p, c };
}

/** The bare work of reading a HAR's events: read, JSON.parse, parse each body's SSE, JSON.parse each data. */
async function timeBareHar(file: string): Promise<{ ms: number; events: number }> {
  gc();
  const t0 = performance.now();
  const har = JSON.parse(await readFile(file, 'utf8')) as { log: { entries: { response?: { content?: { text?: string } } }[] } };
  let events = 0;
  for (const e of har.log.entries) {
    const body = e.response?.content?.text;
    if (typeof body !== 'string') continue;
    const p = createParser({
      onEvent: (ev) => {
        events++;
        try {
          JSON.parse(ev.data);
        } catch {
          /* counted as read all the same */
        }
      },
    });
    p.feed(body);
    p.reset({ consume: true });
  }
  return { ms: performance.now() - t0, events };
}

/** `mcp-stream-inspector audit <file>` in-process (text report, kept in memory). */
async function timeAudit(file: string): Promise<{ ms: number; out: number }> {
  gc();
  let out = 0;
  const io = { stdout: (s: string) => void (out += s.length), stderr: (s: string) => void process.stderr.write(s) };
  const t0 = performance.now();
  const code = await cliMain(['audit', file, '--fail-on', 'never', '--max-size', '4000'], io);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`audit exited with ${code}`);
  return { ms, out };
}

async function auditRow(cfg: CoreConfig, log: (m: string) => void): Promise<CoreResults['audit']> {
  const dir = mkdtempSync(join(tmpdir(), 'msi-bench-audit-'));
  try {
    const file = join(dir, 'calls.har');
    const text = exportHar(buildCallsCapture(cfg.auditEvents, cfg.auditPerCall, cfg.eventBytes, 'http://127.0.0.1:9'));
    writeFileSync(file, text);
    const entries = (JSON.parse(text) as { log: { entries: unknown[] } }).log.entries.length;
    // The audit must see every event of the file (a body the import dropped would flatter the ratio).
    const seen = await loadInputs([file], { maxMb: 4000, maxBytes: 4e9 }, (m) => process.stderr.write(m));
    const events = Object.values(seen?.[0]?.snap.streams ?? {}).reduce((n, st) => n + st.events.length, 0);
    if (events !== cfg.auditEvents) throw new Error(`audit saw ${events} events, expected ${cfg.auditEvents}`);
    await timeBareHar(file);
    await timeAudit(file);
    const ratios: number[] = [];
    const auditMs: number[] = [];
    const bareMs: number[] = [];
    for (let i = 0; i < cfg.reps; i++) {
      log(`audit rep ${i + 1}/${cfg.reps}`);
      let b: { ms: number; events: number }, a: { ms: number };
      if (i % 2 === 0) {
        b = await timeBareHar(file);
        a = await timeAudit(file);
      } else {
        a = await timeAudit(file);
        b = await timeBareHar(file);
      }
      if (b.events !== cfg.auditEvents) throw new Error(`HAR events: ${b.events}, expected ${cfg.auditEvents}`);
      ratios.push(a.ms / b.ms);
      auditMs.push(a.ms);
      bareMs.push(b.ms);
    }
    return { ratios: spread(ratios), auditMs: spread(auditMs), bareMs: spread(bareMs), events: cfg.auditEvents, entries, mb: Buffer.byteLength(text) / 1e6 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function relayReplay(cfg: CoreConfig): CoreResults['relayReplay'] {
  // The hook's records for one stream read in 64 KiB chunks, pushed through the real buffer with
  // its default caps; its (estimated) size is checked after every push.
  const body = sseBody(cfg.relayEvents, cfg.relayEventBytes).toString('utf8');
  const chunkSize = 64 * 1024;
  const buf = createRelayBuffer('replay');
  let maxBytes = 0;
  let maxRecords = 0;
  let pushes = 0;
  const push = (r: HookRecord) => {
    buf.push(r);
    pushes++;
    const s = buf.size();
    maxBytes = Math.max(maxBytes, s.bytes);
    maxRecords = Math.max(maxRecords, s.records);
  };
  push({ kind: 'navigation', t: 0, url: 'http://127.0.0.1/', top: true });
  push({ kind: 'request', t: 1, conn: 'c1', transport: 'fetch', method: 'POST', url: 'http://127.0.0.1/mcp', headers: [], body: '{}' });
  push({ kind: 'response', t: 2, conn: 'c1', status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']], url: 'http://127.0.0.1/mcp', redirected: false, type: 'basic', capture: 'sse' });
  for (const text of chunkText(body, chunkSize)) push({ kind: 'chunk', t: 3, conn: 'c1', text, bytes: text.length });
  push({ kind: 'end', t: 4, conn: 'c1', how: 'complete' });
  // Memory actually held: the same stream through a buffer capped at 8 MiB (estimate), with every
  // chunk a distinct on-heap string; heap after GC minus before. Evicted records must be released.
  const heldCap = 8 * 1024 * 1024;
  const bytes = Buffer.from(body, 'latin1');
  gc();
  const h0 = process.memoryUsage().heapUsed;
  let capped: ReturnType<typeof createRelayBuffer> | null = createRelayBuffer('held', { maxBytes: heldCap });
  for (let o = 0; o < bytes.length; o += chunkSize) {
    const text = bytes.toString('latin1', o, Math.min(bytes.length, o + chunkSize));
    capped.push({ kind: 'chunk', t: 3, conn: 'c1', text, bytes: text.length });
  }
  gc();
  const heldBytes = process.memoryUsage().heapUsed - h0;
  const heldEstimate = capped.size().bytes;
  capped = null;
  return { cap: DEFAULT_BUFFER_OPTIONS.maxBytes, capRecords: DEFAULT_BUFFER_OPTIONS.maxRecords, maxBytes, maxRecords, pushes, chunkSize, heldCap, heldBytes, heldEstimate };
}

export async function runCore(cfg: CoreConfig, log: (m: string) => void = () => {}): Promise<CoreResults> {
  log(`building captures: ${cfg.bigEvents} and ${cfg.smallEvents} events of ~${cfg.eventBytes} B`);
  let big: Capture | undefined = buildCapture(cfg.bigEvents, cfg.eventBytes);
  const bigMb = big.bytes / 1e6;
  const small = buildCapture(cfg.smallEvents, cfg.eventBytes);
  // Warm-up (JIT) on the small capture.
  for (let i = 0; i < 3; i++) {
    timeParser(small);
    timeCore(small);
  }
  const ratios: number[] = [];
  const coreMs: number[] = [];
  const parserMs: number[] = [];
  const scal: number[] = [];
  const usBig: number[] = [];
  const usSmall: number[] = [];
  let eventsSeen = 0;
  for (let i = 0; i < cfg.reps; i++) {
    log(`rep ${i + 1}/${cfg.reps}`);
    const { p, c } = pair(big, i, cfg.bigEvents);
    eventsSeen = c.events;
    ratios.push(c.ms / p.ms);
    coreMs.push(c.ms);
    parserMs.push(p.ms);
    const smallRuns: number[] = [];
    for (let k = 0; k < 5; k++) smallRuns.push(timeCore(small).ms);
    const perSmall = median(smallRuns) / cfg.smallEvents;
    const perBig = c.ms / cfg.bigEvents;
    usBig.push(perBig * 1000);
    usSmall.push(perSmall * 1000);
    scal.push(perBig / perSmall);
  }
  // Row 4m: a stream whose progress messages count (`step 41 of 100`): consecutive events differ
  // in a string too (the core's progress shape reads them with a string hole). Built once row 4's
  // capture is released, so that both rows run with the same heap.
  big = undefined;
  const counting = buildCapture(cfg.bigEvents, cfg.eventBytes, undefined, undefined, true);
  const mRatios: number[] = [];
  const mCore: number[] = [];
  const mParser: number[] = [];
  for (let i = 0; i < cfg.reps; i++) {
    log(`counting messages, rep ${i + 1}/${cfg.reps}`);
    const { p, c } = pair(counting, i, cfg.bigEvents);
    mRatios.push(c.ms / p.ms);
    mCore.push(c.ms);
    mParser.push(p.ms);
  }
  return {
    throughput: { ratios: spread(ratios), coreMs: spread(coreMs), parserMs: spread(parserMs), events: cfg.bigEvents, mb: bigMb, eventsSeen },
    counting: { ratios: spread(mRatios), coreMs: spread(mCore), parserMs: spread(mParser) },
    scaling: { ratios: spread(scal), usPerEventBig: spread(usBig), usPerEventSmall: spread(usSmall) },
    relayReplay: relayReplay(cfg),
    audit: await auditRow(cfg, log),
  };
}

// Child-process entry.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!) && process.argv[2]) {
  const cfg = JSON.parse(process.argv[2]) as CoreConfig;
  void runCore(cfg, (m) => process.stderr.write(`  [core] ${m}\n`)).then((res) => process.stdout.write(JSON.stringify(res)));
}
