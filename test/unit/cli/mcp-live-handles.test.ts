// The MCP server's tools, in process, on a live capture whose snapshot grows between two calls (as
// a tab's does): a handle an answer gave (s1, st2, f0) names the same object in every later call.
import { describe, expect, it } from 'vitest';
import { createAnalyzer, type Analyzer } from '../../../src/core/analyzer';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { CaptureSet, type Capture } from '../../../src/cli/mcp/captures';
import { Capture as Records, call, cutAndResume, ev, initialize, initResult, initSession, message, progress, result } from '../core/helpers';
import { connectInProcess, type InProcess } from '../../support/mcp-inprocess';

/** A live tab as the tools see it: records arrive between calls; a navigation starts the analysis anew. */
class FakeTab implements Capture {
  readonly id = 'tab-1';
  readonly kind = 'live' as const;
  readonly label = 'tab 1: a page';
  readonly format = 'live';
  private list: CaptureRecord[] = [];
  private analyzer: Analyzer = createAnalyzer();
  private arrived: CaptureRecord[] = [];
  private snap: AnalysisSnapshot = createAnalyzer().snapshot();
  records = () => this.list;
  snapshot = () => this.snap;
  arrive(records: readonly CaptureRecord[]): void {
    this.arrived.push(...records);
  }
  /** The tab navigated (Preserve log off): a new capture generation, analysed from nothing. */
  navigate(): void {
    this.list = [];
    this.analyzer = createAnalyzer();
  }
  async refresh(): Promise<void> {
    this.list.push(...this.arrived);
    this.analyzer.pushAll(this.arrived);
    this.arrived = [];
    this.snap = this.analyzer.snapshot();
  }
}

async function withTab(fn: (tab: FakeTab, mcp: InProcess) => Promise<void>): Promise<void> {
  const captures = new CaptureSet({ root: '/nonexistent', maxBytes: 1e6, maxFiles: 10 });
  const tab = new FakeTab();
  captures.add(tab);
  const mcp = await connectInProcess({ captures, root: '/nonexistent', inlineMaxBytes: 1e6 });
  try {
    await fn(tab, mcp);
  } finally {
    await mcp.close();
  }
}

