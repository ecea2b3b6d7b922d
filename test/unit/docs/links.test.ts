// Every relative link and image in README.md, CHANGELOG.md and docs/ points at a file (or folder)
// of the repository, and every #anchor at a heading GitHub renders in the file it names: the
// README was split into docs/ (issue 20), and a moved section must not leave a dead link behind.

import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, markdownFiles, refs, ROOT } from './markdown';

const external = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');

function broken(file: string): string[] {
  const out: string[] = [];
  for (const { href } of refs(file)) {
    if (!href || external(href)) continue;
    const [pathPart = '', anchor] = href.split('#', 2) as [string, string | undefined];
    const target = pathPart ? normalize(join(dirname(file), decodeURIComponent(pathPart))) : file;
    if (target.startsWith('..')) {
      out.push(`${href}: outside the repository`);
      continue;
    }
    if (!existsSync(join(ROOT, target))) {
      out.push(`${href}: no file ${target}`);
      continue;
    }
    if (anchor && target.endsWith('.md') && statSync(join(ROOT, target)).isFile() && !anchors(target).has(anchor)) {
      out.push(`${href}: no heading #${anchor} in ${target}`);
    }
  }
  return out;
}

describe('documentation links', () => {
  const files = markdownFiles();
  it('covers the README, the changelog and the docs table of contents', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/README.md', 'docs/findings.md']));
  });
  it.each(files)('%s: every relative link and anchor resolves', (file) => {
    expect(broken(file)).toEqual([]);
  });
  it('the docs table of contents links every page in docs/', () => {
    const linked = new Set(refs('docs/README.md').map((r) => normalize(join('docs', r.href.split('#')[0]!))));
    const pages = files.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md' && dirname(f) === 'docs');
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
  it('anchors follow GitHub: punctuation dropped, spaces to hyphens, repeats numbered', () => {
    const ids = anchors('docs/benchmarks.md');
    expect(ids).toContain('sse-field-reader-the-cores-own-vs-eventsource-parser-dependencies');
    expect(ids).toContain('issue-9-the-page-pays-only-for-a-copy-of-its-bytes-loaded-machine-2026-12-01');
    expect(ids).not.toContain('Latest results');
  });
});
