// `mcp-stream-inspector mcp` driven by the official SDK v2 client over stdio and over --http,
// on copies of the committed fixture captures and HARs. Every structured answer is checked against
// the core's analysis of the same file computed here (not against stored text).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core/analyzer';
import { importText } from '../../../src/core/import/index';
import type { AnalysisSnapshot } from '../../../src/core/model';
import { sortFindings, VERDICT_TEXT } from '../../../src/core/presentation';
import { TITLE } from '../../../src/core/findings';
import { diffSnapshots } from '../../../src/core/diff/index';
import { RECORD_VERSION } from '../../../src/core/record';
import { Capture, initSession } from '../core/helpers';
import { buildCli, callTool, connectHttp, connectStdio, refusal, startHttpServer, type McpConnection } from '../../support/mcp-cli';

const FIXTURES = 'test/fixtures/captures/';
const FILES = readdirSync(FIXTURES).filter((n) => /\.(har|json)$/.test(n) && n !== 'index.json').sort();

const analyse = (file: string): AnalysisSnapshot => analyzeRecords(importText(readFileSync(join(FIXTURES, file), 'utf8')).records);

let bin: string;
let root: string;
let outside: string;
let stopHttp: (() => Promise<void>) | undefined;
let httpUrl: string;

beforeAll(async () => {
  bin = buildCli();
  const base = mkdtempSync(join(tmpdir(), 'msi-mcp-root-'));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'captures'), { recursive: true });
  mkdirSync(outside);
  for (const f of FILES) copyFileSync(join(FIXTURES, f), join(root, 'captures', f));
  writeFileSync(join(outside, 'secret.har'), readFileSync(join(FIXTURES, 'lossy.har')));
  symlinkSync(join(outside, 'secret.har'), join(root, 'link.har'));
  symlinkSync(join(outside, 'planted.har'), join(root, 'dangling.har'));
  const h = await startHttpServer(bin, ['--root', root]);
  httpUrl = h.url;
  stopHttp = h.stop;
}, 120_000);

afterAll(async () => {
  await stopHttp?.();
});

const transports: [string, () => Promise<McpConnection>][] = [
  ['stdio', () => connectStdio(bin, ['--root', root])],
  ['--http', () => connectHttp(httpUrl)],
];

