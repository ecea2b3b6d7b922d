// The timeline's coordinate system for one render: lane geometry, time → x, what is visible.

import type { View } from './timeline-geom';

export const AXIS_H = 20;

/**
 * Lane geometry. Full lanes leave room for two rows of labels above the marks and one below;
 * compact ones (when the lanes would not fit the room the panel has) one above and one below.
 */
export interface LaneGeom {
  h: number;
  /** Marks' y within a lane. */
  mark: number;
  /** Baseline of a label below the marks, from the marks' y. */
  below: number;
  compact: boolean;
}
export const LANES_FULL: LaneGeom = { h: 46, mark: 26, below: 17, compact: false };
export const LANES_COMPACT: LaneGeom = { h: 32, mark: 18, below: 12, compact: true };

export interface Frame {
  view: View;
  width: number;
  t0: number;
  g: LaneGeom;
  x(t: number): number;
  t(px: number): number;
  laneY(i: number): number;
  markY(i: number): number;
  laneVisible(i: number): boolean;
}

export function makeFrame(view: View, width: number, t0: number, g: LaneGeom, laneVisible: (i: number) => boolean): Frame {
  const span = Math.max(1e-6, view.end - view.start);
  return {
    view,
    width,
    t0,
    g,
    x: (t) => ((t - view.start) / span) * width,
    t: (px) => view.start + (px / width) * span,
    laneY: (i) => i * g.h,
    markY: (i) => i * g.h + g.mark,
    laneVisible,
  };
}

/** Approximate width of a label in the timeline's 10 px monospace font. */
export const textW = (s: string) => s.length * 6.2;
