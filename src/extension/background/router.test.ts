import { describe, expect, it } from 'vitest';
import { listeners, type MessageAdapter } from '../wire/adapter';
import { CHANNEL, PROTOCOL_VERSION } from '../wire/protocol';
import { createRouter as create, type RouterEnv } from './router';

const env = (body: { type: string } & Record<string, unknown>) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, ...body });

/** A port adapter whose messages and close the test delivers synchronously. */
function port() {
  const got: unknown[] = [];
  const msg = listeners<[unknown]>();
  const close = listeners<[]>();
  const p: MessageAdapter & { got: unknown[]; deliver(m: unknown): void; drop(): void } = {
    got,
    post: (m) => (got.push(m), true),
    listen: (fn) => msg.add(fn),
    onClose: (fn) => close.add(fn),
    close: () => {},
    deliver: (m) => msg.emit(m),
    drop: () => close.emit(),
  };
  return p;
}
type Port = ReturnType<typeof port>;
const handles = (p: Port) => ({ onMessage: (m: unknown) => p.deliver(m), onDisconnect: () => p.drop() });
/** The router, with each connect returning the port's handles (deliver a message, close it). */
function createRouter(e: RouterEnv) {
  const r = create(e);
  return {
    ...r,
    panelConnected: (p: Port) => (r.panelConnected(p), handles(p)),
    devtoolsConnected: (p: Port) => (r.devtoolsConnected(p), handles(p)),
    relayConnected: (p: Port, tabId: number, frameId: number) => (r.relayConnected(p, tabId, frameId), handles(p)),
  };
}
const rec = (src: string, seq: number) => ({ kind: 'chunk', conn: 'c1', t: 1, text: 'x', bytes: 1, src, seq });

describe('background router', () => {
  it('attaches the tab relays when a panel says hello, and pipes their records to that tab panel only', () => {
    const toTab: [number, unknown][] = [];
    const r = createRouter({ sendToTab: (tabId, msg) => void toTab.push([tabId, msg]) });
    const panel5 = port();
    const panel6 = port();
    const hp5 = r.panelConnected(panel5);
    r.panelConnected(panel6).onMessage(env({ type: 'panel-hello', tabId: 6, cursors: {} }));
    hp5.onMessage(env({ type: 'panel-hello', tabId: 5, cursors: { S: 3 } }));
    expect(toTab).toContainEqual([5, env({ type: 'attach', cursors: { S: 3 } })]);
    const relay = port();
    const hr = r.relayConnected(relay, 5, 2);
    hr.onMessage(env({ type: 'records', src: 'S', backfill: true, records: [rec('S', 4)] }));
    expect(panel5.got).toEqual([{ ...env({ type: 'records', src: 'S', backfill: true, records: [rec('S', 4)] }), frameId: 2 }]);
    expect(panel6.got).toEqual([]);
    // malformed batches are dropped (the records inside were checked by the relay, where they
    // entered the extension: not again here)
    hr.onMessage(env({ type: 'records', src: 'S', backfill: 'no', records: [rec('S', 5)] }));
    hr.onMessage({ type: 'records' });
    expect(panel5.got.length).toBe(1);
  });

  it('answers a relay hello by whether a panel is attached to its tab', () => {
    const r = createRouter({ sendToTab: () => {} });
    const hello = env({ type: 'relay-hello', src: 'S' });
    expect(r.onRuntimeMessage(hello, 5)).toMatchObject({ attach: false });
    r.panelConnected(port()).onMessage(env({ type: 'panel-hello', tabId: 5, cursors: {} }));
    expect(r.onRuntimeMessage(hello, 5)).toMatchObject({ type: 'relay-hello-reply', attach: true });
    expect(r.onRuntimeMessage(hello, undefined)).toBeUndefined();
    expect(r.onRuntimeMessage({ type: 'relay-hello' }, 5)).toBeUndefined();
  });

  it('detaches relays when the last panel of their tab goes, and tells a relay with no panel to detach', () => {
    const r = createRouter({ sendToTab: () => {} });
    const panel = port();
    const hp = r.panelConnected(panel);
    hp.onMessage(env({ type: 'panel-hello', tabId: 5, cursors: {} }));
    const relay = port();
    r.relayConnected(relay, 5, 0);
    hp.onDisconnect();
    expect(relay.got).toEqual([env({ type: 'detach' })]);
    const orphan = port();
    r.relayConnected(orphan, 9, 0).onMessage(env({ type: 'records', src: 'S', backfill: false, records: [rec('S', 1)] }));
    expect(orphan.got).toEqual([env({ type: 'detach' })]);
  });

  it('tells the panel whether a relay of this extension instance answered the attach', async () => {
    const replies = new Map<number, unknown>([[5, env({ type: 'attach-ack', src: 'S' })]]);
    const r = createRouter({
      sendToTab: (tabId) => (replies.has(tabId) ? Promise.resolve(replies.get(tabId)) : Promise.reject(new Error('Could not establish connection. Receiving end does not exist.'))),
      installInfo: () => Promise.resolve({ installedAt: 123, installReason: 'update' }),
    });
    const p5 = port();
    const p7 = port();
    r.panelConnected(p5).onMessage(env({ type: 'panel-hello', tabId: 5, cursors: {} }));
    r.panelConnected(p7).onMessage(env({ type: 'panel-hello', tabId: 7, cursors: {} }));
    await new Promise((res) => setTimeout(res, 0));
    expect(p5.got).toEqual([env({ type: 'tab-status', relays: true, installedAt: 123, installReason: 'update' })]);
    expect(p7.got).toEqual([env({ type: 'tab-status', relays: false, installedAt: 123, installReason: 'update' })]);
  });
});

