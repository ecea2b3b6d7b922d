import { describe, expect, it } from 'vitest';
import { analyzeRecords } from './analyzer';
import type { CaptureRecord } from './record';
import { exposeProblem, isWorkerEntry, likelyReason, matchCaptured, mcpMarkers, preflightProblem, type NetEntry } from './witness';
import { followsRedirect, isUnfollowedRedirect, redirectTarget } from './witness-redirects';

const T0 = Date.parse('2026-12-01T20:17:56.000Z');
const h = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));

// Entries shaped as Chromium 156's chrome.devtools.network reported them (logged in the e2e
// browser): a page's cross-origin POST, its preflight, a failed POST, a worker's fetch.
function entry(over: Partial<NetEntry> & { req?: Record<string, string>; res?: Record<string, string>; status?: number; body?: string; error?: string }): NetEntry {
  return {
    startedDateTime: new Date(T0).toISOString(),
    time: 25,
    request: { method: 'POST', url: 'http://localhost:9/mcp', headers: h(over.req ?? {}), ...(over.body !== undefined ? { postData: { text: over.body } } : {}) },
    response: { status: over.status ?? 200, headers: h(over.res ?? {}), _error: over.error ?? null },
    _resourceType: 'fetch',
    _initiator: { type: 'script' },
    pageref: 'page_1',
    ...over,
  };
}
const RPC = '{"jsonrpc":"2.0","id":1,"method":"initialize"}';

describe('witness: MCP markers', () => {
  it('names each marker, and a preflight or plain request has none', () => {
    expect(mcpMarkers(entry({ res: { 'content-type': 'text/event-stream; charset=utf-8' } }))).toEqual(['text/event-stream']);
    expect(mcpMarkers(entry({ req: { 'MCP-Protocol-Version': '2025-06-18', 'Last-Event-ID': '4' }, body: RPC }))).toEqual([
      'mcp-protocol-version',
      'last-event-id',
      'JSON-RPC body',
    ]);
    expect(mcpMarkers(entry({ res: { 'mcp-session-id': 'S' } }))).toEqual(['mcp-session-id (response)']);
    expect(mcpMarkers(entry({ req: { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'x' } }))).toEqual(['mcp-method', 'mcp-name']);
    expect(mcpMarkers(entry({ res: { 'content-type': 'text/html' } }))).toEqual([]);
    expect(mcpMarkers(entry({ _resourceType: 'preflight', req: { 'Access-Control-Request-Method': 'POST', 'mcp-session-id': 'x' } }))).toEqual([]);
  });
});

describe('witness: matching the capture', () => {
  it('takes the closest captured request with the same method and URL inside the window, once', () => {
    const e = entry({});
    const a = { method: 'POST', url: 'http://localhost:9/mcp', t: T0 + 500 };
    const b = { method: 'POST', url: 'http://localhost:9/mcp', t: T0 + 20 };
    const other = { method: 'GET', url: 'http://localhost:9/mcp', t: T0 };
    const used = new Set<typeof a>();
    expect(matchCaptured(e, [a, b, other], used, T0 + 5000)).toBe(b);
    expect(matchCaptured(e, [a, b, other], used, T0 + 5000)).toBe(a);
    expect(matchCaptured(e, [a, b, other], used, T0 + 5000)).toBeUndefined();
    // a worker's request (no pageref where others have one) is none the page's hook recorded
    expect(matchCaptured(entry({ pageref: undefined }), [a, b], new Set(), T0 + 5000, true)).toBeUndefined();
    expect(matchCaptured(entry({ pageref: undefined }), [a, b], new Set(), T0 + 5000, false)).toBe(b);
    // the fragment never reaches the network
    expect(matchCaptured(e, [{ ...a, url: 'http://localhost:9/mcp#x' }], new Set(), T0 + 5000)).toBeTruthy();
    // outside the entry's lifetime (+2 s), or long before it: not this request
    expect(matchCaptured(e, [{ ...a, t: T0 + 2100 }, { ...a, t: T0 - 1500 }], new Set(), T0 + 5000)).toBeUndefined();
  });
});

