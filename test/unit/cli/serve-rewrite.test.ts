// `serve` puts the live client's ids into recorded answers by splicing them into the recorded
// text: the rest of the answer goes out byte for byte (integers beyond 2^53, member order, spaces,
// escapes, an event's data split into lines), and each id comes back as the client wrote it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJsonRpc } from '../../../src/core/jsonrpc.js';
import type { CaptureRecord } from '../../../src/core/record.js';
import { arrayElements, objectMembers, rootSpan } from '../../../src/cli/serve/json-spans.js';
import { canonicalNumber, liveIdFor } from '../../../src/cli/serve/id-forms.js';
import { newIdMaps, rewriteEvent } from '../../../src/cli/serve/rewrite.js';
import { serve } from './serve-helpers.js';

const URL = 'http://127.0.0.1:4400/mcp';

/** A sessionless capture of one POST per body, each answered with `answers[i]` (SSE text or a JSON body; null: 202). */
function capture(exchanges: { body: string; answer: string | null; sse: boolean }[]): CaptureRecord[] {
  const records: CaptureRecord[] = [];
  let seq = 0;
  const push = (r: Record<string, unknown>) => records.push({ seq: ++seq, src: 'r', t: 1_800_000_000_000 + seq, ...r } as CaptureRecord);
  exchanges.forEach((x, i) => {
    const conn = `c${i}`;
    push({ kind: 'request', conn, transport: 'fetch', method: 'POST', url: URL, headers: [['content-type', 'application/json']], body: x.body });
    if (x.answer === null) push({ kind: 'response', conn, status: 202, statusText: 'Accepted', headers: [], url: URL, redirected: false, type: 'basic', capture: 'none' });
    else {
      const contentType = x.sse ? 'text/event-stream' : 'application/json';
      push({ kind: 'response', conn, status: 200, statusText: 'OK', headers: [['content-type', contentType]], url: URL, redirected: false, type: 'basic', capture: x.sse ? 'sse' : 'json' });
      push({ kind: 'chunk', conn, text: x.answer, bytes: x.answer.length });
    }
    push({ kind: 'end', conn, how: 'complete' });
  });
  return records;
}

async function post(url: string, body: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
  return res.text();
}

describe('serve: ids are spliced into the recorded text', () => {
  it('an SSE answer keeps its big integers, member order, escapes and data lines; the id and progress token come back as the client wrote them', async () => {
    const recordedCall = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","_meta":{"progressToken":"p1"}}}';
    const progress = 'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}\n\n';
    const result = 'id: 7\r\ndata: {"jsonrpc":"2.0",\r\ndata:  "result":{"n":12345678901234567890,"b":"caf\\u00e9","2":[1.50]},\r\ndata:"id" : 1 }\r\n\r\n';
    const s = await serve(capture([{ body: recordedCall, answer: progress + result, sse: true }]));
    try {
      const live = '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"big","_meta":{"progressToken":"tok\\u00e9"}}}';
      const body = await post(s.url, live);
      expect(body).toBe(progress.replace('"p1"', '"tok\\u00e9"') + result.replace('"id" : 1 ', '"id" : 9007199254740993 '));
    } finally {
      await s.close();
    }
  });

  it('a JSON batch answer: each id in place, in the recorded order and spacing', async () => {
    const recordedBatch = '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]';
    const answer = '[ {"jsonrpc":"2.0","id":2,"result":{"big":98765432109876543210}} ,\n {"id":1,"jsonrpc":"2.0","result":{}} ]';
    const s = await serve(capture([{ body: recordedBatch, answer, sse: false }]));
    try {
      const body = await post(s.url, '[{"jsonrpc":"2.0","id":"x\\"y","method":"a"},{"jsonrpc":"2.0","id":18446744073709551616,"method":"b"}]');
      expect(body).toBe('[ {"jsonrpc":"2.0","id":18446744073709551616,"result":{"big":98765432109876543210}} ,\n {"id":"x\\"y","jsonrpc":"2.0","result":{}} ]');
    } finally {
      await s.close();
    }
  });

  it('a request the recording does not hold: its error echoes the id as written', async () => {
    const s = await serve(capture([{ body: '{"jsonrpc":"2.0","id":1,"method":"a"}', answer: '{"jsonrpc":"2.0","id":1,"result":{}}', sse: false }]));
    try {
      const body = await post(s.url, '{"jsonrpc":"2.0","id":9007199254740993,"method":"nothing"}');
      expect(body.startsWith('{"jsonrpc":"2.0","id":9007199254740993,"error":{"code":-32050,')).toBe(true);
      expect(JSON.parse(body).error.message).toContain('this nothing is not in the recording');
    } finally {
      await s.close();
    }
  });
});

