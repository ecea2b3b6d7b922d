// `audit --format github`: every annotation line is exactly what GitHub's Actions toolkit
// (@actions/core: core.error / core.warning / core.notice with { title, file }) writes for the same
// annotation, and page text cannot break out of its line into a second workflow command.
import * as core from '@actions/core';
import { EOL } from 'node:os';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main';
import { annotation } from '../../../src/cli/format-github';
import { exportJson } from '../../../src/export';
import { hostileCutCapture } from '../export/helpers';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

/** What @actions/core prints for one annotation. */
function viaToolkit(command: 'error' | 'warning' | 'notice', props: { title: string; file: string }, message: string): string {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  try {
    core[command](message, props);
  } finally {
    spy.mockRestore();
  }
  expect(out.endsWith(EOL)).toBe(true);
  return out.slice(0, -EOL.length);
}

/** The runner's reading of a command line (ActionCommand.TryParseV2): name, properties, message. */
function parse(line: string): { command: string; props: Record<string, string>; message: string } | undefined {
  const m = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) return undefined;
  const unData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const unProp = (s: string) => unData(s.replace(/%3A/g, ':').replace(/%2C/g, ','));
  const props: Record<string, string> = {};
  for (const kv of (m[2] ?? '').split(',').filter(Boolean)) {
    const i = kv.indexOf('=');
    props[kv.slice(0, i)] = unProp(kv.slice(i + 1));
  }
  return { command: m[1]!, props, message: unData(m[3]!) };
}

afterEach(() => vi.restoreAllMocks());

const DIR = 'test/fixtures/captures/';

describe('audit --format github', () => {
  it('the lossy capture: one ::error per error finding, titled with the code and the request, as @actions/core writes it', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, '--format', 'github']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const json = JSON.parse((await run(['audit', `${DIR}lossy.har`, '--json'])).stdout) as { findings: { code: string; severity: string; message: string }[] };
    // One capture health annotation per file (a notice: nothing was lost), then the findings.
    expect(lines.filter((l) => l.includes('title=capture health,'))).toEqual([`::notice title=capture health,file=${DIR.replace(/:/g, '%3A')}lossy.har::complete: the inspector lost no records and has no notice about capture`]);
    const cmds = lines.filter((l) => l.startsWith('::') && !l.includes('title=capture health,'));
    expect(cmds).toHaveLength(json.findings.length);
    json.findings.forEach((f, i) => {
      const p = parse(cmds[i]!)!;
      expect(p.command).toBe(f.severity === 'info' ? 'notice' : f.severity);
      expect(p.props.file).toBe(`${DIR}lossy.har`);
      expect(p.props.title).toMatch(new RegExp(`^${f.code} in tools/call long_task #2$`));
      expect(p.message.startsWith(f.message)).toBe(true);
      expect(cmds[i]).toBe(viaToolkit(p.command as 'error', { title: p.props.title!, file: p.props.file! }, p.message));
    });
    expect(lines.at(-1)).toBe('mcp-stream-inspector audit: 1 file(s), 2 error(s), 0 warning(s), 0 info');
  });

  it('warnings and infos: ::warning and ::notice', async () => {
    const r = await run(['audit', `${DIR}opaque.har`, `${DIR}dropped-result.har`, '--format', 'github']);
    const cmds = r.stdout.split('\n').filter((l) => l.startsWith('::')).map((l) => parse(l)!.command);
    expect(cmds).toContain('warning');
    expect(new Set(cmds).size).toBeGreaterThan(1);
  });

  it('page text with controls (ESC, VT, NEL, U+2028, bidi) in a method or tool name: shown as code points, never written raw', async () => {
    const k = 'x\u001b[31mred\u000b\u0085\u2028\u202e::error::PWNED';
    const dir = mkdtempSync(join(tmpdir(), 'msi-gh-'));
    try {
      const file = join(dir, 'hostile.msi.json');
      writeFileSync(file, exportJson(hostileCutCapture(k, { methodSuffix: true, hostileId: true })));
      const r = await run(['audit', file, '--format', 'github']);
      expect(r.stdout).toContain('\\u{001B}[31mred');
      expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
      for (const l of r.stdout.trimEnd().split('\n').slice(0, -1)) expect(parse(l)).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('any text: the same line as the toolkit writes, one line, read back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), (message, title, file) => {
        const line = annotation('warning', { title, file }, message);
        expect(line).not.toMatch(/[\r\n]/);
        expect(line).toBe(viaToolkit('warning', { title, file }, message));
        expect(parse(line)).toEqual({ command: 'warning', props: { title, file }, message });
      }),
      { numRuns: 300 },
    );
    expect(annotation('error', { title: 't', file: 'f' }, 'a\n::set-output name=x::y')).toBe('::error title=t,file=f::a%0A::set-output name=x::y');
  });
});
