// A request's notifications kept as runs of one stream each: read back in any order, across any
// number of streams (a reconnect storm gives a request one stream per reconnect).
import { describe, expect, it } from 'vitest';
import { NotificationStore } from './notification-list';

describe('notification store', () => {
  it('gives back every pair, in any order, across streams that come back', () => {
    const pairs: [string, number][] = [['a', 0], ['a', 1], ['b', 0], ['a', 2], ['c', 5], ['c', 6], ['b', 1]];
    const st = new NotificationStore();
    for (const [s, i] of pairs) st.push(s, i);
    expect(st.slice()).toEqual(pairs);
    for (const k of [6, 0, 3, 2, 5, 1, 4, 6]) expect([st.streamAt(k), st.indexAt(k)]).toEqual(pairs[k]);
    expect(st.streamAt(7)).toBe('');
    expect(st.indexAt(-1)).toBe(-1);
  });

  it('holds more than 65,535 streams for one request', () => {
    const st = new NotificationStore();
    for (let s = 0; s < 70_000; s++) st.push(`s${s}`, s);
    expect(st.streamAt(69_999)).toBe('s69999');
    expect(st.streamAt(65_536)).toBe('s65536');
  });

  it('a view keeps its length while the list grows', () => {
    const st = new NotificationStore();
    st.push('a', 0);
    const v1 = st.view();
    st.push('a', 1);
    const v2 = st.view();
    expect(v1.length).toBe(1);
    expect(v1.slice()).toEqual([['a', 0]]);
    expect(v2.slice()).toEqual([['a', 0], ['a', 1]]);
  });
});
