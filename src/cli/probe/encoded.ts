// A credential as the text the probe saves can hold it: the same characters, or an encoding of
// them that a server, a log line or the capture itself really writes. The pattern built here
// matches a span that decodes to the secret under any of:
//
// - percent-encoding (`%XX` per UTF-8 byte, hex in either case; .NET writes lower case): a server
//   echoing a URL it built with `?token=<encodeURIComponent(secret)>`, or its own request line;
// - `+` for a space: the form encoding of a query (URLSearchParams, Go's QueryEscape, PHP's
//   urlencode) writes a space so;
// - a JSON string's escapes (`\"`, `\\`, `\/`, `\n`…, `\uXXXX`, surrogate pairs for characters
//   past U+FFFF): the saved chunk texts and request bodies are raw JSON-RPC, and encoders differ
//   in what they escape (Python's json escapes every non-ASCII character, Go's `<>&`, .NET's
//   also `'+` and `"` as `\u0022`);
// - the same escapes twice: an MCP tool's result is often JSON text inside the JSON-RPC message
//   (`"text": "{\"error\":\"bad key \\\"…\\\"\"}"`), so a `"` of the secret is `\\\"` there.
//
// ASCII letters and digits are written as themselves by every one of those encoders (none
// escapes them), so they match only themselves: a secret made of them alone is found as by
// indexOf. Only the other characters have other forms.

const PLAIN = /^[A-Za-z0-9]$/;
const SHORT_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
/** How many JSON string levels a secret can be nested in (see above). */
const JSON_DEPTH = 2;

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const alt = (xs: string[]) => (xs.length === 1 ? xs[0]! : `(?:${xs.join('|')})`);
const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/** One JSON level's ways of writing a character: itself, its short escape, `\uXXXX` (either case). */
function jsonForms(c: string): string[] {
  if (PLAIN.test(c)) return [c];
  const forms = [c];
  const short = SHORT_ESCAPES[c];
  if (short !== undefined) forms.push(`\\${short}`);
  let u = '';
  for (let i = 0; i < c.length; i++) u += `\\u${hex(c.charCodeAt(i), 4)}`;
  forms.push(u);
  if (u.toLowerCase() !== u) forms.push(u.toLowerCase());
  return forms;
}

const memo = new Map<string, string[]>();

/**
 * Every text that writes character `c` through `depth` JSON string levels (each may leave it as
 * is), each text once. Built as strings, not as a pattern of nested alternatives: nested, the same
 * text had two readings (`\u002D` is `-` escaped at the inner level, and the escape's characters
 * left as themselves at the outer one), so a near miss made the match try 2^k readings for a
 * secret of k such characters (a JSON config value in a URL: seconds at 24, hours at 40).
 */
function jsonTexts(c: string, depth: number): string[] {
  if (depth === 0) return [c];
  const key = `${depth}\u0000${c}`;
  let out = memo.get(key);
  if (out === undefined) {
    const all = new Set<string>();
    for (const f of jsonForms(c)) {
      // The innermost level writes `c` as f; each outer level then writes each character of f.
      let texts = [''];
      for (const d of f) {
        const ds = jsonTexts(d, depth - 1);
        texts = texts.flatMap((t) => ds.map((x) => t + x));
      }
      for (const t of texts) all.add(t);
    }
    out = [...all];
    memo.set(key, out);
  }
  return out;
}

/** A pattern for `c` percent-encoded: each UTF-8 byte as `%XX`, the hex digits in either case. */
function percent(c: string): string {
  let p = '';
  for (const b of new TextEncoder().encode(c)) p += '%' + [...hex(b, 2)].map((h) => (/[A-F]/.test(h) ? `[${h}${h.toLowerCase()}]` : h)).join('');
  return p;
}

function charPattern(c: string): string {
  if (PLAIN.test(c)) return c;
  // Longest first: the fuller reading is tried first. What can
  // still read one text two ways is a form that is a prefix of another: only the raw `\` (every
  // form of it starts with `\`) and a raw `%` before hex digits; a secret of many of those against
  // a text of many of those is the case left (credentials are not written so).
  const texts = jsonTexts(c, JSON_DEPTH).sort((a, b) => b.length - a.length).map(literal);
  const forms = [...texts, percent(c)];
  if (c === ' ') forms.push('\\+');
  return alt(forms);
}

const patterns = new Map<string, RegExp>();

/**
 * A global pattern for every written form of `secret` (kept: a report redacts many strings with
 * the same few secrets). See charPattern for the one case that can still backtrack much.
 */
export function encodedPattern(secret: string): RegExp {
  let re = patterns.get(secret);
  if (!re) {
    if (patterns.size > 256) patterns.clear();
    re = new RegExp([...secret].map(charPattern).join(''), 'g');
    patterns.set(secret, re);
  }
  return re;
}
