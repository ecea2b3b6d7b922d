import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from './utf8';

describe('utf8Length', () => {
  it('equals the length TextEncoder gives, lone surrogates included', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '😀', 'é', '✓', 'a'),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const s = units.join('');
        expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
      }),
      { numRuns: 3000 },
    );
  });

  it('a high surrogate before an ordinary character is 3 bytes, and the character still counts', () => {
    expect(utf8Length('\ud800a')).toBe(4);
    expect(utf8Length('\ud800\ud800\udc00')).toBe(3 + 4);
  });
});