describe('handles of a live capture stay with their object as the capture grows', () => {
  it('a stream whose initialize is answered late is listed among earlier ones: st2 still names the stream it named', async () => {
    await withTab(async (tab, mcp) => {
      const r = new Records();
      initSession(r, 'A');
      // Session B's initialize is sent, not yet answered: its stream belongs to no session yet.
      const initB = r.request({ body: initialize(0) });
      const p = r.request({ sessionId: 'A', body: call(2) });
      r.response(p);
      r.chunk(p, ev('1', message('a')) + ev('2', result(2)));
      r.end(p);
      tab.arrive(r.records);
      const t1 = await mcp.call('get_timeline', { session: 's1' });
      const shown = t1.streams.find((x: { requestIds: string[] }) => x.requestIds.includes('2'));
      const n = r.records.length;
      r.response(initB, { sessionId: 'B' });
      r.chunk(initB, ev('0', initResult(0)));
      r.end(initB);
      tab.arrive(r.records.slice(n));
      // before: st2 was now B's initialize stream (streams numbered in the snapshot's order)
      const e = await mcp.call('get_events', { stream: shown.stream });
      expect(e.streamId).toBe(shown.streamId);
      expect(e.events.map((x: { id: string | null }) => x.id)).toEqual(['1', '2']);
      const t2 = await mcp.call('get_timeline', { session: 's1' });
      expect(t2.streams.find((x: { streamId: string }) => x.streamId === shown.streamId).stream).toBe(shown.stream);
      // The stream seen later gets a handle no other stream had.
      const b = await mcp.call('get_timeline', { session: 's2' });
      expect(t1.streams.map((x: { stream: string }) => x.stream)).not.toContain(b.streams[0].stream);
    });
  });

  it('a finding decided later sorts before one already shown: its handle still names it', async () => {
    await withTab(async (tab, mcp) => {
      const r = new Records();
      initSession(r, 'A');
      const p = r.request({ sessionId: 'A', body: call(2) });
      r.response(p);
      r.chunk(p, ev('1', message('a')) + ev('2', message('b')));
      const q = r.request({ sessionId: 'A', body: call(3) });
      r.response(q);
      r.chunk(q, ev('3', message('a')) + ev('5', result(3)));
      r.end(q);
      tab.arrive(r.records);
      const before = (await mcp.call('list_findings', {})).findings as { finding: string; code: string }[];
      const gap = before.find((f) => f.code === 'live-gap')!;
      const n = r.records.length;
      r.end(p, 'network-error');
      tab.arrive(r.records.slice(n));
      const after = (await mcp.call('list_findings', {})).findings as { finding: string; code: string }[];
      expect(after.length).toBeGreaterThan(before.length);
      // before: the live-gap was f1 now, and f0 another finding
      expect(after.find((f) => f.code === 'live-gap')!.finding).toBe(gap.finding);
      expect(new Set(after.map((f) => f.finding)).size).toBe(after.length);
    });
  });

  it('two findings about one request: the one decided later sorts first, and each keeps its handle', async () => {
    await withTab(async (tab, mcp) => {
      const north = 'the report for the northern region is ready now';
      const south = 'partial figures for the southern region so far';
      const r = new Records();
      initSession(r, 'A');
      // Request 2's result comes after a jump from id 1 to 3: an id lost only once the session's
      // ids are known to count (two ids do not tell), and only then is its output a source.
      const p2 = r.request({ sessionId: 'A', body: call(2) });
      r.response(p2);
      r.chunk(p2, ev('1', progress(2, 1)) + ev('3', result(2, { content: [{ type: 'text', text: north }] })));
      r.end(p2);
      // Request 3 broke with output delivered: partial output, known at once.
      const p3 = r.request({ sessionId: 'A', body: call(3) });
      r.response(p3);
      r.chunk(p3, ev(undefined, message(south)));
      r.end(p3, 'network-error');
      // Request 4 carries both: one lossy-output-carried finding per source, about request 4.
      const p4 = r.request({ sessionId: 'A', body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'summarise', arguments: { north, south } } } });
      r.response(p4);
      tab.arrive(r.records);
      const carried = (fs: { finding: string; code: string; message: string }[]) => fs.filter((f) => f.code === 'lossy-output-carried');
      const before = carried((await mcp.call('list_findings', {})).findings);
      expect(before).toHaveLength(1);
      expect(before[0]!.message).toMatch(/request 3 \(/);
      const n = r.records.length;
      const p5 = r.request({ sessionId: 'A', body: call(5, 'other_task') });
      r.response(p5);
      r.chunk(p5, [4, 5, 6, 7, 8, 9].map((i) => ev(String(i), message(`m${i}`))).join('') + ev('10', result(5)));
      r.end(p5);
      tab.arrive(r.records.slice(n));
      const after = carried((await mcp.call('list_findings', {})).findings);
      expect(after).toHaveLength(2);
      // before: request 2's finding, listed first, took f-handle of request 3's, which got a new one
      expect(after.find((f) => f.finding === before[0]!.finding)!.message).toMatch(/request 3 \(/);
      expect(after.find((f) => f.finding !== before[0]!.finding)!.message).toMatch(/request 2 \(/);
    });
  });

  it('after a navigation, s1 names the session it named or none, never the new page\'s session', async () => {
    await withTab(async (tab, mcp) => {
      const r = new Records();
      initSession(r, 'A');
      cutAndResume(r, { sid: 'A', replayFrom: 14 });
      tab.arrive(r.records);
      const [a] = (await mcp.call('list_sessions', {})).sessions as { session: string; key: string }[];
      expect(a!.key).toBe('A');
      tab.navigate();
      const r2 = new Records('tab1-second-document');
      initSession(r2, 'B');
      tab.arrive(r2.records);
      const sessions = (await mcp.call('list_sessions', {})).sessions as { session: string; key: string }[];
      expect(sessions.map((s) => s.key)).toEqual(['B']);
      expect(sessions[0]!.session).not.toBe(a!.session);
      // before: s1 was session B, its timeline given as A's
      expect(await mcp.refusal('get_timeline', { session: a!.session })).toMatch(/no session "s1"/);
      expect((await mcp.call('get_timeline', { session: sessions[0]!.session })).streams).toHaveLength(1);
    });
  });
});
