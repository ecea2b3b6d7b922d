// Exports of hostile page data (src/export, read only here): Markdown escapes pipes, backticks,
// HTML, newlines in cells and link syntax (checked with a real CommonMark + tables parser, HTML
// allowed, so that nothing the data does is hidden by a safe renderer); HAR and trace are valid,
// well-formed JSON and keep the content exactly.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import MarkdownIt, { type Token } from 'markdown-it';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import type { CaptureRecord } from '../../../src/core/record';
import { exportCapture, exportHar, exportMarkdown, exportTrace, toHar } from '../../../src/export';
import { visibleLine } from '../../../src/export/escape';
import { Capture, ev, progress, result } from '../core/helpers';

const HOSTILE = [
  'a|b||c',
  '`code` ``x``',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'line1\nline2\r\nline3\rline4',
  '[click](javascript:alert(1))',
  '![img](http://evil.example/x.png)',
  '<https://evil.example>',
  '<javascript:alert(1)>',
  '[ref]: http://evil.example',
  '*em* _u_ **b** ~~s~~',
  '# heading',
  '| --- | --- |',
  '&lt;script&gt; &#60;b&#62; &amp;',
  '\\|\\`\\',
  'bidi \u202egnp.exe',
  'nul\u0000 esc\u001b[31m del\u007f',
  'ls\u2028ps\u2029',
  'lone \ud800 surrogate',
  '😀 é 中文',
];

/** `k` everywhere; request ids `k` too unless `safeIds`. */
function hostileCapture(k: string, safeIds = false): CaptureRecord[] {
  const rid = safeIds ? 'req-1' : k;
  const c = new Capture();
  const init = c.request({ body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, headers: [['x-evil', k]] });
  c.response(init, { sessionId: k, headers: [['x-evil', k]] });
  c.chunk(init, ev('0', result(0, { protocolVersion: k, capabilities: {} })));
  c.end(init);
  const body = { jsonrpc: '2.0', id: rid, method: `tools/call${k}`, params: { name: k, _meta: { progressToken: k } } };
  const p = c.request({ sessionId: k, body, headers: [['x-evil', k]], url: `http://127.0.0.1:3939/mcp?q=${k}` });
  c.response(p, { headers: [[`x-${k.length}`, k]] });
  c.chunk(p, ev('1', progress(k, 1)) + ev('2', { jsonrpc: '2.0', method: 'notifications/message', params: { data: k } }, 'message'));
  c.chunk(p, ev('2', { jsonrpc: '2.0', method: 'notifications/message', params: { data: k } }));
  c.end(p, 'network-error');
  const g = c.request({ sessionId: k, lastEventId: '2' });
  c.response(g);
  c.chunk(g, ev('5', result(rid, { content: [{ type: 'text', text: k }] })) + `data: ${k.replace(/[\r\n]/g, ' ')}\n\n`);
  c.end(g);
  return c.records;
}

// ---------------------------------------------------------------- Markdown

const md = new MarkdownIt('default', { html: true, linkify: true });

function walk(tokens: Token[], f: (t: Token) => void) {
  for (const t of tokens) {
    f(t);
    if (t.children) walk(t.children, f);
  }
}

/** Text content of the inline tokens between index a and the matching close. */
function cellTexts(tokens: Token[]): string[][] {
  const rows: string[][] = [];
  let row: string[] | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close') {
      rows.push(row!);
      row = undefined;
    } else if (row && t.type === 'inline') {
      let s = '';
      walk(t.children ?? [], (c) => {
        if (c.type === 'text' || c.type === 'code_inline') s += c.content;
      });
      row.push(s);
    }
  }
  return rows;
}

