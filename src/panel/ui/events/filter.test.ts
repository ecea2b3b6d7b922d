import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter';

describe('filter', () => {
  it('parseFilter splits tokens', () => {
    const f = parseFilter('method:tools/call  request:"2" code:replay-gap hello -world');
    expect(f).toMatchObject({ method: ['tools/call'], request: ['2'], code: ['replay-gap'], text: ['hello'], exclude: ['world'], empty: false });
    expect(parseFilter('  ').empty).toBe(true);
    expect(parseFilter('"chunk 12" -"a b"')).toMatchObject({ text: ['chunk 12'], exclude: ['a b'] });
  });
});
