// Drawing the timeline: pure, inputs in, SVG elements out (the component, Timeline.tsx, owns state
// and interaction). Order is paint order: axis and lane backgrounds, markers, gaps, each lane's
// events and labels, reconnect links, a 2026-07-28 conversation's links and outages.

import type { ReactNode } from 'react';
import type { AnalysisSnapshot, Finding, Session, Stream } from '../../../core/model';
import type { SeverityIndex } from '../findings/severity-index';
import type { Special } from './density';
import { drawAxis } from './draw-axis';
import { drawLane } from './draw-lane';
import { drawGaps, drawLinks } from './draw-overlays';
import { drawModern } from './draw-modern';
import type { Frame } from './geometry';

export interface DrawInput {
  f: Frame;
  snap: AnalysisSnapshot;
  lanes: readonly Stream[];
  laneOf: ReadonlyMap<string, number>;
  findings: readonly Finding[];
  /** `${lane}:${index}` of the selected event. */
  selKey: string | undefined;
  severity: SeverityIndex;
  specials(s: Stream): readonly Special[];
  /** The session drawn (its 2026-07-28 links and subscription outages: draw-modern.tsx). */
  session?: Session;
}

export function drawTimeline(p: DrawInput): { els: ReactNode[]; axisEls: ReactNode[]; labelEls: ReactNode[]; height: number } {
  const { f, snap, lanes, laneOf } = p;
  const height = lanes.length * f.g.h + 12;
  const els: ReactNode[] = [];
  const axisEls: ReactNode[] = [];
  const labelEls: ReactNode[] = [];
  drawAxis(f, lanes.length, snap, height, els, axisEls);
  const gaps: ReactNode[] = [];
  const reserved = drawGaps(f, snap, laneOf, p.findings, gaps, labelEls);
  lanes.forEach((s, li) => {
    if (!f.laneVisible(li)) return;
    drawLane({ f, snap, s, li, selKey: p.selKey, reserved: reserved.get(li) ?? [], severity: p.severity, specials: p.specials(s) }, els, labelEls);
  });
  els.push(...gaps);
  drawLinks(f, snap, lanes, laneOf, els);
  drawModern(f, snap, p.session, laneOf, els, labelEls);
  return { els, axisEls, labelEls, height };
}