describe('serve: ids are matched by their text, not their parsed value', () => {
  // 9007199254740993 and 9007199254740992 are one number once parsed: matched so, one request got
  // the other's answer, or a live message was taken for another recorded one.
  const big = 9007199254740993n;
  const beside = big - 1n;

  it('two recorded requests whose ids differ beyond 2^53: each recorded answer goes out with the live id of its own request', async () => {
    const recordedBatch = `[{"jsonrpc":"2.0","id":${big},"method":"a"},{"jsonrpc":"2.0","id":${beside},"method":"b"}]`;
    const answer = `[{"jsonrpc":"2.0","id":${beside},"result":"b"},{"jsonrpc":"2.0","id":${big},"result":"a"}]`;
    const s = await serve(capture([{ body: recordedBatch, answer, sse: false }]));
    try {
      const body = await post(s.url, '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":"2","method":"b"}]');
      expect(body).toBe('[{"jsonrpc":"2.0","id":"2","result":"b"},{"jsonrpc":"2.0","id":1,"result":"a"}]');
    } finally {
      await s.close();
    }
  });

  it('live ids that differ beyond 2^53: a notifications/cancelled names the request it names', async () => {
    const call = (id: string | bigint, name: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}"}}`;
    const cancel = (id: string | bigint) => `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id}}}`;
    const s = await serve(
      capture([
        { body: call('1', 'a'), answer: '{"jsonrpc":"2.0","id":1,"result":{}}', sse: false },
        { body: call('2', 'b'), answer: '{"jsonrpc":"2.0","id":2,"result":{}}', sse: false },
        { body: cancel('1'), answer: null, sse: false },
      ]),
    );
    try {
      await post(s.url, call(big, 'a'));
      await post(s.url, call(beside, 'b'));
      await post(s.url, cancel(big));
      expect(s.lines[2]).toBe('POST /mcp notifications/cancelled → recorded c2: 202 no body');
    } finally {
      await s.close();
    }
  });

  it("the client's answers to server requests are matched by the id as written, a number and a string apart", async () => {
    const answer = (id: string | bigint) => `{"jsonrpc":"2.0","id":${id},"result":{}}`;
    const s = await serve(
      capture([
        { body: answer(big), answer: null, sse: false },
        { body: answer(beside), answer: null, sse: false },
        { body: answer('"7"'), answer: null, sse: false },
        { body: answer('7'), answer: null, sse: false },
      ]),
    );
    try {
      for (const id of [beside, big, 7n, '"7"']) await post(s.url, answer(id));
      expect(s.lines.map((l) => l.replace(/^POST \/mcp result #(\S+) → recorded (c\d).*$/, '$1 $2'))).toEqual([`${beside} c1`, `${big} c0`, '7 c3', '"7" c2']);
    } finally {
      await s.close();
    }
  });
});

describe('rewriteEvent', () => {
  const maps = () => {
    const m = newIdMaps();
    m.ids.set('3', { value: 30, text: '30' });
    m.ids.set('"s"', { value: 's2', text: '"s\\u0032"' });
    return m;
  };
  const event = (data: string) => `event: message\ndata: ${data}\n\n`;
  const rewrite = (raw: string, data: string) => {
    const d = decodeJsonRpc(data);
    return rewriteEvent(raw, d.messages, data.trimStart().startsWith('['), maps());
  };

  it('notifications/cancelled and 2026-07-28 subscription ids (params and result), the last of a repeated member as JSON.parse reads it', () => {
    const cancelled = '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"x"}}';
    expect(rewrite(event(cancelled), cancelled)).toBe(event(cancelled.replace('"requestId":3', '"requestId":30')));
    const tagged = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"s"}}}';
    expect(rewrite(event(tagged), tagged)).toBe(event(tagged.replace('"s"', '"s\\u0032"')));
    const answer = '{"jsonrpc":"2.0","id":2,"id":3,"result":{"_meta":{"io.modelcontextprotocol/subscriptionId":3}}}';
    expect(rewrite(event(answer), answer)).toBe(event('{"jsonrpc":"2.0","id":2,"id":30,"result":{"_meta":{"io.modelcontextprotocol/subscriptionId":30}}}'));
  });

  it('ids the server chose and ids the live client wrote the same way are left: undefined', () => {
    const request = '{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage"}';
    expect(rewrite(event(request), request)).toBeUndefined();
    const same = '{"jsonrpc":"2.0","id":4,"result":{}}';
    expect(rewrite(event(same), same)).toBeUndefined();
  });

  it('raw text whose data lines do not hold the decoded message: an error, not a guess', () => {
    const answer = '{"jsonrpc":"2.0","id":3,"result":{}}';
    expect(() => rewrite(event('{"jsonrpc":"2.0","result":{}}'), answer)).toThrow(/does not hold id/);
  });
});

