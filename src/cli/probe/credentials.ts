// Credentials the user gave that are not a --header value as typed: the parts of an
// `Authorization: Basic` value.

import { ANYWHERE_FROM } from './marker';

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
