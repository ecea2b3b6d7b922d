// Faults armed from the panel, applied in the relay (issue 14). The hook only learns that faults
// are armed (`fault-arm`); for each MCP response it asks (`fault-query`) and, for a faulted body,
// hands over every read as the server sent it (`fault-read`) and gives the page what the relay
// answers (`fault-out`). The decisions are the shared fault model's (core/faults: match.ts arms
// and counts, stream.ts decides event by event), made here, in the isolated world, where the
// page's patches of prototypes cannot watch them: what a fault withholds never exists in the
// page's world outside the hook's closures, and a page can neither arm, disarm nor forge a fault
// (commands come only from the background; fault records are made here, never by the hook).
//
// Every decision that changed what the page got is a `fault` record (contract/records.ts), with
// what the page did not get (withheld events, the rest of a read after a cut, a dropped result,
// the answer a fault replaced) in `withheld`; the page's own chunks stay what it read.
import { createFaultArming, type ActiveFault, type FaultArming, type RequestFacts } from '../../core/faults/match';
import { createStreamFaults, responseOverride, type StreamFaults } from '../../core/faults/stream';
import { decodeJsonRpc } from '../../core/jsonrpc';
import { headerValue, isEventStreamType, type FaultRecord } from '../../core/record';
import { createSseConnectionParser, type SseConnectionParser } from '../../core/sse';
import type { ArmedFault, FaultOut, FaultPlan, FaultQuery, FaultRead } from '../wire/protocol';

type Unnumbered<T> = Omit<T, 'seq' | 'src'>;
export type FaultRecordBody = Unnumbered<FaultRecord>;

interface Armed {
  fault: ArmedFault;
  arming: FaultArming;
}

/** What the relay knows about the request behind a faulted stream (for the resumes of it). */
interface Lineage {
  method?: string;
  tool?: string;
  requestId?: string;
  requestIds: string[];
}

interface Active {
  armed: Armed;
  active: ActiveFault;
}

interface FaultedConn {
  conn: string;
  faults: Active[];
  sf: StreamFaults;
  parser: SseConnectionParser;
  decoder: TextDecoder;
  encoder: TextEncoder;
  pending: string;
  lineage: Lineage;
  ended: boolean;
  /** Effect sizes already reported, per armed-fault index in `faults`. */
  reported: Map<number, { ids: number; cut: boolean }>;
}

export interface FaultInjector {
  /** The faults armed now (replaces the list; ids kept keep their counts). */
  set(list: readonly ArmedFault[]): void;
  armed(): boolean;
  query(q: FaultQuery): Omit<FaultPlan, 'ch' | 'v' | 'type'>;
  read(m: FaultRead): Omit<FaultOut, 'ch' | 'v' | 'type'>;
  /** Ids armed now (diagnostics). */
  ids(): string[];
}

const MAX_LINEAGE = 10_000;

function requestFacts(q: FaultQuery, lineage: Map<string, Lineage>): { facts: RequestFacts; lin: Lineage } {
  const h = q.headers;
  const lastEventId = headerValue(h, 'last-event-id');
  const http = q.method.toUpperCase();
  const facts: RequestFacts = { url: q.url, httpMethod: http, on: 'other' };
  const pv = headerValue(h, 'mcp-protocol-version');
  if (pv !== undefined) facts.protocolVersion = pv;
  const sid = headerValue(h, 'mcp-session-id');
  if (sid !== undefined) facts.sessionId = sid;
  const lin: Lineage = { requestIds: [] };
  if (http === 'POST' && q.body) {
    const d = decodeJsonRpc(q.body);
    const reqs = d.messages.filter((m) => m.summary.kind === 'request');
    for (const m of reqs) if (m.summary.id !== undefined) lin.requestIds.push(m.summary.id);
    const first = reqs[0];
    if (first) {
      facts.on = 'request';
      if (first.summary.method !== undefined) lin.method = facts.method = first.summary.method;
      if (first.summary.id !== undefined) lin.requestId = facts.requestId = first.summary.id;
      const params = first.msg?.params;
      const name = typeof params === 'object' && params !== null ? (params as Record<string, unknown>).name : undefined;
      if (first.summary.method === 'tools/call' && typeof name === 'string') lin.tool = facts.tool = name;
      const meta = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)._meta : undefined;
      // The 2026-07-28 revision carries the version in each request's _meta too.
      if (facts.protocolVersion === undefined && typeof meta === 'object' && meta !== null) {
        for (const [k, v] of Object.entries(meta)) if (/protocolVersion$/i.test(k) && typeof v === 'string') facts.protocolVersion = v;
      }
    }
  } else if (http === 'GET') {
    facts.on = lastEventId !== undefined ? 'resume' : 'standalone';
    const prev = lastEventId !== undefined ? lineage.get(lastEventId) : undefined;
    if (prev) {
      Object.assign(lin, prev, { requestIds: [...prev.requestIds] });
      if (prev.method !== undefined) facts.method = prev.method;
      if (prev.tool !== undefined) facts.tool = prev.tool;
      if (prev.requestId !== undefined) facts.requestId = prev.requestId;
    }
  }
  return { facts, lin };
}

