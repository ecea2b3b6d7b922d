// `audit` options added for CI: --format (text | json | junit | github, --json its alias),
// --version, capture notices in the reports; --fail-on works the same in every format.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { exportHar } from '../../../src/export';
import type { CaptureRecord } from '../../../src/core/record';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}
const DIR = 'test/fixtures/captures/';
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('audit formats and --version', () => {
  it('--version / -V print the package version and exit 0', async () => {
    for (const a of ['--version', '-V']) {
      const r = await run([a]);
      expect(r).toEqual({ code: 0, stdout: `mcp-stream-inspector ${pkg.version}\n`, stderr: '' });
    }
  });

  it('--json is --format json; text is the default', async () => {
    const a = await run(['audit', `${DIR}lossy.har`, '--json']);
    const b = await run(['audit', `${DIR}lossy.har`, '--format', 'json']);
    expect(a).toEqual(b);
    expect(Object.keys(JSON.parse(a.stdout))).toEqual(['version', 'sessions', 'findings', 'files', 'servers']);
    expect(await run(['audit', `${DIR}lossy.har`, '--format=text'])).toEqual(await run(['audit', `${DIR}lossy.har`]));
  });

  it('bad --format values and --json with another format: one line, exit 2', async () => {
    for (const argv of [
      ['audit', `${DIR}lossy.har`, '--format', 'xml'],
      ['audit', `${DIR}lossy.har`, '--json', '--format', 'junit'],
      ['audit', `${DIR}lossy.har`, '--format'],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('--fail-on gives the same exit code in every format', async () => {
    for (const [file, failOn] of [['lossy.har', 'error'], ['opaque.har', 'error'], ['opaque.har', 'warning'], ['lossy.har', 'never']] as const) {
      const codes = await Promise.all(['text', 'json', 'junit', 'github'].map(async (f) => (await run(['audit', `${DIR}${file}`, '--format', f, '--fail-on', failOn])).code));
      expect(new Set(codes).size, `${file} ${failOn}: ${codes.join(',')}`).toBe(1);
    }
  });

  it('capture notices (an import of _eventSourceMessages) are in the text, json, junit and github reports', async () => {
    // The lossy capture's HAR with its events only in _eventSourceMessages, as other HAR writers save it.
    const records = (JSON.parse(readFileSync(`${DIR}lossy.capture.json`, 'utf8')) as { records: CaptureRecord[] }).records;
    const har = JSON.parse(exportHar(records)) as { log: { entries: Record<string, any>[]; _msiRecords?: unknown } };
    delete har.log._msiRecords;
    for (const e of har.log.entries) {
      if (e._eventSourceMessages?.length) e.response.content = { size: -1, mimeType: 'text/event-stream' };
      delete e._msi;
      delete e._sseEvents;
    }
    const file = join(mkdtempSync(join(tmpdir(), 'msi-formats-')), 'esm.har');
    writeFileSync(file, JSON.stringify(har));
    const text = await run(['audit', file]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/notice info har-event-source-messages: \d+ HAR entries .* hold their SSE events only in _eventSourceMessages/);
    expect(text.stdout).toContain('lossy-result-accepted');
    const json = JSON.parse((await run(['audit', file, '--json'])).stdout) as { notices: { file: string; code: string; level: string }[] };
    expect(json.notices).toEqual([expect.objectContaining({ file, code: 'har-event-source-messages', level: 'info' })]);
    expect((await run(['audit', file, '--format', 'junit'])).stdout).toContain('Capture notice: INFO har-event-source-messages');
    expect((await run(['audit', file, '--format', 'github'])).stdout).toMatch(/^::notice title=capture notice har-event-source-messages,file=.*::/m);
  });
});
