// Capture health (snapshot.capture): what the inspector itself lost or did not keep, and what it
// wants the user to know about capture (notice records: hook bypassed or wrapped, extension
// reloaded, what an imported HAR lacks). Every record of those kinds counts, tied to a session or
// not; repeats of one (source, reason or code and message) are counted, not listed. The panel's
// strip, the Markdown report and `audit` all show these items and the summary of presentation.ts.
import type { CaptureGapRecord, CaptureNoticeRecord } from '../record';
import type { CaptureHealth, CaptureHealthItem } from '../model';
import { EMPTY_CAPTURE, healthOf } from '../presentation';
import { captureGapWhat } from './texts';

const MAX_ITEMS = 200;

export interface CaptureHealthState {
  byKey: Map<string, CaptureHealthItem>;
  changed: boolean;
  out: CaptureHealth;
}


export function newCaptureHealth(): CaptureHealthState {
  return { byKey: new Map(), changed: false, out: EMPTY_CAPTURE };
}

/** Not the inspector's loss: the user's setting (`not-recording`) or a file without the body (`import`). */
const notLoss = (r: Pick<CaptureGapRecord, 'reason'>) => r.reason === 'not-recording' || r.reason === 'import';

/** Where records were lost: a page's relay (its capture source) or the panel itself. */
const where = (src: string) => (src === 'panel' || src === 'panel-store' ? 'the panel' : `capture source ${src}`);

/** The item's message: the same words as the capture-gap findings (texts.ts), for a count of records. */
export function gapItemText(reason: CaptureGapRecord['reason'], lost: number, conns: number, src: string): string {
  if (reason === 'import') return `The imported file holds no body for ${conns} response(s): their events are unknown, not empty.`;
  const what = captureGapWhat({ reason, lost } as CaptureGapRecord);
  return `${what} (in ${where(src)}${conns > 0 ? `; ${conns} connection(s) affected` : ''}).`;
}

export function onGapRecord(H: CaptureHealthState, r: CaptureGapRecord): void {
  const benign = notLoss(r);
  const key = `g\u0000${r.src}\u0000${r.reason}`;
  const prev = H.byKey.get(key);
  H.changed = true;
  if (prev) {
    const next: CaptureHealthItem = { ...prev, count: prev.count + 1, tLast: r.t, lost: prev.lost + r.lost, conns: prev.conns + r.conns.length };
    next.message = gapItemText(r.reason, next.lost, next.conns, r.src);
    H.byKey.set(key, Object.freeze(next));
    return;
  }
  if (H.byKey.size >= MAX_ITEMS) return;
  const item: CaptureHealthItem = {
    kind: 'gap',
    level: benign ? 'warning' : 'error',
    code: `capture-gap:${r.reason}`,
    src: r.src,
    t: r.t,
    tLast: r.t,
    count: 1,
    lost: r.lost,
    conns: r.conns.length,
    notLost: benign,
    message: gapItemText(r.reason, r.lost, r.conns.length, r.src),
  };
  H.byKey.set(key, Object.freeze(item));
}

export function onNoticeRecord(H: CaptureHealthState, r: CaptureNoticeRecord): void {
  const key = `n\u0000${r.src}\u0000${r.code}\u0000${r.message}`;
  const prev = H.byKey.get(key);
  H.changed = true;
  if (prev) {
    H.byKey.set(key, Object.freeze({ ...prev, count: prev.count + 1, tLast: r.t }));
    return;
  }
  if (H.byKey.size >= MAX_ITEMS) return;
  const item: CaptureHealthItem = { kind: 'notice', level: r.level, code: r.code, src: r.src, t: r.t, tLast: r.t, count: 1, lost: 0, conns: 0, notLost: true, message: r.message };
  H.byKey.set(key, Object.freeze(item));
}

/** The snapshot's capture health: the same object until a gap or notice record arrives. */
export function captureHealth(H: CaptureHealthState): CaptureHealth {
  if (!H.changed) return H.out;
  H.changed = false;
  H.out = healthOf([...H.byKey.values()]);
  return H.out;
}
