// safeUrl and urlOrigin: the parts the analysis groups requests by and the witness compares, kept
// for the last URLs asked for.
import { describe, expect, it } from 'vitest';
import { safeUrl, urlOrigin } from './url-parts';

describe('safeUrl', () => {
  it('gives the origin and the endpoint (origin and path, no query, no fragment)', () => {
    expect(safeUrl('https://mcp.example.com:8443/v1/mcp?x=1#frag')).toEqual({ origin: 'https://mcp.example.com:8443', endpoint: 'https://mcp.example.com:8443/v1/mcp', parsed: true });
    expect(safeUrl('http://127.0.0.1:3000/')).toEqual({ origin: 'http://127.0.0.1:3000', endpoint: 'http://127.0.0.1:3000/', parsed: true });
  });

  it('takes a URL that does not parse as its own origin and endpoint', () => {
    expect(safeUrl('not a url')).toEqual({ origin: 'not a url', endpoint: 'not a url', parsed: false });
    expect(safeUrl('')).toEqual({ origin: '', endpoint: '', parsed: false });
  });

  it('parses a URL once while it is among the last ones asked for, and hands out parts no caller can change', () => {
    const a = safeUrl('http://127.0.0.1:9/mcp');
    expect(safeUrl('http://127.0.0.1:9/mcp')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
  });

  it('stays right past its bound: page data may name any number of URLs', () => {
    for (let i = 0; i < 1000; i++) {
      const url = `http://h${i}.example/p${i}?q=${i}`;
      expect(safeUrl(url)).toEqual({ origin: `http://h${i}.example`, endpoint: `http://h${i}.example/p${i}`, parsed: true });
    }
    expect(safeUrl('http://h3.example/p3')).toEqual({ origin: 'http://h3.example', endpoint: 'http://h3.example/p3', parsed: true });
  });
});

describe('urlOrigin', () => {
  it("is a URL's origin, or null when it does not parse (never the text itself)", () => {
    expect(urlOrigin('https://a.example:444/x?y')).toBe('https://a.example:444');
    expect(urlOrigin('https://a.example')).toBe('https://a.example');
    expect(urlOrigin('a.example')).toBeNull();
    // An opaque origin is the string "null", as URL gives it (the witness compares it as before).
    expect(urlOrigin('file:///x')).toBe('null');
    expect(safeUrl('data:text/plain,hi')).toEqual({ origin: 'null', endpoint: 'nulltext/plain,hi', parsed: true });
    // Asked for as parts first, then as an origin: the memo keeps whether it parsed.
    safeUrl('garbage');
    expect(urlOrigin('garbage')).toBeNull();
  });
});