describe('background router: inspected tabs', () => {
  const inspectedMsgs = (toTab: [number, unknown][], tabId: number) =>
    toTab.filter(([t, m]) => t === tabId && (m as { type?: string }).type === 'inspected').map(([, m]) => (m as { inspected: boolean }).inspected);

  it('tracks the tabs DevTools pages inspect, answers relay hellos with it and broadcasts each change once', () => {
    const toTab: [number, unknown][] = [];
    const r = createRouter({ sendToTab: (tabId, msg) => void toTab.push([tabId, msg]) });
    const hello = env({ type: 'relay-hello', src: 'S' });
    expect(r.onRuntimeMessage(hello, 5)).toEqual(env({ type: 'relay-hello-reply', attach: false, inspected: false }));
    const d1 = r.devtoolsConnected(port());
    d1.onMessage(env({ type: 'devtools-hello', tabId: 5 }));
    expect(r.inspectedTabs()).toEqual([5]);
    expect(r.onRuntimeMessage(hello, 5)).toEqual(env({ type: 'relay-hello-reply', attach: false, inspected: true }));
    expect(r.onRuntimeMessage(hello, 6)).toMatchObject({ inspected: false });
    expect(inspectedMsgs(toTab, 5)).toEqual([true]);
    // a second DevTools window on the same tab (undocked + docked, or a reconnect): no new broadcast
    const d2 = r.devtoolsConnected(port());
    d2.onMessage(env({ type: 'devtools-hello', tabId: 5 }));
    d1.onDisconnect();
    expect(inspectedMsgs(toTab, 5)).toEqual([true]);
    expect(r.onRuntimeMessage(hello, 5)).toMatchObject({ inspected: true });
    d2.onDisconnect();
    expect(inspectedMsgs(toTab, 5)).toEqual([true, false]);
    expect(r.inspectedTabs()).toEqual([]);
    expect(r.onRuntimeMessage(hello, 5)).toMatchObject({ inspected: false });
    expect(toTab.every(([, m]) => (m as { type: string }).type === 'inspected')).toBe(true);
  });

  it('ignores malformed DevTools hellos; a port that never said hello changes nothing', () => {
    const toTab: [number, unknown][] = [];
    const r = createRouter({ sendToTab: (tabId, msg) => void toTab.push([tabId, msg]) });
    const d = r.devtoolsConnected(port());
    d.onMessage(env({ type: 'devtools-hello', tabId: '5' }));
    d.onMessage(env({ type: 'devtools-hello', tabId: -1 }));
    d.onMessage(env({ type: 'devtools-hello', tabId: 1.5 }));
    d.onMessage({ type: 'devtools-hello', tabId: 5 });
    d.onDisconnect();
    expect(r.inspectedTabs()).toEqual([]);
    expect(toTab).toEqual([]);
  });

  it('a panel port counts as inspecting: its attach starts recording, its going stops it unless DevTools is still open', () => {
    const toTab: [number, unknown][] = [];
    const r = createRouter({ sendToTab: (tabId, msg) => void toTab.push([tabId, msg]) });
    const hp = r.panelConnected(port());
    hp.onMessage(env({ type: 'panel-hello', tabId: 7, cursors: {} }));
    expect(r.inspectedTabs()).toEqual([7]);
    expect(r.onRuntimeMessage(env({ type: 'relay-hello', src: 'S' }), 7)).toMatchObject({ attach: true, inspected: true });
    // the attach tells the relays; no separate 'inspected' broadcast for a panel start
    expect(toTab.map(([, m]) => (m as { type: string }).type)).toEqual(['attach']);
    hp.onDisconnect();
    expect(inspectedMsgs(toTab, 7)).toEqual([false]);
    // DevTools page and panel both connected: the panel going alone changes nothing
    const d = r.devtoolsConnected(port());
    d.onMessage(env({ type: 'devtools-hello', tabId: 7 }));
    const hp2 = r.panelConnected(port());
    hp2.onMessage(env({ type: 'panel-hello', tabId: 7, cursors: {} }));
    hp2.onDisconnect();
    expect(inspectedMsgs(toTab, 7)).toEqual([false, true]);
    d.onDisconnect();
    expect(inspectedMsgs(toTab, 7)).toEqual([false, true, false]);
  });

  it('a broadcast to a tab without relays (rejected) is harmless', async () => {
    const r = createRouter({ sendToTab: () => Promise.reject(new Error('Receiving end does not exist.')) });
    const d = r.devtoolsConnected(port());
    d.onMessage(env({ type: 'devtools-hello', tabId: 3 }));
    d.onDisconnect();
    await new Promise((res) => setTimeout(res, 0));
    expect(r.inspectedTabs()).toEqual([]);
  });
});
