// Injected faults are never confused with the server (issue 14): the same lossy capture, once as
// a server's loss and once with the fault record that says the panel withheld the events.
import { describe, expect, it } from 'vitest';
import { analyzeRecords } from '../../../src/core';
import { recordError } from '../../../src/core/contract/validate';
import type { CaptureRecord, FaultRecord } from '../../../src/core/record';
import { lossyRecords } from '../../support/hand-made-lossy';

const SRC = 'tab1:frame0';

function withFault(records: CaptureRecord[], fault: Omit<FaultRecord, 'seq' | 'src' | 'kind'>): CaptureRecord[] {
  // The relay numbers the fault record where it decided: right after the resume's response.
  const at = records.findIndex((r) => r.kind === 'response' && r.conn === fault.conn);
  const out = [...records.slice(0, at + 1), { ...fault, kind: 'fault', src: SRC, seq: 0 } as FaultRecord, ...records.slice(at + 1)];
  return out.map((r, i) => ({ ...r, seq: i + 1 }));
}

const withhold = {
  conn: 'c4', t: 1, fault: 'withhold' as const, origin: 'panel' as const, armed: 'a1', text: 'withhold events 1–2 · tools/call, on its resume · next 1',
  eventIds: ['12', '13'], events: 2, requestIds: ['2'],
  withheld: [{ id: '12', text: 'id: 12\ndata: {}\n\n' }, { id: '13', text: 'id: 13\ndata: {}\n\n' }],
};

describe('fault attribution', () => {
  it('a fault record is a record of the contract', () => {
    const recs = withFault(lossyRecords(), withhold);
    for (const r of recs) expect(recordError(r)).toBeUndefined();
    expect(recordError({ ...recs.find((r) => r.kind === 'fault')!, fault: 'explode' })).toMatch(/fault/);
  });

  it('without a fault record, the loss is the server’s', () => {
    const snap = analyzeRecords(lossyRecords());
    const lossy = snap.findings.filter((f) => f.code === 'lossy-result-accepted' || f.code === 'replay-gap');
    expect(lossy.length).toBeGreaterThanOrEqual(2);
    expect(lossy.every((f) => f.injected === undefined)).toBe(true);
    expect(snap.faults).toBeUndefined();
  });

  it('with the fault record, the gap and the accepted result are attributed to the panel, and the session says so', () => {
    const snap = analyzeRecords(withFault(lossyRecords(), withhold));
    const lossy = snap.findings.filter((f) => f.code === 'lossy-result-accepted' || f.code === 'replay-gap');
    expect(lossy.map((f) => f.code).sort()).toEqual(['lossy-result-accepted', 'replay-gap']);
    for (const f of lossy) {
      expect(f.injected).toEqual({ armed: 'a1', fault: 'withhold', origin: 'panel', text: withhold.text });
      expect(f.message).toMatch(/^Injected from the panel \(withhold events 1–2 · tools\/call, on its resume · next 1\): /);
    }
    expect(snap.faults).toEqual([expect.objectContaining({ fault: 'withhold', streamId: `${SRC}:c4`, findings: expect.arrayContaining(['replay-gap', 'lossy-result-accepted']) })]);
    expect(snap.faults![0]!.withheld.map((w) => w.id)).toEqual(['12', '13']);
    expect(snap.sessions[0]!.losslessReasons[0]).toMatch(/^Injected from the panel .*: ids 12, 13 were withheld from the page on purpose, the server sent them/);
    // Other findings keep their own words.
    expect(snap.findings.filter((f) => !['lossy-result-accepted', 'replay-gap'].includes(f.code)).every((f) => !f.injected)).toBe(true);
  });

  it('a fault on an unrelated stream explains nothing; a delay never explains a loss', () => {
    const other = analyzeRecords(withFault(lossyRecords(), { ...withhold, conn: 'c2', requestIds: ['1'] }));
    expect(other.findings.filter((f) => f.code === 'lossy-result-accepted').every((f) => !f.injected)).toBe(true);
    const delay = analyzeRecords(withFault(lossyRecords(), { ...withhold, fault: 'delay', withheld: [] }));
    expect(delay.findings.every((f) => !f.injected)).toBe(true);
    expect(delay.faults?.[0]?.findings).toEqual([]);
  });
});

describe('exports carry injected faults', () => {
  it('HAR export and re-import keep the fault record and its attribution; Markdown lists it', async () => {
    const { exportHar } = await import('../../../src/export/har');
    const { exportMarkdown } = await import('../../../src/export/markdown');
    const { importText } = await import('../../../src/core/import');
    const records = withFault(lossyRecords(), withhold);
    const back = importText(exportHar(records)).records;
    const f = back.find((r) => r.kind === 'fault') as FaultRecord | undefined;
    expect(f).toMatchObject({ fault: 'withhold', eventIds: ['12', '13'], withheld: withhold.withheld });
    // …on the entry of the connection it changed.
    const req = back.find((r) => r.kind === 'request' && r.conn === f!.conn);
    expect(req).toMatchObject({ method: 'GET' });
    const snap = analyzeRecords(back);
    expect(snap.findings.find((x) => x.code === 'lossy-result-accepted')?.injected?.origin).toBe('panel');
    const md = exportMarkdown(analyzeRecords(records));
    expect(md).toContain('Injected faults: 1');
    expect(md).toMatch(/`withhold` from the panel: .*event ids 12, 13.*explains `replay-gap`, `lossy-result-accepted`|explains `lossy-result-accepted`, `replay-gap`/);
  });
});