describe.each(transports)('over %s', (_name, connect) => {
  let c: McpConnection;
  beforeAll(async () => {
    c = await connect();
  });
  afterAll(async () => {
    await c?.close();
  });

  it('lists every file tool with input and output schemas, the resources and the prompt', async () => {
    const { tools } = await c.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(['diff_captures', 'explain_finding', 'export_capture', 'get_events', 'get_request', 'get_timeline', 'list_captures', 'list_findings', 'list_sessions', 'open_capture']);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description!.length).toBeGreaterThan(40);
    }
    const { prompts } = await c.client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('diagnose_session');
  });

  it('open_capture on the folder opens every fixture, each summary as the core analyses it', async () => {
    const r = await callTool(c.client, 'open_capture', { path: 'captures' });
    expect(r.skipped).toEqual([]);
    expect(r.opened.map((o: { label: string }) => o.label)).toEqual(FILES.map((f) => join('captures', f)));
    for (const o of r.opened) {
      const snap = analyse(o.label.slice('captures/'.length));
      expect(o.sessions, o.label).toBe(snap.sessions.length);
      expect(o.records).toBe(snap.recordCount);
      expect(o.findings.total).toBe(snap.findings.length);
      expect(o.findings.error).toBe(snap.findings.filter((f) => f.severity === 'error').length);
      const worst = sortFindings(snap.findings)[0];
      expect(o.worstFinding?.code ?? null).toBe(worst?.code ?? null);
      expect(o.format).toBe(o.label.endsWith('.har') ? 'HAR' : 'capture');
    }
    // Opening a file again gives the same capture id.
    const again = await callTool(c.client, 'open_capture', { path: 'captures/lossy.capture.json' });
    expect(again.opened[0].capture).toBe(r.opened.find((o: { label: string }) => o.label.endsWith('/lossy.capture.json')).capture);
  });

  const idOf = async (file: string): Promise<string> => {
    const r = await callTool(c.client, 'open_capture', { path: `captures/${file}` });
    return r.opened[0].capture;
  };

  it('list_sessions: era, scheme, verdicts and worst finding of each session; pages with a cursor', async () => {
    for (const file of ['lossy.capture.json', 'python-shared.har', 'polling.har']) {
      const id = await idOf(file);
      const snap = analyse(file);
      const all: any[] = [];
      let cursor: string | undefined;
      do {
        const page = await callTool(c.client, 'list_sessions', { capture: id, limit: 1, ...(cursor ? { cursor } : {}) });
        expect(page.total).toBe(snap.sessions.length);
        all.push(...page.sessions);
        cursor = page.nextCursor;
      } while (cursor);
      expect(all).toHaveLength(snap.sessions.length);
      for (const s of all) {
        const core = snap.sessions[Number(s.session.slice(1)) - 1]!;
        expect(s.era).toBe(core.era);
        expect(s.idScheme).toBe(core.idScheme.kind);
        expect(s.lossless).toBe(core.lossless);
        expect(s.requests).toBe((snap.requests[core.key] ?? []).length);
        expect(s.worstFinding?.code ?? null).toBe(sortFindings(snap.findings.filter((f) => f.sessionKey === core.key))[0]?.code ?? null);
      }
    }
  });

  it('a cursor of one query is refused for another', async () => {
    const id = await idOf('python-shared.har');
    const p = await callTool(c.client, 'list_findings', { capture: id, limit: 1 });
    expect(p.nextCursor).toBeTruthy();
    expect(await refusal(c.client, 'list_findings', { capture: id, limit: 1, severity: 'error', cursor: p.nextCursor })).toMatch(/another query/);
  });

  it('get_timeline: streams, the resume chain and the gap of the lossy capture', async () => {
    const id = await idOf('lossy.capture.json');
    const snap = analyse('lossy.capture.json');
    const t = await callTool(c.client, 'get_timeline', { capture: id, session: 's1' });
    const s = snap.sessions[0]!;
    expect(t.streams.map((x: { streamId: string }) => x.streamId)).toEqual(s.streamIds);
    expect(t.total).toBe(s.streamIds.length);
    expect(t.nextCursor).toBeUndefined();
    const paged = await callTool(c.client, 'get_timeline', { capture: id, session: 's1', limit: 1 });
    expect(paged.streams.map((x: { streamId: string }) => x.streamId)).toEqual(s.streamIds.slice(0, 1));
    const second = await callTool(c.client, 'get_timeline', { capture: id, session: 's1', limit: 1, cursor: paged.nextCursor });
    expect(second.streams.map((x: { streamId: string }) => x.streamId)).toEqual(s.streamIds.slice(1, 2));
    expect(t.chains.map((x: { rootStreamId: string }) => x.rootStreamId)).toEqual((s.chains ?? []).map((x) => x.rootStreamId));
    const resume = t.streams.find((x: { lastEventIdSent: string | null }) => x.lastEventIdSent !== null);
    expect(resume.lastEventIdSent).toBe(snap.streams[resume.streamId]!.lastEventIdSent);
    expect(resume.resumes).toBe(snap.streams[resume.streamId]!.resumes);
    const byHandle = await callTool(c.client, 'get_events', { capture: id, stream: resume.stream });
    expect(byHandle.streamId).toBe(resume.streamId);
    expect(byHandle.total).toBe(snap.streams[resume.streamId]!.events.length);
    const gaps = snap.findings.filter((f) => f.code === 'replay-gap');
    expect(t.gaps.map((g: { code: string; missing: string | null }) => [g.code, g.missing])).toEqual(gaps.map((g) => [g.code, g.missing ?? null]));
    expect(t.gaps[0].missing).toBe('12–13');
  });

  it('list_findings filters by code, severity and request, worst first', async () => {
    const id = await idOf('python-shared.har');
    const snap = analyse('python-shared.har');
    const sorted = sortFindings(snap.findings);
    const all = await callTool(c.client, 'list_findings', { capture: id, limit: 100 });
    expect(all.findings.map((f: { code: string }) => f.code)).toEqual(sorted.slice(0, 100).map((f) => f.code));
    const errors = await callTool(c.client, 'list_findings', { capture: id, severity: 'warning', limit: 100 });
    expect(errors.total).toBe(snap.findings.filter((f) => f.severity !== 'info').length);
    const code = sorted[0]!.code;
    const byCode = await callTool(c.client, 'list_findings', { capture: id, code, limit: 100 });
    expect(byCode.total).toBe(snap.findings.filter((f) => f.code === code).length);
    const lossy = await idOf('lossy.capture.json');
    const r2 = await callTool(c.client, 'list_findings', { capture: lossy, request: '2' });
    expect(r2.findings.map((f: { code: string }) => f.code).sort()).toEqual(analyse('lossy.capture.json').findings.filter((f) => f.requestId === '2').map((f) => f.code).sort());
    const bad = await refusal(c.client, 'list_findings', { capture: id, code: 'no-such-code' });
    expect(bad).toMatch(/not a finding code/);
    // before: "explain_finding with no code lists them", which refuses a call without a code
    expect(bad).toContain('lossy-result-accepted, ');
    expect(bad).not.toMatch(/with no code/);
    expect(await refusal(c.client, 'explain_finding', {})).not.toMatch(/lossy-result-accepted/);
  });

  it('get_events by id range: the ids around the gap, as the core holds them', async () => {
    const id = await idOf('lossy.capture.json');
    const snap = analyse('lossy.capture.json');
    const gap = snap.findings.find((f) => f.code === 'replay-gap')!;
    const evs = await callTool(c.client, 'get_events', { capture: id, stream: gap.streamId, fromId: '10', toId: '20' });
    const core = snap.streams[gap.streamId!]!.events.filter((e) => e.id !== undefined && Number(e.id) >= 10 && Number(e.id) <= 20);
    expect(evs.events.map((e: { id: string }) => e.id)).toEqual(core.map((e) => e.id));
    expect(evs.events[0].data).toBe(core[0]!.data);
    expect(evs.events.map((e: { id: string }) => e.id)).not.toContain('12');
  });

  it('get_request: request 2 of the lossy capture is lossy, ids 12–13, with what to do', async () => {
    const id = await idOf('lossy.capture.json');
    const snap = analyse('lossy.capture.json');
    const core = snap.requests[snap.sessions[0]!.key]!.find((r) => r.id === '2')!;
    const r = await callTool(c.client, 'get_request', { capture: id, request: '2' });
    expect(r.verdict).toBe(core.verdict);
    expect(r.verdict).toBe('lossy');
    expect(r.verdictText).toBe(VERDICT_TEXT.lossy);
    expect(r.loss.missing).toBe('12–13');
    expect(r.cumulativeNotifications).toBe(core.cumulativeCount);
    expect(r.worstFinding.code).toBe('lossy-result-accepted');
    expect(r.whatToDo.map((a: { code: string }) => a.code)).toContain('lossy-result-accepted');
    expect(r.tool).toBe('long_task');
    expect(await refusal(c.client, 'get_request', { capture: id, request: '999' })).toMatch(/no request/);
  });

  it('get_request on every request of every fixture: its output schema holds (the client checks it), verdict and findings as the core lists them', async () => {
    let duplicated = 0;
    for (const file of FILES) {
      const snap = analyse(file);
      if (snap.sessions.length === 0) continue;
      const id = await idOf(file);
      for (const [si, s] of snap.sessions.entries()) {
        const reqs = snap.requests[s.key] ?? [];
        for (const r of reqs) {
          // a request id the client used twice in the session is refused by name (below)
          if (reqs.filter((q) => q.id === r.id).length > 1) continue;
          const got = await callTool(c.client, 'get_request', { capture: id, session: `s${si + 1}`, request: r.id });
          expect(got.verdict, `${file} ${r.id}`).toBe(r.verdict);
          // before: 'duplicated' failed the output schema; findings the analysis files under the
          // request through relatedRequestIds or a session's finding (session-expired) were left out
          const codes = new Set(got.findings.map((f: { code: string }) => f.code));
          if (got.moreFindings === 0) expect(codes, `${file} ${r.id}`).toEqual(new Set(r.findings));
          else for (const code of codes) expect(r.findings).toContain(code);
          if (r.verdict === 'duplicated') {
            duplicated++;
            expect(got.whatToDo.map((a: { code: string }) => a.code)).toContain('duplicate-output-accepted');
          }
        }
      }
    }
    expect(duplicated).toBeGreaterThan(0);
  }, 120_000);

  it('explain_finding: "What to do:" sections give their advice too (result-not-taken, tool-rerun-risk)', async () => {
    for (const code of ['result-not-taken', 'tool-rerun-risk', 'destructive-tool-rerun', 'duplicate-output-accepted']) {
      const e = await callTool(c.client, 'explain_finding', { code });
      expect(e.whatToDo, code).toBeTruthy();
    }
  });

  it('diff_captures: lossless vs lossy names the new gap and the changed verdict, and nothing else', async () => {
    const base = await idOf('lossless.capture.json');
    const head = await idOf('lossy.capture.json');
    const core = diffSnapshots(analyse('lossless.capture.json'), analyse('lossy.capture.json'));
    const d = await callTool(c.client, 'diff_captures', { base, head });
    expect(d.same).toBe(false);
    expect(d.count).toBe(core.count);
    expect(d.findings.new.map((f: { code: string }) => f.code)).toEqual(core.findings.new.map((f) => f.ref.code));
    expect(d.findings.new.map((f: { code: string }) => f.code)).toEqual(['replay-gap']);
    expect(d.findings.new[0].missing).toBe('12–13');
    expect(d.findings.gone).toEqual([]);
    expect(d.findings.changed).toEqual([]);
    expect(d.verdicts).toHaveLength(1);
    expect(d.verdicts[0]).toMatchObject({ request: 'tools/call long_task #1', head: 'lossy', findings: { new: ['lossy-result-accepted'], gone: [] } });
    expect(d.verdicts[0].base).toBe(core.verdicts[0]!.base);
    expect(d.resumes).toEqual([]);
    // A capture against its own HAR of the same run: the same.
    const har = await idOf('lossy.har');
    expect((await callTool(c.client, 'diff_captures', { base: head, head: har })).same).toBe(diffSnapshots(analyse('lossy.capture.json'), analyse('lossy.har')).same);
  });

  it('explain_finding: the documentation of the code', async () => {
    const doc = readFileSync('docs/findings.md', 'utf8');
    const e = await callTool(c.client, 'explain_finding', { code: 'lossy-result-accepted' });
    expect(e.title).toBe(TITLE['lossy-result-accepted']);
    expect(e.severity).toBe('error');
    expect(doc).toContain(e.explanation.split('\n')[0]);
    expect(e.whatToDo).toMatch(/^Discard the accumulated output/);
    expect(await refusal(c.client, 'explain_finding', { code: '<script>' })).toMatch(/not a finding code/);
  });

  it('export_capture: every panel format inline or to a file inside the root; refuses to overwrite', async () => {
    const id = await idOf('lossy.capture.json');
    const snap = analyse('lossy.capture.json');
    const json = await callTool(c.client, 'export_capture', { capture: id, format: 'json' });
    expect(importText(json.text).records).toHaveLength(snap.recordCount);
    const har = await callTool(c.client, 'export_capture', { capture: id, format: 'har' });
    expect(analyzeRecords(importText(har.text).records).findings.map((f) => f.code)).toEqual(snap.findings.map((f) => f.code));
    const trace = JSON.parse((await callTool(c.client, 'export_capture', { capture: id, format: 'trace' })).text);
    expect(trace.traceEvents.length).toBeGreaterThan(0);
    const otlp = JSON.parse((await callTool(c.client, 'export_capture', { capture: id, format: 'otlp' })).text);
    expect(otlp.resourceSpans.length).toBeGreaterThan(0);
    const md = await callTool(c.client, 'export_capture', { capture: id, format: 'markdown', session: 's1' });
    expect(md.text).toMatch(/^# MCP Stream Inspector report/);
    expect(md.text).toContain('lossy-result-accepted');
    const small = await callTool(c.client, 'export_capture', { capture: id, format: 'json', maxBytes: 1000 });
    expect(small).toMatchObject({ truncated: true, text: null });
    expect(small.bytes).toBe(json.bytes);
    const name = `out-${_name.replace(/\W/g, '')}.har`;
    const w = await callTool(c.client, 'export_capture', { capture: id, format: 'har', path: name });
    expect(w.writtenTo).toBe(name);
    expect(readFileSync(join(root, name), 'utf8')).toBe(har.text);
    expect(await refusal(c.client, 'export_capture', { capture: id, format: 'har', path: name })).toMatch(/exists/);
    expect(await refusal(c.client, 'export_capture', { capture: id, format: 'har', path: '../outside/x.har' })).toMatch(/outside/);
    expect(await refusal(c.client, 'export_capture', { capture: id, format: 'har', path: 'link.har', overwrite: true })).toMatch(/through a link/);
    expect(await refusal(c.client, 'export_capture', { capture: id, format: 'har', path: 'dangling.har' })).toMatch(/link to a file that does not exist/);
    expect(existsSync(join(outside, 'planted.har'))).toBe(false);
  });

  it('refuses paths outside the root, through .., absolute or a symlink', async () => {
    expect(await refusal(c.client, 'open_capture', { path: '../outside/secret.har' })).toMatch(/outside the server's root/);
    expect(await refusal(c.client, 'open_capture', { path: join(outside, 'secret.har') })).toMatch(/outside the server's root/);
    expect(await refusal(c.client, 'open_capture', { path: 'link.har' })).toMatch(/through a link/);
    expect(await refusal(c.client, 'open_capture', { path: '/etc/passwd' })).toMatch(/outside/);
    expect(await refusal(c.client, 'open_capture', { path: 'captures/none.har' })).toMatch(/no such file/);
  });

  it('resources: a summary and the Markdown report of each open capture; the diagnose prompt', async () => {
    const id = await idOf('lossy.capture.json');
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`msi://capture/${id}/report.md`);
    expect(resources.map((r) => r.uri)).toContain(`msi://capture/${id}`);
    const rep = await c.client.readResource({ uri: `msi://capture/${id}/report.md` });
    expect((rep.contents[0] as { text: string }).text).toMatch(/^# MCP Stream Inspector report/);
    const sum = JSON.parse(((await c.client.readResource({ uri: `msi://capture/${id}` })).contents[0] as { text: string }).text);
    expect(sum.findings.total).toBe(analyse('lossy.capture.json').findings.length);
    const p = await c.client.getPrompt({ name: 'diagnose_session', arguments: { capture: id } });
    const text = (p.messages[0]!.content as { text: string }).text;
    const facts = JSON.parse(/```json\n([\s\S]*)\n```/.exec(text)![1]!);
    expect(facts.worstFindings[0].code).toBe('lossy-result-accepted');
    expect(facts.worstFindings[0].whatToDo).toMatch(/Discard/);
    expect(facts.requests[0].verdict).toBe('lossy');
    expect(sum.sessionListNote).toBeUndefined();
  });

  it('the summary resource of a capture of more than 50 sessions says it lists the first 50', async () => {
    const cap = new Capture();
    for (let i = 1; i <= 51; i++) initSession(cap, `sess-${i}`);
    // (beside the fixtures, not among them: other cases open that folder whole)
    mkdirSync(join(root, 'many'), { recursive: true });
    writeFileSync(join(root, 'many', 'sessions.json'), JSON.stringify({ format: 'mcp-stream-inspector', version: RECORD_VERSION, createdAt: '2026-12-07T00:00:00Z', records: cap.records }));
    const id = (await callTool(c.client, 'open_capture', { path: 'many/sessions.json' })).opened[0].capture;
    const sum = JSON.parse(((await c.client.readResource({ uri: `msi://capture/${id}` })).contents[0] as { text: string }).text);
    // before: 50 of 51 sessions, and nothing said so
    expect(sum.sessions).toBe(51);
    expect(sum.sessionList.length).toBe(50);
    expect(sum.sessionListNote).toBe('the first 50 of 51 sessions; list_sessions pages them all');
  });
});
