// The committed pictures (npm run screenshots: docs/images/, docs/store/) are the size the
// Markdown that shows them says, read from each PNG's IHDR; the store's are the 1280×800 the
// Chrome Web Store takes; none is left unreferenced or grows past a few hundred KB.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pngSize } from '../../support/png';
import { markdownFiles, refs, ROOT } from './markdown';

const PICTURE_DIRS = ['docs/images', 'docs/store'];
const committed = PICTURE_DIRS.flatMap((d) => readdirSync(join(ROOT, d)).filter((f) => f.endsWith('.png')).map((f) => join(d, f)));
const shown = markdownFiles().flatMap((file) =>
  refs(file)
    .filter((r) => r.href.endsWith('.png') && !/^[a-z]+:/i.test(r.href))
    .map((r) => ({ file, ...r, png: normalize(join(dirname(file), r.href)) })),
);

describe('committed pictures', () => {
  it('the README shows the panel docked right and the timeline, each with its size stated', () => {
    const readme = shown.filter((s) => s.file === 'README.md' && s.kind === 'image');
    expect(readme.map((s) => s.png)).toEqual(['docs/images/panel-docked-right.png', 'docs/images/timeline.png']);
    for (const s of readme) expect([s.width, s.height].every((n) => Number.isInteger(n) && n! > 0)).toBe(true);
  });

  it.each(shown.filter((s) => s.width !== undefined || s.height !== undefined).map((s) => [`${s.file} → ${s.png}`, s] as const))('%s: the PNG is the size the <img> says', (_, s) => {
    expect(pngSize(readFileSync(join(ROOT, s.png)))).toEqual({ width: s.width, height: s.height });
  });

  it.each(committed.filter((p) => p.startsWith('docs/store/')))('%s: 1280×800, a size the Chrome Web Store takes (docs/store/README.md)', (p) => {
    expect(pngSize(readFileSync(join(ROOT, p)))).toEqual({ width: 1280, height: 800 });
    expect(readFileSync(join(ROOT, 'docs/store/README.md'), 'utf8')).toContain('1280×800');
  });

  it.each(committed)('%s: shown by some page, and small', (p) => {
    expect(shown.map((s) => s.png)).toContain(p);
    expect(readFileSync(join(ROOT, p)).length).toBeLessThan(400 * 1024);
  });
});
