// The shape of the code, checked (docs/architecture.md): the analyzer is a short dispatcher, no
// file of the core grows past ~350 lines, no module of src/ takes part in an import cycle (type-only
// imports included), and the core imports nothing of the packages built on it. The import graph is
// read from the sources without TypeScript (every `import … from` / `export … from` with a
// relative path). `npm run lint` (oxlint) enforces the same boundaries and cycles while editing.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === '__fixtures__' ? [] : sources(p);
    return /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.ts') ? [p] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1]!;
    if (!spec.startsWith('.')) continue;
    const base = normalize(join(dirname(file), spec));
    const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
    if (hit) out.push(hit);
  }
  return out;
}

/** Strongly connected components with more than one file (or a file importing itself): the cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

describe('the shape of the code', () => {
  const files = sources('src');
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('reads the import graph', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(join('src/core/analyzer.ts'))).toContain(join('src/core/analysis/snapshot.ts'));
  });

  it('no import cycle in src/ (type-only imports included)', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('the cycle check finds one', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
  });

  it('the analyzer is a dispatcher (under 200 lines); no file of src/core is over 360 lines', () => {
    const lines = (f: string) => readFileSync(f, 'utf8').split('\n').length;
    expect(lines('src/core/analyzer.ts')).toBeLessThan(200);
    const big = files.filter((f) => f.startsWith(join('src/core')) && lines(f) > 360).map((f) => `${f}: ${lines(f)}`);
    expect(big).toEqual([]);
  });

  it('src/core imports only src/core', () => {
    const out = files.filter((f) => f.startsWith(join('src/core'))).flatMap((f) => graph.get(f)!.filter((t) => relative('src/core', t).startsWith('..')).map((t) => `${f} -> ${t}`));
    expect(out).toEqual([]);
  });
});
