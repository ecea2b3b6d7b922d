// The MAIN-world hook must run unchanged under a page's strict CSP and Trusted Types: it never
// compiles strings to code and never writes HTML. Checked on the sources and, when it was built,
// on the shipped bundle (what Chrome injects). The e2e CSP test (hostile-page) checks the result.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const FORBIDDEN: [string, RegExp][] = [
  ['eval', /\beval\s*\(/],
  ['Function constructor', /\bnew\s+Function\s*\(|[^.\w]Function\s*\(/],
  ['string timer', /\bset(?:Timeout|Interval)\s*\(\s*['"`]/],
  ['HTML sink', /\b(?:innerHTML|outerHTML|insertAdjacentHTML|srcdoc)\b|document\.write/],
  ['script element', /createElement\s*\(\s*['"`]script/],
];

function offences(code: string): string[] {
  return FORBIDDEN.filter(([, re]) => re.test(code)).map(([name]) => name);
}

describe('hook: no dynamic code', () => {
  const dir = import.meta.dirname;
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    it(`source ${f}`, () => {
      const code = readFileSync(join(dir, f), 'utf8').replace(/^\s*\/\/.*$/gm, '');
      expect(offences(code)).toEqual([]);
    });
  }
  const bundle = resolve(dir, '../../../dist/src/extension/hook/hook.js');
  it.skipIf(!existsSync(bundle))('built bundle dist/src/extension/hook/hook.js', () => {
    expect(offences(readFileSync(bundle, 'utf8'))).toEqual([]);
  });
  it('the check itself catches each pattern', () => {
    expect(offences('eval("1")')).toEqual(['eval']);
    expect(offences('x = new Function("a", "b")')).toEqual(['Function constructor']);
    expect(offences("setTimeout('alert(1)', 5)")).toEqual(['string timer']);
    expect(offences('el.innerHTML = s')).toEqual(['HTML sink']);
    expect(offences('Function.prototype.toString; fn(x)')).toEqual([]);
  });
});
