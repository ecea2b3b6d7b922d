// Credentials the user gave that are not a --header value as typed: the parts of an
// `Authorization: Basic` value, and those in the probed URL (userinfo, a key as a path segment,
// query). The URL is shown (captures' `source` and request URLs, the report) with them replaced;
// the probe's own requests use the real URL.

import { ANYWHERE_FROM, REDACTED } from './marker';

/** Strict base64 (what a Basic value is), decoded to text; undefined when it is not. */
function unbase64(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(b64, 'base64');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // RFC 7617's legacy default charset.
    return bytes.toString('latin1');
  }
}

/**
 * What a server that decoded a Basic value may write of it: `user:pass` ("user alice:hunter22 is
 * not allowed"), and the password alone when it is long enough to be replaced anywhere. A short
 * one alone is likely a word the report also uses (`admin`, `test`): it is still caught in its
 * pair and in the base64, which the caller redacts (the value after the scheme).
 */
export function basicSecrets(b64: string): string[] {
  const pair = unbase64(b64);
  const i = pair?.indexOf(':') ?? -1;
  if (pair === undefined || i < 0) return [];
  const pass = pair.slice(i + 1);
  return [pair, ...(pass.length >= ANYWHERE_FROM ? [pass] : [])];
}

/** Percent-decoded (a query's `+` is a space, userinfo's is not); as it is when malformed. */
const decode = (s: string, plusIsSpace: boolean) => {
  try {
    return decodeURIComponent(plusIsSpace ? s.replace(/\+/g, ' ') : s);
  } catch {
    return s;
  }
};

/**
 * Query names that hold a credential (api_key, access_token, X-Amz-Signature, auth, password,
 * sessionid, an OAuth code…): their values are secrets at any length. Other values are secrets
 * when long enough to be replaced anywhere (a vendor's own name for a key, a base64 config
 * holding keys); a short one (`?debug=1`) would turn every such word of the report into the
 * marker, and is no credential under such a name.
 */
const CREDENTIAL_WORDS = new Set([
  'key', 'apikey', 'token', 'accesstoken', 'apitoken', 'authtoken', 'auth', 'authorization', 'bearer',
  'sig', 'signature', 'secret', 'pass', 'passwd', 'password', 'pwd', 'credential', 'credentials',
  'session', 'sessionid', 'jwt', 'code',
]);

/**
 * Whether a query name is one of those: one of its words is (words split at `_ - . [ ]` and where
 * camelCase turns upper: `api_key`, `X-Amz-Signature`, `accessToken`). Not a word's inside:
 * `author`, `passthrough`, `keyframes`, `signal` name no credential, and their short values
 * (`?author=1`) would turn every such number or word of the saved captures into the marker.
 */
function credentialName(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_.\-[\]]+/);
  return words.some((w) => CREDENTIAL_WORDS.has(w.toLowerCase()));
}

/** The query's `name=value` parts, raw (as in the URL) and decoded. */
function queryParts(search: string): { rawName: string; name: string; raw: string; value: string; bare: boolean }[] {
  return search
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => p.length > 0)
    .map((p) => {
      const i = p.indexOf('=');
      const rawName = i < 0 ? '' : p.slice(0, i);
      const raw = i < 0 ? p : p.slice(i + 1);
      return { rawName, name: decode(rawName, true), raw, value: decode(raw, true), bare: i < 0 };
    });
}

/** How long a path segment must be to be taken for a credential (credentialSegment). */
const PATH_SECRET_FROM = 16;

/**
 * Whether a path segment (decoded) is a credential: hosted servers key a user's server by its URL
 * (Firecrawl's `https://mcp.firecrawl.dev/<api key>/v2/mcp`; a per-user UUID or base64 token).
 * Such a segment is long and mixes letters and digits; the segments that name a route (`mcp`,
 * `sse`, `v2`, `2025-06-18`, `api`, a server's name) are short or have not both. A long name with
 * a digit (`my-server-v2-production`) is taken for one: the safe side, and the host and the other
 * segments still say which server was graded.
 */
function credentialSegment(segment: string): boolean {
  return segment.length >= PATH_SECRET_FROM && /[A-Za-z]/.test(segment) && /[0-9]/.test(segment);
}

/** The path's segments, raw (as in the URL) and decoded, with whether each is a credential. */
function pathParts(pathname: string): { raw: string; value: string; secret: boolean }[] {
  return pathname.split('/').map((raw) => {
    const value = decode(raw, false);
    return { raw, value, secret: credentialSegment(value) };
  });
}

/**
 * The URL as the report and the captures show it: host and path (what the reader needs to know
 * which server was graded) with a segment that is a credential replaced, the password of
 * userinfo, or the user name when there is no password (`https://<token>@host`: it is the
 * credential), every query value (`?api_key=`, `?token=`, Smithery's `config=<base64 of keys>`:
 * names differ by vendor, and the grade depends on none of them) and the fragment (an OAuth
 * `#access_token=` pasted with the URL) replaced. A text that is no URL is returned as it is.
 */
export function shownUrl(href: string): string {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return href;
  }
  const user = u.password ? `${u.username}:${REDACTED}@` : u.username ? `${REDACTED}@` : '';
  const parts = queryParts(u.search).map((p) => (p.bare ? REDACTED : `${p.rawName}=${p.raw === '' ? '' : REDACTED}`));
  const search = u.search ? `?${parts.join('&')}` : '';
  const path = pathParts(u.pathname).map((p) => (p.secret ? REDACTED : p.raw)).join('/');
  return `${u.protocol}//${user}${u.host}${path}${search}${u.hash ? `#${REDACTED}` : ''}`;
}

/**
 * The URL's credentials as secrets for the rest of the text (a server that echoes its URL or
 * the Basic credentials Node sends for a URL's userinfo): each raw (as written in the URL) and
 * decoded (as the server reads it).
 */
export function urlSecrets(href: string): string[] {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (u.username || u.password) {
    // http-fetch.ts hands the URL to node:http, which sends `Authorization: Basic
    // base64(user:pass)`, both decoded: a server may echo that value or what it decodes to.
    const pair = `${decode(u.username, false)}:${decode(u.password, false)}`;
    out.push(`${u.username}:${u.password}`, pair, Buffer.from(pair, 'utf8').toString('base64'));
    if (!u.password) out.push(u.username, decode(u.username, false));
    const pass = decode(u.password, false);
    if (pass.length >= ANYWHERE_FROM) out.push(u.password, pass);
  }
  for (const p of pathParts(u.pathname)) if (p.secret) out.push(p.raw, p.value);
  for (const p of queryParts(u.search)) {
    // A bare part (`?sk-…`) has no name to tell: a secret when long enough, as any other value.
    if (credentialName(p.name) || p.value.length >= ANYWHERE_FROM) out.push(p.raw, p.value);
  }
  return [...new Set(out.filter((x) => x.length > 0))];
}
