// Which finding of a new snapshot is which of the last (the numbers behind f-handles), when
// several are about the same and a new one sorts first.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/core/model';
import { FindingNumbering } from '../../../src/cli/mcp/finding-numbers';

const f = (eventIds: string[], extra: Partial<Finding> = {}): Finding => ({
  code: 'capture-gap',
  severity: 'warning',
  sessionKey: 'A',
  sessionId: 'A',
  streamId: 'tab1:c2',
  eventIds,
  message: `ids ${eventIds.join(',')}`,
  ...extra,
});
const about = (x: Finding) => `${x.code}|${x.streamId}`;

describe('FindingNumbering', () => {
  it('numbers a first snapshot in its order', () => {
    expect(new FindingNumbering().see([f(['1']), f(['5']), f(['9'], { code: 'live-gap' })], about)).toEqual([0, 1, 2]);
  });

  it('a finding that grew keeps its number when a new one about the same sorts before it', () => {
    const n = new FindingNumbering();
    expect(n.see([f(['4'])], about)).toEqual([0]);
    // the run grew (4, 5), and one decided later (1) sorts first: matched by the id they share
    expect(n.see([f(['1']), f(['4', '5'])], about)).toEqual([1, 0]);
  });

  it('findings with no event ids are told apart by the requests they relate to', () => {
    const n = new FindingNumbering();
    const from = (id: string, message = `from ${id}`) => f([], { code: 'lossy-output-carried', relatedRequestIds: [id], message });
    expect(n.see([from('3')], about)).toEqual([0]);
    expect(n.see([from('2'), from('3', 'from 3, said otherwise')], about)).toEqual([1, 0]);
  });

  it("a finding that stayed and changed keeps its own number, not that of one about the same that went", () => {
    const n = new FindingNumbering();
    const lost = (message: string, extra: Partial<Finding> = {}) => f([], { code: 'lossy-result-accepted', streamId: undefined, requestId: '3', message, ...extra });
    const byRequest = (x: Finding) => `${x.code}|${x.requestId}`;
    expect(n.see([lost('maybe lost', { pending: true }), lost('lost 2 events')], byRequest)).toEqual([0, 1]);
    expect(n.see([lost('lost 2 events')], byRequest)).toEqual([1]); // the pending one went
    // its text remade: before, the loosest rule gave it the number of the one that went (0)
    expect(n.see([lost('lost 3 events')], byRequest)).toEqual([1]);
  });
});
