import { describe, expect, it } from 'vitest';
import { CHANNEL, PROTOCOL_VERSION } from '../shared/messages';
import { createRouter, type PortLike } from './router';

const env = (body: { type: string } & Record<string, unknown>) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, ...body });

function port() {
  const got: unknown[] = [];
  let disconnected = false;
  const p: PortLike & { got: unknown[]; disconnected: () => boolean } = {
    got,
    postMessage: (m) => got.push(m),
    disconnect: () => {
      disconnected = true;
    },
    disconnected: () => disconnected,
  };
  return p;
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
    // malformed batches are dropped
    hr.onMessage(env({ type: 'records', src: 'S', backfill: false, records: [rec('T', 5)] }));
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
