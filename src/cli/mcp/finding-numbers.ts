// The numbers behind finding handles (f0): which finding of a new snapshot is which of the last.
//
// A finding has no id, and its value is remade as a live capture grows: a run's event ids get
// longer, a pending gap is decided or partly filled (other missing ids, another severity), a
// lossy result's chain gets a segment (more related streams), a result not taken gets the
// request that re-issued it (a related request). What does not change is what it is about: its
// code, session, stream, request and the event it is anchored at (the caller's `about`).
//
// Several findings can be about the same (the output of two lossy requests carried into one
// call, two records lost on one stream), and the snapshot lists them by capture position: one
// decided later (a request found lossy once the session's ids are known to count) can sort before
// one already shown. Their occurrence in that order is no identity, so a finding is matched to
// the ones seen before with the same `about`, by what changes least first: the same value (left
// as it was: a frozen object, or derived again equal), then the same related requests (fixed when
// a finding is made for the codes that list several about one request: the source of carried
// output, the first call of a re-run) with an event id in common, then the same related
// requests, then, among those still unmatched, in their order (a lone finding about something,
// whatever it became). A finding matched to none gets a number never given before.
import type { Finding } from '../../core/model';

interface Known {
  n: number;
  /** Its value in the last snapshot that held it. */
  last: Finding;
  /** Which snapshot that was (see()'s count). */
  at: number;
}

const related = (f: Finding): string => (f.relatedRequestIds ?? []).join('\u0000');
/** A finding's value as text, made once per value (findings are frozen: a value never changes). */
const texts = new WeakMap<Finding, string>();
function valueText(f: Finding): string {
  let t = texts.get(f);
  if (t === undefined) texts.set(f, (t = JSON.stringify(f)));
  return t;
}

/** Ways two findings about the same can be the same one, surest first. */
const SAME: readonly ((was: Finding, now: Finding) => boolean)[] = [
  (was, now) => was === now || valueText(was) === valueText(now),
  (was, now) => related(was) === related(now) && (was.eventIds.length === 0 ? now.eventIds.length === 0 : was.eventIds.some((id) => now.eventIds.includes(id))),
  (was, now) => related(was) === related(now),
  () => true,
];

export class FindingNumbering {
  private given = 0;
  /** Snapshots seen. */
  private snapshots = 0;
  /** Per `about`: every number given to a finding about it (one gone stays: it may come back). */
  private readonly byAbout = new Map<string, Known[]>();

  /** The number of each of `findings` (a snapshot's, in its order); new ones numbered in that order. */
  see(findings: readonly Finding[], about: (f: Finding) => string): number[] {
    const out = new Array<number>(findings.length).fill(-1);
    const now = ++this.snapshots;
    const groups = new Map<string, number[]>();
    findings.forEach((f, i) => {
      const k = about(f);
      const g = groups.get(k);
      if (g) g.push(i);
      else groups.set(k, [i]);
    });
    const fresh: [string, number][] = [];
    for (const [k, idx] of groups) {
      const free = (this.byAbout.get(k) ?? []).slice();
      let rest = idx;
      // (One finding and one number, the rule: no value is compared.)
      for (const same of free.length === 1 && rest.length === 1 ? SAME.slice(-1) : SAME) {
        rest = rest.filter((i) => {
          // A number the last snapshot held first, then one of a finding gone since: a finding
          // that stayed is not given the number of one that went (by a rule as loose as order).
          let j = free.findIndex((x) => x.at === now - 1 && same(x.last, findings[i]!));
          if (j < 0) j = free.findIndex((x) => same(x.last, findings[i]!));
          if (j < 0) return true;
          out[i] = free[j]!.n;
          free[j]!.last = findings[i]!;
          free[j]!.at = now;
          free.splice(j, 1);
          return false;
        });
        if (rest.length === 0 || free.length === 0) break;
      }
      for (const i of rest) fresh.push([k, i]);
    }
    fresh.sort((a, b) => a[1] - b[1]);
    for (const [k, i] of fresh) {
      const n = this.given++;
      out[i] = n;
      const known = this.byAbout.get(k);
      if (known) known.push({ n, last: findings[i]!, at: now });
      else this.byAbout.set(k, [{ n, last: findings[i]!, at: now }]);
    }
    return out;
  }
}
