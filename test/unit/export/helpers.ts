// Shared by the export and CLI format tests.
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { Capture, ev, progress, result } from '../core/helpers';

/** What a re-import must reproduce: findings, request verdicts, session flags. */
export const summary = (s: AnalysisSnapshot) => ({
  findings: s.findings.map((f) => `${f.code}|${f.severity}|${f.requestId ?? ''}|${f.missing ?? ''}`).sort(),
  verdicts: Object.values(s.requests)
    .flat()
    .map((r) => `${r.id}|${r.method}|${r.verdict}`)
    .sort(),
  sessions: s.sessions.map((x) => `${x.sessionId}|${x.lossless}|${x.idScheme.kind}`).sort(),
});

/**
 * `k` (page text) as the session id, protocol version, request id, tool name, method suffix,
 * progress token, traceparent and data; ids 1–8, a cut, a resume from 8 answered at id 11 (a
 * replay gap 9–10 and a lossy result). With `hostileId`, one more event carries `k` as its id.
 */
export function hostileCutCapture(k: string, opts: { methodSuffix?: boolean; hostileId?: boolean } = {}): CaptureRecord[] {
  const c = new Capture();
  const init = c.request({ body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } } });
  c.response(init, { sessionId: k });
  c.chunk(init, ev('0', result(0, { protocolVersion: k, capabilities: {} })));
  c.end(init);
  const method = `tools/call${opts.methodSuffix ? k : ''}`;
  const p = c.request({ sessionId: k, body: { jsonrpc: '2.0', id: k, method, params: { name: k, _meta: { progressToken: k, traceparent: k } } } });
  c.response(p);
  c.chunk(p, [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ev(String(i), progress(k, i))).join('') + ev(opts.hostileId ? k.replace(/[\r\n]/g, ' ') : undefined, { jsonrpc: '2.0', method: 'notifications/message', params: { data: k.repeat(50) } }));
  c.end(p, 'network-error');
  const g = c.request({ sessionId: k, lastEventId: '8' });
  c.response(g);
  c.chunk(g, ev('11', result(k, { content: [{ type: 'text', text: k }] })));
  c.end(g);
  return c.records;
}

/**
 * A GET stream whose request, response and first event the relay's buffer cap evicted (a capture
 * gap names it): the analysis keeps its later records as a stream of its own.
 */
export function orphanRecords(): CaptureRecord[] {
  const c = new Capture();
  const init = c.request({ body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } } });
  c.response(init, { sessionId: 's1' });
  c.chunk(init, ev('0', result(0, { protocolVersion: '2025-11-25', capabilities: {} })));
  c.end(init);
  const g = c.request({ sessionId: 's1' });
  c.response(g);
  c.chunk(g, ev('1', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));
  c.chunk(g, ev('2', { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a' } }));
  c.chunk(g, ev('5', { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///b' } }));
  c.end(g, 'network-error');
  const kept = c.records.filter((r) => r.seq > 6);
  const gap: CaptureRecord = { kind: 'capture-gap', src: 'tab1', seq: 6, t: kept[0]!.t - 0.5, lost: 6, conns: [init, g], reason: 'buffer-cap' };
  return [gap, ...kept].map((r, i) => ({ ...r, seq: i + 1 }));
}