describe('witness: a worker or a frame in another process (neither has a pageref)', () => {
  const OWN = 'chrome-extension://msi/';
  const src = { pagerefs: true, ownCode: OWN, documents: ['http://localhost:9/child.html'] };
  const from = (...urls: string[]) => ({ type: 'script', stack: { callFrames: urls.map((url) => ({ url, lineNumber: 0, columnNumber: 9 })) } });
  // As Chromium 156 lists a cross-site or sandboxed iframe's fetch made through the hook: no
  // pageref, the hook's frame on top of the page's call.
  const framed = entry({ pageref: undefined, _initiator: from(`${OWN}src/extension/hook/hook.js`, 'http://localhost:9/child.html') });
  it("tells them apart by the request's call stack: the hook, or a document a relay reported", () => {
    expect(isWorkerEntry(framed, src)).toBe(false);
    expect(isWorkerEntry(entry({ pageref: undefined, _initiator: from('http://localhost:9/child.html#top') }), src)).toBe(false);
    const async = { type: 'script', stack: { callFrames: [], parent: { callFrames: [{ url: `${OWN}hook.js` }] } } };
    expect(isWorkerEntry(entry({ pageref: undefined, _initiator: async }), src)).toBe(false);
    expect(isWorkerEntry(entry({ pageref: undefined, _initiator: from('http://localhost:9/w.js') }), src)).toBe(true); // a worker's script
    expect(isWorkerEntry(entry({ pageref: undefined, _initiator: from('chrome-extension://other/x.js') }), src)).toBe(true); // another extension's
    expect(isWorkerEntry(entry({ pageref: undefined }), src)).toBe(true);
    expect(isWorkerEntry(entry({ pageref: undefined, _initiator: from(`${OWN}hook.js`) }), { pagerefs: true })).toBe(true); // the hook's URL not known
    // untrusted: a stack that names itself its parent is read bounded
    const loop: { callFrames: { url: string }[]; parent?: unknown } = { callFrames: [{ url: 'http://localhost:9/w.js' }] };
    loop.parent = loop;
    expect(isWorkerEntry(entry({ pageref: undefined, _initiator: { type: 'script', stack: loop as never } }), src)).toBe(true);
  });
  it("a frame's request matches the hook's record; the reason when the hook missed it is not 'worker'", () => {
    const r = { method: 'POST', url: 'http://localhost:9/mcp', t: T0 + 5 };
    expect(matchCaptured(framed, [r], new Set(), T0 + 5000, src)).toBe(r);
    const ctx = { relays: true, bypassed: true, documents: src.documents, pagerefs: true, ownCode: OWN };
    expect(likelyReason(entry({ pageref: undefined, _initiator: from('http://localhost:9/child.html') }), ctx)).toBe('hook-bypassed');
    expect(likelyReason(entry({ pageref: undefined, _initiator: from('http://localhost:9/w.js') }), ctx)).toBe('worker');
  });
});