export function createFaultInjector(add: (r: FaultRecordBody) => void, now: () => number): FaultInjector {
  let armed: Armed[] = [];
  const conns = new Map<string, FaultedConn>();
  /** Event id → the request whose faulted stream carried it (a resume names it by Last-Event-ID). */
  const lineage = new Map<string, Lineage>();

  const record = (conn: string, a: Active, body: Partial<FaultRecordBody> & Pick<FaultRecordBody, 'eventIds' | 'events'>, lin: Lineage) => {
    const spec = a.armed.fault.spec;
    const rec: FaultRecordBody = {
      kind: 'fault',
      conn,
      t: now(),
      fault: spec.action.kind,
      origin: 'panel',
      armed: a.armed.fault.id,
      text: a.armed.fault.text,
      ...(spec.label !== undefined ? { label: spec.label } : {}),
      ...(lin.requestIds.length ? { requestIds: lin.requestIds } : {}),
      ...body,
    };
    add(rec);
  };

  /** Reports what the stream faults did since the last report (one record per fault and step). */
  function report(c: FaultedConn, withheld: { id?: string; text: string }[], cutRest?: string) {
    for (const e of c.sf.effects()) {
      const a = c.faults[e.index];
      if (!a) continue;
      const before = c.reported.get(e.index) ?? { ids: 0, cut: false };
      const ids = e.eventIds.slice(before.ids);
      const isCut = e.kind === 'cut' && e.afterEvents !== undefined && !before.cut;
      if (ids.length === 0 && !isCut) continue;
      c.reported.set(e.index, { ids: e.eventIds.length, cut: before.cut || isCut });
      const body: Partial<FaultRecordBody> & Pick<FaultRecordBody, 'eventIds' | 'events'> = { eventIds: ids, events: ids.length };
      if (e.kind === 'withhold' || e.kind === 'drop-result') body.withheld = withheld.filter((w) => ids.includes(w.id ?? ''));
      if (e.kind === 'drop-result') body.how = (a.active.spec.action as { then?: string }).then === 'keep-open' ? 'hold' : 'close';
      if (e.kind === 'delay') body.delayMs = ids.length * (a.active.spec.action as { ms: number }).ms;
      if (isCut) {
        body.events = 0;
        body.afterEvents = e.afterEvents!;
        if (e.cursor !== undefined) body.cursor = e.cursor;
        body.how = (a.active.spec.action as { how?: 'reset' | 'close' }).how ?? 'reset';
        if (cutRest) body.withheld = [{ text: cutRest }];
      }
      record(c.conn, a, body, c.lineage);
    }
  }

  function remember(id: string | undefined, lin: Lineage) {
    if (id === undefined || id === '') return;
    if (lineage.size >= MAX_LINEAGE) lineage.delete(lineage.keys().next().value!);
    lineage.set(id, lin);
  }

  return {
    set(list) {
      const old = new Map(armed.map((a) => [a.fault.id, a]));
      armed = list.map((f) => old.get(f.id) ?? { fault: f, arming: createFaultArming([f.spec]) });
    },
    armed: () => armed.length > 0,
    ids: () => armed.map((a) => a.fault.id),
    query(q) {
      const { facts, lin } = requestFacts(q, lineage);
      const actives: Active[] = [];
      for (const a of armed) for (const active of a.arming.take(facts)) actives.push({ armed: a, active });
      if (actives.length === 0) return { conn: q.conn, plan: 'pass' };
      const over = q.live ? undefined : responseOverride(actives.map((x) => x.active));
      if (q.live && responseOverride(actives.map((x) => x.active))) {
        // A live stream was answered long ago: a fault that replaces the answer waits for the next one.
        for (const x of actives) x.armed.arming.refund(x.active);
        return { conn: q.conn, plan: 'pass' };
      }
      if (over) {
        const a = actives.find((x) => x.active === over.fault)!;
        record(q.conn, a, { eventIds: [], events: 0, status: over.status, serverStatus: q.status, withheld: [] }, lin);
        for (const x of actives) if (x !== a) x.armed.arming.refund(x.active);
        return { conn: q.conn, plan: 'replace', status: over.status, statusText: over.status === 404 ? 'Not Found' : over.status === 409 ? 'Conflict' : 'OK', contentType: over.contentType, body: over.body, hold: over.hold };
      }
      // Stream faults act on event streams only: a JSON answer leaves them armed for the next one.
      if (!isEventStreamType(q.contentType) || q.status < 200 || q.status > 299) {
        for (const x of actives) x.armed.arming.refund(x.active);
        return { conn: q.conn, plan: 'pass' };
      }
      const list = actives.map((x, i) => ({ ...x, active: { index: i, spec: x.active.spec } }));
      const c: FaultedConn = {
        conn: q.conn,
        faults: list,
        sf: createStreamFaults(list.map((x) => x.active), lin.requestIds),
        parser: createSseConnectionParser(),
        decoder: new TextDecoder('utf-8', { ignoreBOM: true }),
        encoder: new TextEncoder(),
        pending: '',
        lineage: lin,
        ended: false,
        reported: new Map(),
      };
      // Keep the original ActiveFault for refunds (the list above renumbers them for stream.ts).
      (c as FaultedConn & { originals?: Active[] }).originals = actives;
      conns.set(q.conn, c);
      // A live stream is joined between two reads, maybe inside an event: its first blank line is
      // the first certain boundary; what comes before it reaches the page as the server sent it.
      if (q.live) c.parser.resync();
      const start = c.sf.start();
      if (start.end) {
        c.ended = true;
        report(c, []);
        return { conn: q.conn, plan: 'stream', end: start.end };
      }
      return { conn: q.conn, plan: 'stream' };
    },
    read(m) {
      const c = conns.get(m.conn);
      if (!c || c.ended) {
        if (c && (m.done || m.error !== undefined)) conns.delete(m.conn);
        return { conn: m.conn, parts: [], ...(c?.ended ? { end: 'close' as const } : {}) };
      }
      const parts: { data: Uint8Array; delayMs: number }[] = [];
      const withheld: { id?: string; text: string }[] = [];
      let end: FaultOut['end'];
      let delay = 0;
      const text = m.data ? c.decoder.decode(m.data, { stream: true }) : m.done ? c.decoder.decode() : '';
      c.pending += text;
      const blocks = c.parser.feed(text);
      if (m.done) blocks.push(...c.parser.end());
      const out = (s: string) => {
        if (s) parts.push({ data: c.encoder.encode(s), delayMs: delay });
        delay = 0;
      };
      for (const b of blocks) {
        const at = c.pending.indexOf(b.raw);
        if (at < 0) continue; // a CR LF tail appended to a block already handled: sent with the next part
        const before = c.pending.slice(0, at);
        c.pending = c.pending.slice(at + b.raw.length);
        const dispatched = b.data !== undefined && b.data !== '' && !b.truncated;
        let messages: { kind: 'request' | 'notification' | 'result' | 'error' | 'invalid'; id?: string; method?: string }[] = [];
        if (dispatched) {
          try {
            messages = decodeJsonRpc(b.data!).messages.map((x) => x.summary);
          } catch {
            messages = [];
          }
        }
        const d = c.sf.event({ ...(b.id !== undefined ? { id: b.id } : {}), dispatched, messages });
        delay += d.delayMs;
        if (d.deliver) {
          out(before + b.raw);
          if (b.id !== undefined) remember(b.id, c.lineage);
        } else {
          out(before);
          withheld.push({ ...(b.id !== undefined ? { id: b.id } : {}), text: b.raw });
        }
        if (d.end) {
          end = d.end;
          c.ended = true;
          const rest = c.pending;
          c.pending = '';
          report(c, withheld, rest || undefined);
          conns.delete(m.conn);
          return { conn: m.conn, parts, end };
        }
      }
      if (m.done || m.error !== undefined) {
        out(c.pending);
        c.pending = '';
        if (m.done && c.sf.finish().hold) end = 'hold';
        report(c, withheld);
        // A fault that did nothing on this stream (a cut after more events than it had) waits for the next one.
        const done = new Set(c.sf.effects().map((e) => e.index));
        const originals = (c as FaultedConn & { originals?: Active[] }).originals ?? [];
        originals.forEach((x, i) => {
          if (!done.has(i)) x.armed.arming.refund(x.active);
        });
        conns.delete(m.conn);
        return { conn: m.conn, parts, ...(end ? { end } : {}) };
      }
      report(c, withheld);
      return { conn: m.conn, parts };
    },
  };
}
