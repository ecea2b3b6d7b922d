// The axis, its ticks, the lanes' backgrounds and the markers drawn across all lanes (navigations,
// and the inspector's own capture gaps, which look unlike a server's gap).

import type { ReactNode } from 'react';
import type { AnalysisSnapshot } from '../../../core/model';
import { formatRel, visibleLine } from '../common/text';
import { AXIS_H, type Frame } from './geometry';
import { niceStep } from './timeline-geom';

export function drawAxis(f: Frame, lanes: number, snap: AnalysisSnapshot, height: number, els: ReactNode[], axisEls: ReactNode[]): void {
  const { view, width, t0, g } = f;
  const step = niceStep(view.end - view.start, width);
  const first = Math.ceil((view.start - t0) / step) * step + t0;
  axisEls.push(<rect key="axbg" className="tl-axis-bg" x={0} y={0} width={width} height={AXIS_H} />);
  for (let i = 0; i < lanes; i++) if (f.laneVisible(i)) els.push(<rect key={`lbg${i}`} className={`tl-lane-bg${i % 2 ? ' alt' : ''}`} x={0} y={f.laneY(i)} width={width} height={g.h} />);
  for (let t = first, n = 0; t <= view.end && n < 200; t += step, n++) {
    const px = f.x(t);
    els.push(<line key={`tk${n}`} className="tl-tick" x1={px} x2={px} y1={0} y2={height} />);
    axisEls.push(<line key={`tka${n}`} className="tl-tick" x1={px} x2={px} y1={AXIS_H - 5} y2={AXIS_H} />);
    axisEls.push(
      <text key={`tl${n}`} className="tl-tick-label" x={px + 3} y={13}>
        {formatRel(t - t0)}
      </text>,
    );
  }
  snap.markers.forEach((m, i) => {
    const px = f.x(m.t);
    if (px < -50 || px > width + 50) return;
    const cg = m.kind === 'capture-gap';
    els.push(<line key={`mk${i}`} className={cg ? 'tl-capgap' : 'tl-nav'} x1={px} x2={px} y1={0} y2={height} />);
    els.push(
      <text key={`mkt${i}`} className={cg ? 'tl-capgap-label' : 'tl-tick-label'} x={px + 3} y={height - 4}>
        {visibleLine(cg ? `⚑ ${m.text.startsWith('capture-gap') ? m.text : `capture-gap: ${m.text}`}` : `navigation ${m.text}`, 80)}
      </text>,
    );
  });
}
