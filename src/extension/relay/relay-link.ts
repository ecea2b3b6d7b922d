// The relay's ends of its channels, over adapters (no chrome.*): the hook's private port, the
// relay port to the background (opened on an attach, closed on a detach), and the runtime
// messages the background broadcasts to the tab's frames. relay.ts gives it chrome's adapters;
// the pipeline test (test/unit/extension/pipeline.test.ts) gives it in-memory ones.

import type { MessageAdapter } from '../wire/adapter';
import { createEndpoint, type Endpoint } from '../wire/endpoint';
import { isMessage } from '../wire/guards';
import { envelope, type AttachAck, type BackgroundFromRelay, type HookInbox, type RelayFromBackground, type RelayFromHook, type RelayHelloReply } from '../wire/protocol';
import type { RelayControl } from './control';
import type { RelayCore } from './relay-core';
import { createFaultInjector, type FaultInjector } from './faults';

export interface RelayLinkEnv {
  /** Open the relay port (throws when the extension context is gone). */
  connect(): MessageAdapter;
  /** The extension context is gone (the extension was reloaded under this document). */
  orphaned(): boolean;
}

export interface RelayLink {
  /** The hook's hello carried this port (the first one only: later ones are forgeries → false). */
  hook(port: MessageAdapter): boolean;
  /** A runtime message from the background (inspected, attach); the reply to send, if any. */
  onRuntimeMessage(msg: unknown): AttachAck | undefined;
  /** The reply to our relay-hello (`token` from control.asking() before sending it). */
  onHelloReply(token: number, reply: unknown): void;
  /** The context is gone: stop, tell the hook to stop copying, close its port. */
  release(): void;
  /** Faults armed from the panel (diagnostics and tests). */
  readonly faults: FaultInjector;
}

export function createRelayLink(core: RelayCore, control: RelayControl, env: RelayLinkEnv): RelayLink {
  let hook: Endpoint<RelayFromHook, HookInbox> | null = null;
  let port: Endpoint<RelayFromBackground, BackgroundFromRelay> | null = null;
  let released = false;

  const gone = () => released || env.orphaned();
  const now = () => performance.timeOrigin + performance.now();
  const faults = createFaultInjector((r) => core.add(r), now);
  /** Arms (or disarms) faults; the hook learns only whether any are armed. */
  const setFaults = (list: import('../wire/protocol').ArmedFault[]) => {
    const was = faults.armed();
    const before = faults.ids().join(',');
    faults.set(list);
    // Every change of an armed list: the hook's open streams ask again (a live fault).
    if (hook && (was !== faults.armed() || (faults.armed() && before !== faults.ids().join(',')))) hook.send('fault-arm', { on: faults.armed() });
  };

  function connect() {
    if (port) return port;
    try {
      const p = (port = createEndpoint<RelayFromBackground, BackgroundFromRelay>(env.connect(), ['detach']));
      p.on('detach', () => {
        core.detach();
        p.close();
        if (port === p) port = null;
      });
      p.adapter.onClose(() => {
        if (port === p) port = null;
        core.detach();
        if (env.orphaned()) link.release();
      });
      return p;
    } catch {
      return null; // extension context invalidated (extension reloaded)
    }
  }

  function attach(cursors: Record<string, number>) {
    // A panel attached: the tab is inspected (the panel port counts as inspecting), so record
    // before backfilling, and the records made on starting reach the panel too.
    control.inspected(true);
    const p = connect();
    if (!p) return;
    core.attach(
      {
        send(batch) {
          if (p.send('records', { src: core.src, ...batch })) return;
          core.detach(); // port closed under us; the panel re-attaches from its cursor
          if (env.orphaned()) link.release();
        },
      },
      cursors,
    );
  }

  const link: RelayLink = {
    faults,
    hook(adapter) {
      if (hook) return false;
      const h = (hook = createEndpoint<RelayFromHook, HookInbox>(adapter, ['hook-batch', 'mode-ack', 'fault-query', 'fault-read']));
      h.on('fault-query', (m) => void h.send('fault-plan', faults.query(m)));
      h.on('fault-read', (m) => {
        const out = faults.read(m);
        h.send('fault-out', out, out.parts.map((p) => p.data.buffer as ArrayBuffer));
      });
      if (faults.armed()) h.send('fault-arm', { on: true });
      // Checked per batch (one property read): an orphaned relay stops buffering at once, even
      // when no panel port was open to tell it.
      h.on('hook-batch', (m) => {
        if (gone()) link.release();
        else core.onHookRecords(m.records);
      });
      h.on('mode-ack', (m) => core.onModeAck(m.copy));
      core.connectHook(
        (copy) => void h.send('mode', { copy }),
        (on) => void h.send('panel', { on }),
      );
      return true;
    },
    onRuntimeMessage(msg) {
      if (isMessage(msg, 'inspected')) {
        if (gone()) link.release();
        else {
          control.inspected(msg.inspected);
          // Faults are on only while DevTools inspects the tab.
          if (!msg.inspected) setFaults([]);
        }
        return undefined;
      }
      if (isMessage(msg, 'faults')) {
        if (!gone()) setFaults(msg.faults);
        return undefined;
      }
      if (!isMessage(msg, 'attach')) return undefined;
      attach(msg.cursors);
      // Tells the background that a relay of this extension instance lives in the tab.
      return envelope('attach-ack', { src: core.src });
    },
    onHelloReply(token, reply) {
      if (!isMessage(reply, 'relay-hello-reply')) return control.answer(token, false);
      const r: RelayHelloReply = reply;
      if (r.faults && r.inspected) setFaults(r.faults);
      if (r.attach) attach({});
      else control.answer(token, r.inspected);
    },
    release() {
      if (released) return;
      released = true;
      if (faults.armed()) hook?.send('fault-arm', { on: false });
      faults.set([]);
      core.release(); // tells the hook to stop copying (mode copy: false)...
      const h = hook;
      setTimeout(() => h?.close(), 0); // ...before its port closes (a message then may be lost)
      port?.close();
      port = null;
    },
  };
  return link;
}
