// A request URL's origin and endpoint (origin and path: no query, no fragment), as the analysis
// groups requests by them (sessions, conversations) and the witness compares origins.

export interface UrlParts {
  readonly origin: string;
  readonly endpoint: string;
  /** The URL parsed; when it did not, origin and endpoint are the URL itself. */
  readonly parsed: boolean;
}

/**
 * A page's MCP client sends its requests to one endpoint or a few, and the analysis asks for each
 * request's URL parts twice (its session or conversation, and the stream it follows), the witness
 * for an MCP request's origin once more. In a CPU profile of the panel over 1,000 JSON-RPC POSTs
 * (bench/profile-panel.ts, issue 22) a URL parsed each time was 41 ms of the analysis' 264 ms; 1.6
 * ms with this memo. The parts of the last URLs asked for are kept; page data may name any number of
 * URLs, so at most URL_MEMO of them, all dropped when full.
 */
const URL_MEMO = 256;
const memo = new Map<string, UrlParts>();

/**
 * `url`'s parts; a URL that does not parse is its own origin and endpoint. The same frozen object
 * while the URL stays among the last ones asked for.
 */
export function safeUrl(url: string): UrlParts {
  let parts = memo.get(url);
  if (parts === undefined) {
    if (memo.size >= URL_MEMO) memo.clear();
    memo.set(url, (parts = Object.freeze(parseUrl(url))));
  }
  return parts;
}

/** `url`'s origin, or null when it does not parse. */
export function urlOrigin(url: string): string | null {
  const p = safeUrl(url);
  return p.parsed ? p.origin : null;
}

function parseUrl(url: string): UrlParts {
  try {
    const u = new URL(url);
    return { origin: u.origin, endpoint: u.origin + u.pathname, parsed: true };
  } catch {
    return { origin: url, endpoint: url, parsed: false };
  }
}
