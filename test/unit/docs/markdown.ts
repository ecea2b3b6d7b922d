// The Markdown of README.md, CHANGELOG.md and docs/, read with markdown-it (CommonMark, HTML on, as
// GitHub reads it) for the docs tests: every file, its links and images, its heading ids.

import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import MarkdownIt, { type Token } from 'markdown-it';

export const ROOT = resolve(import.meta.dirname, '../../..');
const md = new MarkdownIt('default', { html: true });

/** README.md, CHANGELOG.md and every .md under docs/, relative to the repository root. */
export function markdownFiles(): string[] {
  const out = ['README.md', 'CHANGELOG.md'];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.md')) out.push(join(dir, e.name));
    }
  };
  walk('docs');
  return out;
}

export const tokens = (file: string): Token[] => md.parse(readFileSync(join(ROOT, file), 'utf8'), {});

function* all(ts: Token[]): Generator<Token> {
  for (const t of ts) {
    yield t;
    if (t.children) yield* all(t.children);
  }
}

/** Raw HTML's attributes (`<img src=… width=…>`), by tag. */
export function htmlTags(html: string): { tag: string; attrs: Record<string, string> }[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/gi)].map((m) => ({
    tag: m[1]!.toLowerCase(),
    attrs: Object.fromEntries([...m[2]!.matchAll(/([a-z-]+)\s*=\s*"([^"]*)"/gi)].map((a) => [a[1]!.toLowerCase(), a[2]!])),
  }));
}

export interface Ref {
  kind: 'link' | 'image';
  href: string;
  /** <img> width / height when the Markdown states them. */
  width?: number;
  height?: number;
}

/** Every link and image of a file: Markdown syntax and raw HTML (<a href>, <img src>). */
export function refs(file: string): Ref[] {
  const out: Ref[] = [];
  for (const t of all(tokens(file))) {
    if (t.type === 'link_open') out.push({ kind: 'link', href: t.attrGet('href') ?? '' });
    else if (t.type === 'image') out.push({ kind: 'image', href: t.attrGet('src') ?? '' });
    else if (t.type === 'html_block' || t.type === 'html_inline') {
      for (const { tag, attrs } of htmlTags(t.content)) {
        if (tag === 'a' && attrs.href !== undefined) out.push({ kind: 'link', href: attrs.href });
        if (tag === 'img' && attrs.src !== undefined) {
          out.push({ kind: 'image', href: attrs.src, ...(attrs.width ? { width: Number(attrs.width) } : {}), ...(attrs.height ? { height: Number(attrs.height) } : {}) });
        }
      }
    }
  }
  return out;
}

/**
 * The ids GitHub gives a file's headings (github-slugger's rule: the heading's text in lower
 * case, characters other than letters, digits, marks, spaces, `-` and `_` removed, spaces made
 * `-`; a repeated id gets `-1`, `-2`, …), plus explicit `<a id>` / `<a name>` anchors.
 */
export function anchors(file: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const ts = tokens(file);
  ts.forEach((t, i) => {
    if (t.type === 'heading_open') {
      const text = (ts[i + 1]?.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');
      const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      ids.add(n ? `${base}-${n}` : base);
    }
    if (t.type === 'html_block' || t.type === 'html_inline' || t.type === 'inline') {
      for (const c of t.type === 'inline' ? (t.children ?? []).filter((x) => x.type === 'html_inline') : [t]) {
        for (const { tag, attrs } of htmlTags(c.content)) if (tag === 'a' && (attrs.id ?? attrs.name)) ids.add((attrs.id ?? attrs.name)!);
      }
    }
  });
  return ids;
}
