// A small incremental SSE parser (WHATWG "event stream interpretation") used by the exporters to
// list the events of a captured body with the time the completing chunk was read. The analysis
// core has its own; this one exists so exporters stay independent of the analyzer's internals.

export interface ParsedSseEvent {
  id?: string;
  event: string;
  data: string;
  retry?: number;
  /** Time the chunk that completed the event was read. */
  time: number;
  /** Raw text of the event block. */
  raw: string;
}

export function parseSseChunks(chunks: readonly { text: string; t: number }[]): { events: ParsedSseEvent[]; trailing: string } {
  const events: ParsedSseEvent[] = [];
  let buf = '';
  let raw = '';
  let data: string[] = [];
  let hasData = false;
  let event = '';
  let id: string | undefined;
  let retry: number | undefined;
  let pendingCR = false;
  let first = true;

  const line = (l: string, t: number) => {
    raw += `${l}\n`;
    if (l === '') {
      if (hasData || id !== undefined) {
        events.push({ ...(id !== undefined ? { id } : {}), event: event || 'message', data: data.join('\n'), ...(retry !== undefined ? { retry } : {}), time: t, raw });
      }
      raw = '';
      data = [];
      hasData = false;
      event = '';
      id = undefined;
      retry = undefined;
      return;
    }
    if (l.startsWith(':')) return;
    const i = l.indexOf(':');
    const field = i < 0 ? l : l.slice(0, i);
    let value = i < 0 ? '' : l.slice(i + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'event') event = value;
    else if (field === 'id') {
      if (!value.includes('\u0000')) id = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  for (const c of chunks) {
    let text = c.text;
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (pendingCR) {
        pendingCR = false;
        if (ch === '\n') continue;
      }
      if (ch === '\r') {
        line(buf, c.t);
        buf = '';
        pendingCR = true;
      } else if (ch === '\n') {
        line(buf, c.t);
        buf = '';
      } else buf += ch;
    }
  }
  return { events, trailing: raw + buf };
}
