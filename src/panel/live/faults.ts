// The panel's fault control (issue 14): what the user armed for the inspected tab, sent to the
// background (which hands it to the tab's relays), counted down from the capture's fault records
// (a fault armed for the next N matching requests disarms itself once N connections show it), and
// forgotten with the panel: the background disarms the tab when its last panel port closes
// (DevTools closed), and a panel that reconnects arms its list again.
//
// Specs are validated here (core/faults: parseFaultText / validateFaults): the relay only matches.
import { describeFault, parseFaultText, presetById, FaultSpecError, type FaultSpec } from '../../core/faults/index';
import type { CaptureRecord } from '../../core/record';
import type { ArmedFault } from '../../extension/wire/protocol';
import type { ArmedFaultView, FaultControlSnapshot, FaultControlSource } from '../ui/faults/fault-types';

export interface FaultControlEnv {
  /** Send the armed list to the background (on every change, and again after each reconnect). */
  send(list: ArmedFault[]): void;
  /** The capture's records (to count what the armed faults did). */
  records(): readonly CaptureRecord[];
  subscribeRecords(fn: () => void): () => void;
  randomId?: () => string;
}

export interface FaultControl extends FaultControlSource {
  /** The port to the background was (re)opened: arm the list again. */
  resend(): void;
}

function defaultId(): string {
  const a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createFaultControl(env: FaultControlEnv): FaultControl {
  const randomId = env.randomId ?? defaultId;
  let armed: ArmedFaultView[] = [];
  let presets: string[] = [];
  let snapshot: FaultControlSnapshot = { armed, presets };
  const listeners = new Set<() => void>();
  /** Connections each armed id changed (from the capture's fault records). */
  const usedBy = new Map<string, Set<string>>();
  let seen = 0;

  const publish = () => {
    snapshot = { armed, presets };
    for (const l of [...listeners]) l();
  };
  const send = () => env.send(armed.map((a) => ({ id: a.id, spec: a.spec, text: a.text })));

  function add(specs: FaultSpec[], preset?: string) {
    for (const spec of specs) armed = [...armed, { id: randomId(), spec, text: describeFault(spec), used: 0, ...(preset ? { preset } : {}) }];
    if (preset && !presets.includes(preset)) presets = [...presets, preset];
    send();
    publish();
  }

  function onRecords() {
    const recs = env.records();
    if (recs.length < seen) seen = 0; // cleared
    let changed = false;
    for (let i = seen; i < recs.length; i++) {
      const r = recs[i]!;
      if (r.kind !== 'fault') continue;
      let s = usedBy.get(r.armed);
      if (!s) usedBy.set(r.armed, (s = new Set()));
      const before = s.size;
      s.add(`${r.src}:${r.conn}`);
      if (s.size !== before) changed = true;
    }
    seen = recs.length;
    if (!changed) return;
    const next: ArmedFaultView[] = [];
    let spent = false;
    for (const a of armed) {
      const used = usedBy.get(a.id)?.size ?? 0;
      const times = a.spec.times ?? 1;
      // expire-session keeps answering its session's later requests without spending: it stays.
      if (times !== 'always' && used >= times && a.spec.action.kind !== 'expire-session') {
        spent = true;
        continue;
      }
      next.push(used === a.used ? a : { ...a, used });
    }
    armed = next;
    if (spent) send();
    publish();
  }
  env.subscribeRecords(onRecords);

  return {
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    getSnapshot: () => snapshot,
    arm(text) {
      try {
        const p = presetById(text.trim());
        add(parseFaultText(text), p?.id);
        return undefined;
      } catch (e) {
        return e instanceof FaultSpecError ? e.message : String(e);
      }
    },
    armPreset(id) {
      const p = presetById(id);
      if (p) add(p.faults.map((f) => ({ ...f })), p.id);
    },
    disarm(id) {
      const a = armed.find((x) => x.id === id);
      armed = armed.filter((x) => x.id !== id);
      if (a?.preset && !armed.some((x) => x.preset === a.preset)) presets = presets.filter((p) => p !== a.preset);
      send();
      publish();
    },
    disarmAll() {
      armed = [];
      presets = [];
      send();
      publish();
    },
    resend() {
      if (armed.length) send();
    },
  };
}
