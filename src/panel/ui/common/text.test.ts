import { describe, expect, it } from 'vitest';
import { formatCount, visible, visibleLine } from './text';

describe('visible text', () => {
  it('visible() escapes bidi, zero-width and C0/C1 controls, keeps newlines', () => {
    expect(visible('a\u202Eb\u200Dc\u0000d\u009be\nf\tg')).toBe('a⟨U+202E⟩b⟨U+200D⟩c⟨U+0000⟩d⟨U+009B⟩e\nf\tg');
    expect(visibleLine('a\r\nb\tc')).toBe('a⏎b⇥c');
    expect(visible('\u2066\u2069\uFEFF')).toBe('⟨U+2066⟩⟨U+2069⟩⟨U+FEFF⟩');
  });
});

describe('formatCount', () => {
  it('groups thousands as DevTools shows counts, whatever the panel locale', () => {
    expect([0, 999, 1000, 1234567].map(formatCount)).toEqual(['0', '999', '1,000', '1,234,567']);
  });
});
