// Faults written by hand: a preset name, JSON, or the short form
//   <kind>[:<arg>[:<arg>]][,<key>=<value>]...     several separated by ';'
// e.g. `cut:3,method=tools/call`, `withhold:1-2,on=resume`, `delay:500:4-`, `answer-resume:404`,
// `drop-result:keep-open,tool=long_task`, `expire-session,method=tools/call,times=always`.
// And back: one line per fault saying what it does, for the console and the panel's toolbar.
import { PRESETS, presetById } from './presets';
import { FaultSpecError, validateFaults, type EventSelector, type FaultSpec } from './spec';

const MATCH_KEYS = new Set(['method', 'tool', 'url', 'id', 'on', 'era']);

function range(s: string, where: string): EventSelector {
  const m = /^(\d+)(?:(-)(\d+)?)?$/.exec(s.trim());
  if (!m) throw new FaultSpecError(`${where}: "${s}" is not an event position or range (3, 2-4, 5-)`);
  const from = Number(m[1]);
  if (!m[2]) return { from, to: from };
  return m[3] !== undefined ? { from, to: Number(m[3]) } : { from };
}

function whole(s: string | undefined, what: string, where: string): number {
  if (s === undefined || !/^\d+$/.test(s.trim())) throw new FaultSpecError(`${where}: ${what} must be a whole number, not "${s ?? ''}"`);
  return Number(s);
}

function parseShort(item: string, where: string): unknown {
  const [head, ...pairs] = item.split(',');
  const [kind, a, b, ...extra] = head!.trim().split(':');
  if (extra.length > 0) throw new FaultSpecError(`${where}: too many ":" arguments in "${head}"`);
  let action: Record<string, unknown>;
  switch (kind) {
    case 'cut':
      action = { kind, afterEvents: whole(a, 'the event count', where), ...(b !== undefined ? { how: b } : {}) };
      break;
    case 'withhold':
      if (a === undefined) throw new FaultSpecError(`${where}: withhold needs the events, e.g. withhold:1-2`);
      action = { kind, events: range(a, where) };
      if (b !== undefined) throw new FaultSpecError(`${where}: withhold takes one argument`);
      break;
    case 'delay':
      action = { kind, ms: whole(a, 'the delay in ms', where), ...(b !== undefined ? { events: range(b, where) } : {}) };
      break;
    case 'drop-result':
      action = { kind, ...(a !== undefined ? { then: a } : {}) };
      break;
    case 'answer-resume': {
      const answer = a === '404' ? 404 : a === '409' ? 409 : a;
      action = { kind, answer, ...(b !== undefined ? { then: b } : {}) };
      break;
    }
    case 'expire-session':
      action = { kind };
      break;
    default:
      throw new FaultSpecError(
        `${where}: unknown fault "${kind}"; one of cut, withhold, delay, drop-result, answer-resume, expire-session, a preset (${PRESETS.map((p) => p.id).join(', ')}) or JSON`,
      );
  }
  const match: Record<string, string> = {};
  let times: number | 'always' | undefined;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new FaultSpecError(`${where}: "${pair.trim()}" is not key=value`);
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (key === 'times') times = value === 'always' ? 'always' : whole(value, 'times', where);
    else if (MATCH_KEYS.has(key)) match[key === 'id' ? 'requestId' : key] = value;
    else throw new FaultSpecError(`${where}: unknown key "${key}" (method, tool, url, id, on, era, times)`);
  }
  return { action, ...(Object.keys(match).length ? { match } : {}), ...(times !== undefined ? { times } : {}) };
}

/** Parses one `--fault` value (or the panel's text box). Throws FaultSpecError. */
export function parseFaultText(text: string): FaultSpec[] {
  const t = text.trim();
  if (!t) throw new FaultSpecError('fault: empty');
  const preset = presetById(t);
  if (preset) return preset.faults.map((f) => ({ ...f }));
  if (t.startsWith('{') || t.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      throw new FaultSpecError(`fault: not valid JSON (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    }
    return validateFaults(v);
  }
  const items = t.split(';').map((s) => s.trim()).filter(Boolean);
  return items.flatMap((item, i) => validateFaults(parseShort(item, items.length > 1 ? `fault ${i + 1}` : 'fault')));
}

function events(s: EventSelector | undefined): string {
  if (!s) return 'every event';
  const parts: string[] = [];
  if (s.from !== undefined) parts.push(s.to === s.from ? `event ${s.from}` : s.to !== undefined ? `events ${s.from}–${s.to}` : `events ${s.from} onwards`);
  else if (s.to !== undefined) parts.push(`events 1–${s.to}`);
  if (s.ids) parts.push(`id${s.ids.length > 1 ? 's' : ''} ${s.ids.slice(0, 5).join(', ')}${s.ids.length > 5 ? '…' : ''}`);
  if (s.methods) parts.push(`${s.methods.join(' / ')} events`);
  return parts.join(', ') || 'every event';
}

/** One line: what the fault does and to what, e.g. "cut the stream after 3 events · tools/call · next 1". */
export function describeFault(f: FaultSpec): string {
  const a = f.action;
  let what: string;
  switch (a.kind) {
    case 'cut':
      what = `${a.how === 'close' ? 'end' : 'cut'} the stream after ${a.afterEvents} event${a.afterEvents === 1 ? '' : 's'}${a.how === 'close' ? ' (clean end, no result)' : ''}`;
      break;
    case 'withhold':
      what = `withhold ${events(a.events)}`;
      break;
    case 'delay':
      what = `delay ${events(a.events)} by ${a.ms} ms`;
      break;
    case 'drop-result':
      what = `drop the final result${a.then === 'keep-open' ? ' (the stream stays open)' : ''}`;
      break;
    case 'answer-resume':
      what = `answer the resume with ${a.answer === 'empty' ? `an empty stream${a.then === 'keep-open' ? ' that stays open' : ''}` : a.answer}`;
      break;
    case 'expire-session':
      what = 'expire the session (404 from then on)';
      break;
  }
  const m = f.match ?? {};
  const on = m.on ?? (a.kind === 'answer-resume' ? 'resume' : 'request');
  const target = [
    m.method,
    m.tool !== undefined ? `tool ${m.tool}` : undefined,
    m.requestId !== undefined ? `id ${m.requestId}` : undefined,
    m.url !== undefined ? `URL ~ ${m.url}` : undefined,
    m.era !== undefined ? `${m.era === 'modern' ? '2026-07-28' : 'legacy'} era` : undefined,
  ].filter((x): x is string => x !== undefined);
  if (target.length && on !== 'request') target.push(on === 'resume' ? (a.kind === 'answer-resume' ? 'its resume' : 'on its resume') : on === 'standalone' ? 'standalone GET' : 'any exchange');
  const times = f.times === 'always' ? 'always' : `next ${f.times ?? 1}`;
  const anything = on === 'resume' ? 'any resume' : on === 'standalone' ? 'any standalone GET' : on === 'any' ? 'any exchange' : 'any request';
  return [f.label, what, target.length ? target.join(', ') : anything, times].filter(Boolean).join(' · ');
}