function checkMarkdown(text: string, snap: AnalysisSnapshot) {
  const tokens = md.parse(text, {});
  const html = md.render(text);
  walk(tokens, (t) => {
    expect(t.type, `token ${t.type}: ${t.content}`).not.toMatch(/^html_(inline|block)$/);
    expect(t.type).not.toBe('image');
    if (t.type === 'link_open') {
      // Only a bare http(s) URL autolinked by linkify, showing itself: no disguised link.
      expect(t.attrGet('href')).toMatch(/^https?:\/\//);
    }
  });
  expect(html).not.toMatch(/<(script|img|iframe|svg|a\s[^>]*href="(?!https?:))/i);
  expect(html).not.toMatch(/<[a-z][^>]*\son\w+=/i);
  // Headings: only the report's own.
  const headings: string[] = [];
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') headings.push(tokens[i + 1]!.content);
  });
  for (const h of headings) expect(h).toMatch(/^(MCP Stream Inspector report|Session |No session|⛔ Request |Findings)/);
  expect(headings.filter((h) => h.startsWith('Session ') || h.startsWith('No session')).length).toBe(snap.sessions.length);
  // Tables: every row has the 5 columns; the id and method cells show the data (made visible).
  const rows = cellTexts(tokens);
  const reqs = Object.values(snap.requests).flat();
  expect(rows.length).toBe(reqs.length + snap.sessions.filter((s) => (snap.requests[s.key] ?? []).length > 0).length);
  for (const r of rows) expect(r.length, JSON.stringify(r)).toBe(5);
  const body = rows.filter((r) => r[0] !== 'Request id');
  expect(body.map((r) => r[0])).toEqual(reqs.map((r) => visibleLine(r.id, 60)));
}

// Was a bug in src/export/markdown.ts (commit 74a2e6d "Markdown report lists reconnect chains"):
// the "- Reconnect chain (request …)" line wrote `c.requestIds.join(', ')` without mdText(), so a
// JSON-RPC request id from the page was pasted into the report as Markdown/HTML. Fixed with
// mdText(c.requestIds.join(', '), 200); these cases now pass like the others.

describe('Markdown export', () => {
  for (const k of HOSTILE) {
    it(`escapes ${JSON.stringify(k)} (request ids safe)`, () => {
      const snap = analyzeRecords(hostileCapture(k, true));
      checkMarkdown(exportMarkdown(snap, { source: k, createdAt: k }), snap);
    });
    it(`escapes ${JSON.stringify(k)}`, () => {
      const snap = analyzeRecords(hostileCapture(k));
      expect(snap.sessions[0]!.sessionId).toBe(k);
      const text = exportMarkdown(snap, { source: k, createdAt: k });
      checkMarkdown(text, snap);
      // The session id is in the heading, visible and escaped, not interpreted.
      const tokens = md.parse(text, {});
      const h = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h2');
      let s = '';
      walk(tokens[h + 1]!.children ?? [], (c) => {
        if (c.type === 'text') s += c.content;
      });
      expect(s).toBe(`Session ${visibleLine(k, 80)}`);
    });
  }

  const alphabet = fc.constantFrom('|', '`', '<', '>', '[', ']', '(', ')', '!', '*', '_', '\\', '&', ';', '\n', '\r', ' ', 'a', ':', '/', '\u202e', '\u0000', '-', '=', '~', '"', "'");
  it('random strings as session ids, methods, event data and source (request ids safe)', () => {
    fc.assert(
      fc.property(fc.string({ unit: alphabet, minLength: 1, maxLength: 30 }), (k) => {
        const snap = analyzeRecords(hostileCapture(k, true));
        checkMarkdown(exportMarkdown(snap, { source: k }), snap);
      }),
      { numRuns: 300 },
    );
  });

  it('random strings as request ids too', () => {
    fc.assert(
      fc.property(fc.string({ unit: alphabet, minLength: 1, maxLength: 30 }), (k) => {
        const snap = analyzeRecords(hostileCapture(k));
        checkMarkdown(exportMarkdown(snap, { source: k }), snap);
      }),
      { numRuns: 300 },
    );
  });

  // Was a bug in src/export/markdown.ts (mdText escaped neither '#' nor edge spaces): CommonMark
  // strips a closing sequence of '#' and trailing spaces from ATX headings, so "## Session abc #"
  // rendered as "Session abc" and a session id " " as nothing. Fixed by mdHeadingText ('#' escaped,
  // edge spaces as &#32;). Checked on the rendered heading text (what a reader sees: escapes and
  // entities resolved), since an edge space can only survive in a heading as an entity.
  it('a session id ending in " #" or spaces is shown whole in its heading', () => {
    for (const k of ['#', 'abc #', 'x ##', ' ', 'abc  ', '# a #']) {
      const snap = analyzeRecords(hostileCapture(k));
      const tokens = md.parse(exportMarkdown(snap), {});
      const h = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h2');
      expect(tokens[h + 1]!.children!.map((c) => c.content).join('')).toBe(`Session ${k}`);
    }
  });
});

// ---------------------------------------------------------------- HAR and trace

function wellFormedJson(text: string): unknown {
  expect((text as string & { isWellFormed(): boolean }).isWellFormed()).toBe(true); // no lone surrogate
  return JSON.parse(text) as unknown;
}

describe('HAR export', () => {
  for (const k of HOSTILE) {
    it(`valid JSON, content preserved: ${JSON.stringify(k)}`, () => {
      const records = hostileCapture(k);
      const text = exportHar(records);
      const har = wellFormedJson(text) as ReturnType<typeof toHar>;
      const reqs = records.filter((r) => r.kind === 'request');
      expect(har.log.entries.length).toBe(reqs.length);
      for (const e of har.log.entries) {
        const conn = e._msi.conn;
        const req = reqs.find((r) => r.conn === conn)!;
        expect(e.request.url).toBe(req.url);
        expect(e.request.postData?.text ?? null).toBe(req.body);
        expect(e.request.headers.map((h) => [h.name, h.value])).toEqual(req.headers);
        const res = records.find((r) => r.kind === 'response' && r.conn === conn)!;
        expect(e.response.headers.map((h) => [h.name, h.value])).toEqual((res as { headers: unknown }).headers);
        const body = records.filter((r) => r.kind === 'chunk' && r.conn === conn).map((r) => (r as { text: string }).text).join('');
        expect(e.response.content.text ?? '').toBe(body);
      }
      // Its SSE events carry the same data as the analysis.
      const snap = analyzeRecords(records);
      const post = har.log.entries[1]!;
      const st = Object.values(snap.streams).find((s) => s.id.endsWith(`:${post._msi.conn}`))!;
      expect(post._sseEvents!.map((x) => [x.id, x.data])).toEqual(st.events.map((x) => [x.id, x.data]));
      // Re-imported, it analyzes the same.
      const again = analyzeRecords(importText(text).records);
      expect(again.findings.map((f) => [f.code, f.requestId, f.eventIds])).toEqual(snap.findings.map((f) => [f.code, f.requestId, f.eventIds]));
      expect(again.sessions.map((s) => s.sessionId)).toEqual([k]);
    });
  }

  it('random page strings anywhere: always valid, well-formed JSON that re-imports', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (k) => {
        const records = hostileCapture(k);
        const text = exportHar(records);
        wellFormedJson(text);
        expect(() => importText(text)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });
});

describe('trace export', () => {
  it('valid JSON with every hostile string, findings messages kept', () => {
    for (const k of HOSTILE) {
      const snap = analyzeRecords(hostileCapture(k));
      const t = wellFormedJson(exportTrace(snap)) as { traceEvents: { ph: string; args?: { code?: string; message?: string } }[] };
      const msgs = t.traceEvents.filter((e) => e.args?.code).map((e) => e.args!.message);
      for (const f of snap.findings) expect(msgs).toContain(f.message);
    }
  });

  it('random page strings: valid, well-formed JSON', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (k) => {
        wellFormedJson(exportTrace(analyzeRecords(hostileCapture(k))));
      }),
      { numRuns: 200 },
    );
  });

  it('file names of exports of one session contain no path or control characters', () => {
    for (const k of [...HOSTILE, '../../etc/passwd', 'C:\\x', 'a/b']) {
      const records = hostileCapture(k);
      const snapshot = analyzeRecords(records);
      for (const kind of ['json', 'har', 'trace', 'otlp', 'markdown'] as const) {
        const r = exportCapture(kind, { records, snapshot, sessionKey: k, createdAt: '2026-01-01T00:00:00.000Z' });
        expect(r.filename).toMatch(/^[A-Za-z0-9_.-]+$/);
      }
    }
  });
});
