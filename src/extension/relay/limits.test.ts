import { describe, expect, it } from 'vitest';
import { capEsEvent, HOOK_MAX_TEXT, MIN_RECORD_MAX_CHARS, recordMaxChars, utf8Length } from './limits';
import { HOOK_MAX_TEXT as HOOK_SIDE, textChunk } from '../hook/limits';

describe('relay size cap', () => {
  it('settings are clamped below the hook bound, so every hook cut is marked by the relay', () => {
    expect(HOOK_MAX_TEXT).toBe(HOOK_SIDE);
    expect(recordMaxChars(10)).toBe(MIN_RECORD_MAX_CHARS);
    expect(recordMaxChars(1e12)).toBe(HOOK_MAX_TEXT - 1);
    expect(recordMaxChars(5000)).toBe(5000);
    expect(recordMaxChars('5000')).toBeNull();
    expect(recordMaxChars(-1)).toBeNull();
    expect(recordMaxChars(1.5)).toBeNull();
  });

  it('counts UTF-8 bytes, surrogate pairs included', () => {
    expect(utf8Length('aé✓😀')).toBe(1 + 2 + 3 + 4);
  });

  it('cuts an es-event after a marker, and leaves one under the cap alone (same object)', () => {
    const ev = { kind: 'es-event' as const, conn: 'c', t: 0, type: 'message', data: 'abcdef', lastEventId: '1' };
    expect(capEsEvent(ev, 4, 7)).toEqual({
      out: [
        { kind: 'capture-gap', t: 7, lost: 0, conns: ['c'], reason: 'event-size-cap' },
        { ...ev, data: 'abcd' },
      ],
      cut: true,
    });
    expect(capEsEvent(ev, 6, 7).out[0]).toBe(ev);
  });
});

describe('hook size bound', () => {
  it('cuts an XHR text chunk at the hook bound with bytes and droppedBytes; leaves the count to the panel otherwise', () => {
    expect(textChunk('c', 1, 'abcdé', 3)).toEqual({ kind: 'chunk', conn: 'c', t: 1, text: 'abc', bytes: 6, droppedBytes: 3 });
    expect(textChunk('c', 1, 'ab', 3)).toEqual({ kind: 'chunk', conn: 'c', t: 1, text: 'ab' });
  });
});
