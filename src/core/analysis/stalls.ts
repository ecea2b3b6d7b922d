// A GET the browser held back. Chromium lets one GET per URL wait for its response headers at a
// time (its HTTP cache locks the entry until they come; a request made with `cache: 'no-store'` or
// 'reload' is not held, 'no-cache' is: checked in Chromium 156): a second GET to the same URL sent
// meanwhile leaves the browser only when the first one's headers arrive. A resume the server holds
// (a store that waits for events after the cursor before it answers) then holds every later GET
// of the page to that endpoint: its other resumes, a new standalone stream (seen with use-mcp,
// test/e2e/use-mcp.test.ts: a call's resume answered 10 s after it was sent). The capture holds
// the page's side only (when each request was sent, when each answer came), so the finding says
// "likely". Requests are timed when the page sends them (the hook records an MCP request then).
import type { SessionState, StreamS } from './state';
import type { AnalyzerState } from './analyzer-state';
import { addFinding } from './findings-log';
import { requestStalled } from './texts';

/** A wait shorter than this is not worth a finding (a server's ordinary answer time). */
export const STALL_MIN_MS = 1000;
/** GETs kept per document and URL: the ones a new GET can have queued behind. */
const KEEP = 16;

// fetch and XHR go through the HTTP cache like any GET; an EventSource's request is made with cache
// mode no-store (HTML spec), and an entry of another tool's HAR may be one (transport 'import').
// Such an entry counts when the file shows the hold itself: Chrome's HAR gives how long the browser
// held each request before sending it (timings.blocked: queueing and "Stalled"), and a GET held by
// the cache lock is sent when the earlier GET's headers come, so its hold is the wait measured here.
const held = (st: StreamS) => st.method === 'GET' && (st.transport === 'fetch' || st.transport === 'xhr' || st.transport === 'import');
/** How far an imported entry's timings.blocked may be from the wait and still be that wait. */
const BLOCKED_SLACK_MS = 250;
/**
 * A HAR times each entry on its own: a held entry's answer can show a few ms before the headers
 * that let it go (2 ms in DevTools' HAR of a use-mcp run, test/e2e/use-mcp.test.ts).
 */
const IMPORT_ORDER_SLACK_MS = 20;
const urlKey = (src: string, url: string) => src + '\u0000' + url;

/** A GET stream started (its request sent at st.start). */
export function noteGet(A: AnalyzerState, src: string, st: StreamS): void {
  if (!held(st) || !st.url) return;
  const k = urlKey(src, st.url);
  const list = A.getsByUrl.get(k);
  if (!list) A.getsByUrl.set(k, [st]);
  else {
    list.push(st);
    if (list.length > KEEP) list.shift();
  }
}

/**
 * The response of GET `st` came at `at`: if another GET to the same URL, sent before it, was still
 * waiting for its headers when `st` was sent, and they came at least STALL_MIN_MS later and before
 * `st`'s answer, `st` likely waited in the browser that long.
 */
export function checkStall(A: AnalyzerState, src: string, st: StreamS, s: SessionState, at: number): void {
  if (!held(st) || !st.url) return;
  judgeStall(A, src, st, s, at);
  if (st.transport !== 'import') return;
  // An imported GET answered just before these headers may have been let go by them (the HAR's
  // order of the two is not theirs): judged again now that they are known.
  for (const y of A.getsByUrl.get(urlKey(src, st.url)) ?? []) {
    const r = y.respondedAt;
    if (y === st || y.stallFound || y.transport !== 'import' || !y.session || r === undefined || r >= at || at - r > IMPORT_ORDER_SLACK_MS || y.start < st.start) continue;
    judgeStall(A, src, y, y.session, r);
  }
}

function judgeStall(A: AnalyzerState, src: string, st: StreamS, s: SessionState, at: number): void {
  let by: StreamS | undefined;
  let freed = -Infinity; // when `by`'s headers came: `st` left the browser then
  const until = at + (st.transport === 'import' ? IMPORT_ORDER_SLACK_MS : 0);
  for (const x of A.getsByUrl.get(urlKey(src, st.url!)) ?? []) {
    const r = x.respondedAt;
    if (x === st || r === undefined || x.start > st.start || r <= st.start || r > until || r <= freed) continue;
    by = x;
    freed = r;
  }
  const waited = freed - st.start;
  if (!by || waited < STALL_MIN_MS) return;
  let shown: number | undefined; // an imported entry's own account of the hold
  if (st.transport === 'import') {
    shown = st.blockedMs;
    if (shown === undefined || Math.abs(shown - waited) > Math.max(BLOCKED_SLACK_MS, waited / 10)) return;
  }
  const req = st.root.requests[0];
  st.stallFound = true;
  addFinding(A, s, ++A.ord, 'request-stalled', {
    streamId: st.id,
    relatedStreamIds: [by.id],
    eventIds: st.lastEventIdSent !== undefined ? [st.lastEventIdSent] : [],
    ...(st.isResume && req ? { requestId: req.id } : {}),
    message: requestStalled(st.id, at - st.start, waited, by.id, shown),
  });
}
