import type { ReactElement, ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { AnalysisSnapshot, Finding } from '../../../core/model';
import { drawGaps } from './draw-overlays';
import { textW, type Frame } from './geometry';

// Two gaps one event apart on one lane (the demo's lossy run: ids 12–13 missing before 14, id 15
// between 14 and 16): at a zoom where the events are closer than a label is wide, the labels
// must not be drawn over each other.
describe('drawGaps', () => {
  it('keeps the labels of close gaps on one lane apart, in the order of the gaps', () => {
    const stream = { id: 's1', start: 0, end: 30, events: [{ t: 0 }, { t: 10 }, { t: 12 }, { t: 20 }] };
    const snap = { streams: { s1: stream } } as unknown as AnalysisSnapshot;
    const gap = (eventIndex: number, missing: string) => ({ code: 'replay-gap', severity: 'error', streamId: 's1', eventIndex, missing, eventIds: [] }) as unknown as Finding;
    const frame = { x: (t: number) => t * 4, markY: () => 10, laneVisible: () => true, g: { below: 12 } } as unknown as Frame;
    const els: ReactNode[] = [];
    const labels: ReactNode[] = [];
    const reserved = drawGaps(frame, snap, new Map([['s1', 0]]), [gap(2, '15'), gap(1, '12–13')], els, labels);
    const drawn = (labels as ReactElement<{ x: number; children: string }>[]).map((l) => ({ x: l.props.x, text: l.props.children })).sort((a, b) => a.x - b.x);
    expect(drawn.map((d) => d.text)).toEqual(['ids 12–13 missing', 'ids 15 missing']);
    const [a, b] = drawn as [(typeof drawn)[0], (typeof drawn)[0]];
    expect(b.x - a.x).toBeGreaterThanOrEqual((textW(a.text) + textW(b.text)) / 2);
    expect(reserved.get(0)).toHaveLength(2);
    expect(els).toHaveLength(2);
  });
});