describe('witness: redirects', () => {
  const at = (ms: number) => new Date(T0 + ms).toISOString();
  const stack = (col: number) => ({ type: 'script', stack: { callFrames: [{ url: 'http://127.0.0.1:8/p.html', lineNumber: 3, columnNumber: col }] } });
  const hop = entry({ status: 302, res: { Location: '/next#frag' }, _initiator: stack(5) });
  const next = (over: Partial<NetEntry> = {}) => entry({ request: { method: 'GET', url: 'http://localhost:9/next', headers: [] }, startedDateTime: at(25), _initiator: stack(5), ...over });
  it("resolves a hop's Location against its URL; not a hop: none", () => {
    expect(redirectTarget(hop)).toBe('http://localhost:9/next');
    expect(redirectTarget(entry({ status: 302 }))).toBeNull(); // no Location
    expect(redirectTarget(entry({ status: 304, res: { Location: '/x' } }))).toBeNull();
    expect(redirectTarget(entry({ status: 301, res: { Location: 'http://[' } }))).toBeNull(); // not a URL (untrusted)
  });
  it('links the request a hop led to: its Location, as the hop ended, same page and initiator, the method a redirect keeps', () => {
    expect(followsRedirect(hop, next())).toBe(true);
    expect(followsRedirect(hop, next({ startedDateTime: at(1500) }))).toBe(false); // long after the hop
    expect(followsRedirect(hop, next({ startedDateTime: at(-10) }))).toBe(false); // before it
    expect(followsRedirect(hop, next({ pageref: undefined }))).toBe(false); // another page's (a worker's)
    expect(followsRedirect(hop, next({ _initiator: stack(9) }))).toBe(false); // another call
    expect(followsRedirect(hop, next({ request: { method: 'PUT', url: 'http://localhost:9/next', headers: [] } }))).toBe(false);
    const h307 = entry({ status: 307, res: { Location: '/next' } });
    expect(followsRedirect(h307, next())).toBe(false); // 307 keeps the POST
    expect(followsRedirect(h307, next({ request: { method: 'POST', url: 'http://localhost:9/next', headers: [] } }))).toBe(true);
  });
  it("the entry Chrome cancels for the Location of a redirect the fetch did not follow (redirect: 'manual')", () => {
    expect(isUnfollowedRedirect(next({ response: { status: 0, headers: [], _error: 'net::ERR_ABORTED' } }))).toBe(true);
    expect(isUnfollowedRedirect(next({ response: { status: 0, headers: [], _error: null } }))).toBe(false); // still open
    expect(isUnfollowedRedirect(next({ response: { status: 0, headers: [], _error: 'net::ERR_FAILED' } }))).toBe(false);
    expect(isUnfollowedRedirect(next())).toBe(false);
  });
});

describe('witness: likely reason', () => {
  const ctx = { relays: true, bypassed: false, documents: ['http://127.0.0.1:8/p.html'] };
  it('worker (no pageref), reload, bypass, a frame no relay reported, unknown', () => {
    // (a worker's once DevTools has the page's load: other entries have a pageref)
    expect(likelyReason(entry({ pageref: undefined }), { ...ctx, pagerefs: true })).toBe('worker');
    expect(likelyReason(entry({ pageref: undefined }), ctx)).toBe('unknown');
    expect(likelyReason(entry({}), { ...ctx, relays: false, installReason: 'update' })).toBe('extension-reloaded');
    expect(likelyReason(entry({}), { ...ctx, relays: false, installReason: 'install' })).toBe('hook-missing');
    expect(likelyReason(entry({}), { ...ctx, bypassed: true })).toBe('hook-bypassed');
    expect(likelyReason(entry({ req: { Referer: 'http://elsewhere:7/frame.html' } }), ctx)).toBe('frame-without-hook');
    expect(likelyReason(entry({ req: { Referer: 'http://127.0.0.1:8/' } }), ctx)).toBe('unknown'); // a known document's origin
    expect(likelyReason(entry({}), { ...ctx, bufferCapAt: T0 + 10 })).toBe('buffer-cap');
  });
});

