// Faults per tab in the background (issue 14): only the panel port arms them, every frame of the
// tab hears the list, a document that says hello gets it, and the tab's last panel port closing
// (DevTools closed) disarms them.
import { describe, expect, it } from 'vitest';
import { listeners, type MessageAdapter } from '../wire/adapter';
import { CHANNEL, PROTOCOL_VERSION } from '../wire/protocol';
import { createRouter } from './router';

const env = (body: { type: string } & Record<string, unknown>) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, ...body });

function port() {
  const msg = listeners<[unknown]>();
  const close = listeners<[]>();
  const p: MessageAdapter & { deliver(m: unknown): void; drop(): void } = {
    post: () => true,
    listen: (fn) => msg.add(fn),
    onClose: (fn) => close.add(fn),
    close: () => {},
    deliver: (m) => msg.emit(m),
    drop: () => close.emit(),
  };
  return p;
}

const cut = { id: 'f1', text: 'cut the stream after 3 events · any request · next 1', spec: { action: { kind: 'cut', afterEvents: 3 } } };

describe('background router: faults', () => {
  it('arms the panel tab, tells its frames, answers hellos with the list, and disarms when the last panel port closes', () => {
    const toTab: [number, any][] = [];
    const r = createRouter({ sendToTab: (tab, m) => void toTab.push([tab, m]) });
    const p = port();
    r.panelConnected(p);
    p.deliver(env({ type: 'panel-hello', tabId: 7, cursors: {} }));
    p.deliver(env({ type: 'arm-faults', faults: [cut] }));
    expect(toTab.filter(([, m]) => m.type === 'faults')).toEqual([[7, env({ type: 'faults', faults: [cut] })]]);
    expect(r.onRuntimeMessage(env({ type: 'relay-hello', src: 's' }), 7)).toMatchObject({ faults: [cut] });
    expect(r.onRuntimeMessage(env({ type: 'relay-hello', src: 's' }), 8)).not.toHaveProperty('faults');
    p.drop();
    expect(toTab.filter(([, m]) => m.type === 'faults').at(-1)).toEqual([7, env({ type: 'faults', faults: [] })]);
    expect(r.onRuntimeMessage(env({ type: 'relay-hello', src: 's' }), 7)).not.toHaveProperty('faults');
  });

  it('ignores an arm before the panel said which tab it inspects, and malformed lists', () => {
    const toTab: [number, any][] = [];
    const r = createRouter({ sendToTab: (tab, m) => void toTab.push([tab, m]) });
    const p = port();
    r.panelConnected(p);
    p.deliver(env({ type: 'arm-faults', faults: [cut] }));
    p.deliver(env({ type: 'panel-hello', tabId: 3, cursors: {} }));
    p.deliver(env({ type: 'arm-faults', faults: [{ id: 'x', spec: {} }] }));
    p.deliver(env({ type: 'arm-faults', faults: 'cut:3' }));
    expect(toTab.filter(([, m]) => m.type === 'faults')).toEqual([]);
  });

  it('a relay cannot arm faults: its port accepts records only', () => {
    const toTab: [number, any][] = [];
    const r = createRouter({ sendToTab: (tab, m) => void toTab.push([tab, m]) });
    const relay = port();
    r.relayConnected(relay, 5, 0);
    relay.deliver(env({ type: 'arm-faults', faults: [cut] }));
    expect(r.onRuntimeMessage(env({ type: 'arm-faults', faults: [cut] }), 5)).toBeUndefined();
    expect(r.onRuntimeMessage(env({ type: 'relay-hello', src: 's' }), 5)).not.toHaveProperty('faults');
    expect(toTab).toEqual([]);
  });
});
