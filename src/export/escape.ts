// Escaping shared by the UI and the exporters. Page and server data is hostile by default.

// C0/C1 controls except TAB/LF/CR, bidi embeddings/overrides/isolates and marks, zero-width
// characters, line/paragraph separators, BOM, interlinear annotations, Hangul fillers.
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFF9-\uFFFB]/g;

/** Replace invisible and bidi-control characters by a visible `⟨U+XXXX⟩`. Keeps TAB/LF/CR. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (ch) => `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Single line: newlines become `⏎`, tabs `⇥`; long text is cut with `…`. */
export function visibleLine(text: string, max = 400): string {
  const s = visible(text).replace(/\r\n|\r|\n/g, '⏎').replace(/\t/g, '⇥');
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/**
 * Markdown inline text: no HTML, no links, no emphasis, no code spans, no table breaks can come
 * from the data. Everything is backslash-escaped or entity-encoded; newlines become spaces.
 */
export function mdText(text: string, max = 1000): string {
  return visibleLine(text, max)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_\[\]|~]/g, (c) => `\\${c}`);
}

/**
 * Markdown text for the end of an ATX heading (`## …`): like mdText, and CommonMark's heading
 * rules cannot eat it — a trailing run of '#' (a "closing sequence") is backslash-escaped and
 * leading/trailing spaces become `&#32;` (heading content is stripped of edge spaces), so a
 * session id "abc #" or "x  " is shown whole.
 */
export function mdHeadingText(text: string, max = 1000): string {
  return mdText(text, max)
    .replace(/#/g, '\\#')
    .replace(/^ +| +$/g, (sp) => '&#32;'.repeat(sp.length));
}