describe('witness: CORS preflight', () => {
  const preflight = (allow: string, status = 204) =>
    entry({
      request: {
        method: 'OPTIONS',
        url: 'http://localhost:9/mcp',
        headers: h({ 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,mcp-protocol-version', Origin: 'http://127.0.0.1:8' }),
      },
      response: { status, headers: h({ 'access-control-allow-origin': 'http://127.0.0.1:8', 'access-control-allow-headers': allow, 'access-control-allow-methods': 'POST, GET' }) },
      _resourceType: 'preflight',
      _initiator: { type: 'preflight', url: 'http://localhost:9/mcp' },
    });
  const failed = entry({ status: 0, error: 'net::ERR_FAILED', req: { 'mcp-protocol-version': '2025-06-18', 'content-type': 'application/json' }, body: RPC });
  it('names the MCP header the server does not allow, and the header to add', () => {
    const p = preflightProblem(preflight('content-type'), failed)!;
    expect(p.code).toBe('cors-preflight-rejected');
    expect(p.headers).toEqual(['mcp-protocol-version']);
    expect(p.message).toContain('Add mcp-protocol-version to the server\'s Access-Control-Allow-Headers');
    expect(p.message).toContain('Failed to fetch');
  });
  it('says nothing when the request went through, when everything was allowed, or for a wildcard', () => {
    expect(preflightProblem(preflight('content-type'), entry({}))).toBeNull();
    expect(preflightProblem(preflight('content-type, mcp-protocol-version'), failed)).toBeNull();
    expect(preflightProblem(preflight('*'), failed)).toBeNull();
  });
  it('a refused MCP header decides it without the request (the browser never sends it); the session id can come from the capture', () => {
    const p = preflightProblem(preflight('content-type'), undefined, 'S-9')!;
    expect(p).toMatchObject({ code: 'cors-preflight-rejected', method: 'POST', url: 'http://localhost:9/mcp', sessionId: 'S-9', headers: ['mcp-protocol-version'] });
    // other causes need the failed request
    expect(preflightProblem(preflight('content-type, mcp-protocol-version', 405), undefined)).toBeNull();
  });
  it('a preflight refused by status names that instead', () => {
    const p = preflightProblem(preflight('content-type, mcp-protocol-version', 405), failed)!;
    expect(p.message).toContain('HTTP 405');
  });
});

describe('witness: Access-Control-Expose-Headers', () => {
  const cross = (expose?: string, sid = 'S-1') =>
    entry({ req: { Origin: 'http://127.0.0.1:8' }, res: { 'access-control-allow-origin': 'http://127.0.0.1:8', 'mcp-session-id': sid, ...(expose !== undefined ? { 'access-control-expose-headers': expose } : {}) } });
  it('a cross-origin session id not listed in Expose-Headers is a finding naming the header to add', () => {
    const p = exposeProblem(cross())!;
    expect(p.code).toBe('session-id-not-exposed');
    expect(p.message).toContain('Add Mcp-Session-Id to the server\'s Access-Control-Expose-Headers');
    expect(exposeProblem(cross('mcp-protocol-version'))).not.toBeNull();
  });
  it('listed, wildcard, same-origin, or visible to the page: nothing', () => {
    expect(exposeProblem(cross('Mcp-Session-Id, mcp-protocol-version'))).toBeNull();
    expect(exposeProblem(cross('*'))).toBeNull();
    expect(exposeProblem(entry({ res: { 'mcp-session-id': 'S' } }))).toBeNull();
    expect(exposeProblem(cross(), [['mcp-session-id', 'S-1']])).toBeNull();
  });
});

describe('witness notices and gaps in the analysis', () => {
  it('a witness notice becomes a finding in the session of its request; a not-seen-by-hook gap is a capture-gap finding naming the request', () => {
    const recs: CaptureRecord[] = [
      { kind: 'request', src: 'A', seq: 1, t: T0, conn: 'c1', transport: 'fetch', method: 'POST', url: 'http://localhost:9/mcp', headers: [['Mcp-Session-Id', 'S']], body: RPC },
      { kind: 'end', src: 'A', seq: 2, t: T0 + 1, conn: 'c1', how: 'network-error', reason: 'TypeError: Failed to fetch' },
      { kind: 'notice', src: 'network', seq: 1, t: T0 + 2, level: 'error', code: 'cors-preflight-rejected', message: 'refused', url: 'http://localhost:9/mcp', sessionId: 'S' },
      { kind: 'capture-gap', src: 'network', seq: 2, t: T0 + 3, lost: 1, conns: [], reason: 'not-seen-by-hook', method: 'GET', url: 'http://localhost:9/mcp', why: 'worker' },
    ];
    const snap = analyzeRecords(recs);
    const cors = snap.findings.find((f) => f.code === 'cors-preflight-rejected')!;
    expect(cors.sessionId).toBe('S');
    expect(cors.severity).toBe('error');
    const gap = snap.findings.find((f) => f.code === 'capture-gap')!;
    expect(gap.message).toContain('GET http://localhost:9/mcp');
    expect(gap.message).toContain('made by a worker');
  });
});
