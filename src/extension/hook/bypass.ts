// Detects a page that replaced what the hook installed (window.fetch, EventSource, the XHR and
// Response.prototype patches) after document_start. A replacement that calls through to the
// hook's function (a wrapper) is still captured; one that does not (a polyfill, a stub, a fetch
// taken from elsewhere) is not, and the panel must say so rather than show silence. Each finding is
// reported once per document as a `notice` record.
//
// Checks read property descriptors with natives captured at install (no page getter runs), at
// DOMContentLoaded, load, and on a backing-off timer (100 ms doubling to 5 s), until every check
// has fired. Cost to the page: one descriptor read per check per tick.

import type { HookRecord } from '../../core/record';
import type { Emitter } from './emitter';
import { call, N, now } from './natives';

const getOwn = Object.getOwnPropertyDescriptor;

export interface Installed {
  /** Human name, e.g. "window.fetch". */
  name: string;
  /** Owner object and property; `kind` says whether the value or the getter was patched. */
  owner: object;
  prop: string;
  kind: 'value' | 'get';
  mine: unknown;
}

export interface BypassWatch {
  /** The hook's function `name` was called: if it is no longer installed, a wrapper called it. */
  onCall(name: string): void;
  check(): void;
}

export function watchBypass(emitter: Emitter, installed: Installed[]): BypassWatch {
  const replaced = new Set<string>();
  const wrapped = new Set<string>();
  const notice = (code: string, message: string, level: 'info' | 'warning'): HookRecord => ({ kind: 'notice', t: now(), level, code, message });

  function isMine(x: Installed): boolean {
    const d = call<PropertyDescriptor | undefined>(getOwn, null, x.owner, x.prop);
    if (!d) return false;
    return (x.kind === 'value' ? d.value : d.get) === x.mine;
  }

  function check() {
    for (const x of installed) {
      if (replaced.has(x.name)) continue;
      let ok = true;
      try {
        ok = isMine(x);
      } catch {
        ok = true; // cannot tell; say nothing
      }
      if (ok) continue;
      replaced.add(x.name);
      emitter.emit(
        notice(
          'hook-bypassed',
          `The page replaced ${x.name} after the capture hook was installed. What it does through the replacement is captured only if the replacement calls the original (a wrapper that does is captured normally); otherwise it is invisible here (requests still show in the Network panel).`,
          'warning',
        ),
      );
    }
  }

  let delay = 100;
  let done = false;
  function tick() {
    check();
    if (replaced.size >= installed.length) done = true;
    if (done) return;
    N.setTimeout(tick, delay);
    delay = Math.min(delay * 2, 5000);
  }
  N.setTimeout(tick, delay);
  call(N.addEventListener, document, 'DOMContentLoaded', check, { once: true });
  call(N.addEventListener, window, 'load', check, { once: true });

  return {
    onCall(name) {
      if (wrapped.has(name)) return;
      const x = installed.find((i) => i.name === name);
      if (!x || isMine(x)) return;
      check();
      wrapped.add(name);
      emitter.emit(
        notice(
          'hook-wrapped',
          `The page wrapped ${name} after the capture hook was installed; the wrapper calls the original, so capture continues through it.`,
          'info',
        ),
      );
    },
    check,
  };
}
