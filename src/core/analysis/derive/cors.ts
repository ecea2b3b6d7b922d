// A request the browser refused to send: its CORS preflight was rejected (a `cors-preflight-rejected`
// notice names its URL: the live witness, or a HAR DevTools saved). The page's fetch then fails
// with no answer at all, like a connection that broke before the response; the server never saw
// it, so its tool did not run and no result was due from the server.
import type { SessionState, StreamS } from '../state';

/** `st` got no answer at all and a rejected preflight names its URL: the browser never sent it. */
export function refusedByBrowser(s: SessionState, st: StreamS): boolean {
  return st.status === undefined && st.state === 'error' && st.bytes === 0 && s.corsRefused?.has(st.url) === true;
}