describe('json-spans', () => {
  it('each member and element span holds what JSON.parse read there, whatever the spacing and escapes', () => {
    const text = fc.tuple(fc.jsonValue(), fc.constantFrom(undefined, 1, '\t', ' \r\n')).map(([v, indent]) => JSON.stringify(v, null, indent) ?? 'null');
    fc.assert(
      fc.property(text, (t) => {
        const parsed: unknown = JSON.parse(t);
        const root = rootSpan(t)!;
        expect(JSON.parse(t.slice(root.start, root.end))).toEqual(parsed);
        if (Array.isArray(parsed)) expect(arrayElements(t, root)!.map((e) => JSON.parse(t.slice(e.start, e.end)))).toEqual(parsed);
        else if (typeof parsed === 'object' && parsed !== null) {
          const members = objectMembers(t, root)!;
          expect([...members.keys()].sort()).toEqual(Object.keys(parsed).sort());
          for (const [k, at] of members) expect(JSON.parse(t.slice(at.start, at.end))).toEqual((parsed as Record<string, unknown>)[k]);
        }
      }),
    );
  });
});

describe('serve: an answer whose id the server wrote in another form than the request', () => {
  const call = (id: string, name: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}"}}`;
  const result = (id: string) => `{"jsonrpc":"2.0","id":${id},"result":{}}`;

  it('the same number written otherwise (1.0, 1e0, 1.00 for 1, 2.5e1 for 25) gets the live id', async () => {
    const forms = [['1', '1.0'], ['1', '1e0'], ['1', '1.00'], ['25', '2.5e1'], ['-3', '-30E-1']] as const;
    const s = await serve(capture(forms.map(([req, res], i) => ({ body: call(req, `t${i}`), answer: result(res), sse: false }))));
    try {
      for (let i = 0; i < forms.length; i++) expect(await post(s.url, call(`"live${i}"`, `t${i}`))).toBe(result(`"live${i}"`));
    } finally {
      await s.close();
    }
  });

  it('a big id rounded through a double (9007199254740993 answered 9007199254740992) gets the live id, also in an SSE event', async () => {
    const s = await serve(
      capture([
        { body: call('9007199254740993', 'json'), answer: result('9007199254740992'), sse: false },
        { body: call('9007199254740993', 'sse'), answer: `data: ${result('9007199254740992')}\n\n`, sse: true },
      ]),
    );
    try {
      expect(await post(s.url, call('7', 'json'))).toBe(result('7'));
      expect(await post(s.url, call('8', 'sse'))).toBe(`data: ${result('8')}\n\n`);
    } finally {
      await s.close();
    }
  });

  it('a rounded id two requests round to (18014398509481985 and ...986 are both ...984 as doubles) is ambiguous: left as recorded', async () => {
    const batch = `[${call('18014398509481985', 'a')},${call('18014398509481986', 'b')}]`;
    const answer = `[${result('18014398509481984')},${result('18014398509481984')}]`;
    const s = await serve(capture([{ body: batch, answer, sse: false }]));
    try {
      expect(await post(s.url, `[${call('1', 'a')},${call('2', 'b')}]`)).toBe(answer);
    } finally {
      await s.close();
    }
  });

  it('an exact match wins over another form: ids 1 and 1.0 recorded, each answer goes to its own request', async () => {
    const batch = `[${call('1', 'a')},${call('1.0', 'b')}]`;
    const answer = `[${result('1.0')},${result('1')},${result('1.00')}]`;
    const s = await serve(capture([{ body: batch, answer, sse: false }]));
    try {
      // 1.00 is both requests' number: ambiguous, left as recorded.
      expect(await post(s.url, `[${call('"a"', 'a')},${call('"b"', 'b')}]`)).toBe(`[${result('"b"')},${result('"a"')},${result('1.00')}]`);
    } finally {
      await s.close();
    }
  });
});

describe('id forms', () => {
  it('canonicalNumber is exact: the same number in any form is one text, numbers a double cannot tell apart are two', () => {
    expect(['1', '1.0', '1e0', '1.00', '10e-1', '0.1E1', '1E+0'].map(canonicalNumber)).toEqual(Array(7).fill('1e0'));
    expect(['0', '-0', '0.000', '0e5'].map(canonicalNumber)).toEqual(Array(4).fill('0'));
    expect(canonicalNumber('9007199254740993')).not.toBe(canonicalNumber('9007199254740992'));
    expect(['"1"', 'null', '01x', '1e99999999999999999999'].map(canonicalNumber)).toEqual(Array(4).fill(undefined));
  });

  it('liveIdFor sees keys added after an earlier miss', () => {
    const map = new Map<string, string>([['"a"', 'A']]);
    expect(liveIdFor(map, '2.0')).toBeUndefined();
    map.set('2', 'B');
    expect(liveIdFor(map, '2.0')).toBe('B');
  });
});
