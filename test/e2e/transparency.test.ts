// Transparency: the same probe script in a browser without the extension and with it (DevTools
// open) must give identical results: Response identity and semantics, errors, abort, and the
// native look of fetch. Then the panel must hold what the page read.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../src/core/record';
import { launchBrowser } from '../support/browser';
import { openInspected, waitForRecords, type Harness } from '../support/extension';
import { startTestServer, type TestServer } from '../support/server';
import { installRoutes, PROBE } from './transparency-page';

let server: TestServer;
let without: Record<string, unknown>;
let withExt: Record<string, unknown>;
let h: Harness;

beforeAll(async () => {
  server = await startTestServer();
  installRoutes(server);
  const plain = await launchBrowser({ extension: false, url: server.url('/t/page.html') });
  try {
    const s = await plain.attachPage('/t/page.html');
    without = await plain.cdp.evaluate(s, PROBE);
  } finally {
    await plain.close();
  }
  h = await openInspected(server.url('/t/page.html'));
  withExt = await h.evalPage(PROBE);
});

afterAll(async () => {
  await h?.close();
  await server?.close();
});

describe('transparency (with vs without the extension)', () => {
  it('the probe ran meaningfully', () => {
    expect((without.redirectText as any).m.redirected).toBe(true);
    expect((without.abortBefore as any).threw.name).toBe('AbortError');
    expect(Object.keys(without).length).toBeGreaterThan(40);
    // an abort while no read is pending errors the body at once (the hook once left it pending)
    expect(without.abortIdle).toEqual(['rejected', 'AbortError']);
    // headers given as one-shot iterators reach the server (the hook once used them up first)
    // a Request with the page's own stream as body: Chrome fails it without draining the source
    // (the hook once read a tee of it, pulling the source to its end)
    expect((without.requestStreamBody as any).pulls).toBeLessThan(21);
    expect(without.cloneAfterBody).toMatchObject({ same: false, locked: true });
    expect(without.headersIterators).toEqual(Object.fromEntries(['headersEntries', 'mapEntries', 'generator'].map((k) => [k, { accept: 'application/json, text/event-stream', session: 's1' }])));
  });

  it('every probe gives the same result', () => {
    for (const k of Object.keys(without)) expect.soft(withExt[k], k).toEqual(without[k]);
    expect(Object.keys(withExt).sort()).toEqual(Object.keys(without).sort());
  });

  it('the panel holds what the page read, once, including through clone(), readers and pipeThrough', async () => {
    const records = await waitForRecords(
      h.panel,
      (rs) =>
        rs.filter((r) => r.kind === 'end').length >= 18 &&
        rs.filter((r) => r.kind === 'request' && r.transport === 'eventsource').length >= 2 &&
        rs.some((r) => r.kind === 'request' && r.transport === 'xhr'),
      'ends of the probe connections, EventSource and XHR records',
    );
    const reqs = records.filter((r): r is Extract<CaptureRecord, { kind: 'request' }> => r.kind === 'request');
    // untouched traffic is not recorded
    expect(reqs.some((r) => r.url.endsWith('/t/plain'))).toBe(false);
    const full = 'id: 1\ndata: {"jsonrpc":"2.0","method":"a"}\n\nid: 2\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"t":"héllo ✓"}}\n\n';
    const textOf = (conn: string) => records.filter((r) => r.kind === 'chunk' && r.conn === conn).map((r) => (r as any).text).join('');
    const ends = new Map(records.filter((r) => r.kind === 'end').map((r) => [(r as any).conn, r as Extract<CaptureRecord, { kind: 'end' }>]));
    const sseConns = reqs.filter((r) => r.url.endsWith('/t/sse'));
    expect(sseConns.length).toBeGreaterThanOrEqual(10);
    for (const r of sseConns) {
      const e = ends.get(r.conn);
      // responses read fully give the full text exactly once (clones included)
      if (e?.how === 'complete') expect(textOf(r.conn)).toBe(full);
    }
    const howFor = (path: string) => reqs.filter((r) => r.url.endsWith(path)).map((r) => ends.get(r.conn)?.how);
    expect(howFor('/t/hang')).toEqual(expect.arrayContaining(['page-cancelled', 'page-aborted']));
    expect(howFor('/t/reset')).toContain('network-error');
    // JSON answers read whole (the native consumer reads them: hook/fetch.ts readWhole), or through
    // the body the page took first: each one's text once, its end as the page met it.
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { echo: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }).length } });
    // (A response the page never read, requestObjectTwice's first, has no end until collected; its
    // second fetch fails before any response.)
    const answered = new Set(records.filter((r) => r.kind === 'response').map((r) => (r as any).conn));
    const jsonRead = reqs.filter((r) => r.url.endsWith('/t/json') && ends.has(r.conn) && answered.has(r.conn));
    expect(jsonRead.length).toBeGreaterThanOrEqual(10);
    for (const r of jsonRead) {
      expect(ends.get(r.conn)?.how, r.conn).toBe('complete');
      expect(textOf(r.conn), r.conn).toBe(answer);
    }
    expect(howFor('/t/jsonhang')).toEqual(['page-aborted']);
    expect(howFor('/t/jsonreset')).toEqual(['network-error']);
    for (const path of ['/t/jsonhang', '/t/jsonreset']) {
      const r = reqs.find((x) => x.url.endsWith(path))!;
      expect(textOf(r.conn)).toBe('');
    }
    const xhr = reqs.find((r) => r.transport === 'xhr' && r.url.endsWith('/t/sse'))!;
    expect(textOf(xhr.conn)).toBe(full);
    expect(reqs.filter((r) => r.transport === 'eventsource').length).toBeGreaterThanOrEqual(2);
    const jsonReq = reqs.find((r) => r.url.endsWith('/t/json') && r.body?.includes('tools/list'));
    expect(jsonReq).toBeTruthy();
    // a Request object's body and a Blob body were recorded without consuming the page's body
    expect(reqs.filter((r) => r.url.endsWith('/t/json') && r.body === JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })).length).toBeGreaterThanOrEqual(4);
    // the page's own stream as a Request's body is recorded as such, unread
    expect(reqs.some((r) => r.url.endsWith('/t/json') && r.body === null && r.bodyNote === 'stream')).toBe(true);
  });
});
