// The agent bridge (issue 21) over the panel's real connection and store, with a fake port: it
// refuses while live access is off and drops its tabs when access is turned off; it reads a tab
// as a panel does (hello with cursors, backfill without duplicates), in pages, and starts again
// from 0 when the store's list is replaced; faults go out on the panel port.
import { describe, expect, it } from 'vitest';
import { CHANNEL, PROTOCOL_VERSION } from '../../extension/wire/protocol';
import { AGENT_BRIDGE_VERSION as SERVER_SIDE } from '../../cli/mcp/live/bridge';
import { createPanelConnection, type PortLike } from '../live/connection';
import { AGENT_BRIDGE_VERSION, createBridge, READ_MAX, type BridgeEnv } from './bridge';
import { DEFAULT_SETTINGS } from '../ui/settings/settings';

const env = (body: { type: string } & Record<string, unknown>) => ({ ch: CHANNEL, v: PROTOCOL_VERSION, ...body });
const rec = (seq: number, extra: Record<string, unknown> = {}) => ({ kind: 'chunk', conn: 'c1', t: seq, text: 'x', bytes: 1, src: 'S', seq, ...extra });

function fakePort() {
  const msgs: ((m: unknown) => void)[] = [];
  const discs: (() => void)[] = [];
  const p: PortLike & { sent: any[]; deliver(m: unknown): void; closed: boolean } = {
    sent: [],
    closed: false,
    postMessage: (m) => p.sent.push(m),
    onMessage: { addListener: (fn) => msgs.push(fn) },
    onDisconnect: { addListener: (fn) => discs.push(fn) },
    disconnect: () => void (p.closed = true),
    deliver: (m) => msgs.forEach((f) => f(m)),
  };
  return p;
}

function setup() {
  let on = false;
  const changes: ((on: boolean) => void)[] = [];
  const ports: ReturnType<typeof fakePort>[] = [];
  const e: BridgeEnv = {
    version: '9.9.9',
    access: async () => on,
    onAccessChange: (fn) => changes.push(fn),
    tabs: async () => [
      { id: 7, url: 'http://127.0.0.1:1/app' },
      { id: 8 },
      { id: 9, url: 'chrome://settings' },
    ],
    inspectedTabs: async () => [],
    settings: async () => ({ ...DEFAULT_SETTINGS, cumulativeMethods: ['notifications/x'] }),
    connect: (tabId, store) =>
      createPanelConnection({
        tabId,
        store,
        connect: () => {
          const p = fakePort();
          ports.push(p);
          return p;
        },
        setTimer: () => {},
        pageStartedAt: async () => null,
        networkRequestsSince: async () => 0,
      }),
  };
  const bridge = createBridge(e);
  return { bridge, ports, setAccess: (v: boolean) => ((on = v), changes.forEach((f) => f(v))) };
}

describe('agent bridge', () => {
  it('is the version the MCP server speaks', () => {
    expect(SERVER_SIDE).toBe(AGENT_BRIDGE_VERSION);
  });

  it('refuses every call but hello while live access is off', async () => {
    const { bridge } = setup();
    expect(await bridge.hello()).toEqual({ product: 'mcp-stream-inspector', version: '9.9.9', bridge: AGENT_BRIDGE_VERSION, access: false });
    await expect(bridge.tabs()).rejects.toThrow('access-off');
    await expect(bridge.open(7)).rejects.toThrow('access-off');
    await expect(bridge.read(7, 0, 0)).rejects.toThrow('access-off');
    await expect(bridge.arm(7, 'cut:3')).rejects.toThrow('access-off');
  });

  it('lists only tabs with a known web page; reads a tab as a panel, in pages, from its backfill', async () => {
    const { bridge, ports, setAccess } = setup();
    setAccess(true);
    expect((await bridge.tabs()).map((t) => [t.tabId, t.url, t.recording])).toEqual([[7, 'http://127.0.0.1:1/app', false]]);
    await bridge.open(7);
    expect(ports[0]!.sent[0]).toEqual(env({ type: 'panel-hello', tabId: 7, cursors: {} }));
    const n = READ_MAX + 5;
    ports[0]!.deliver(env({ type: 'records', src: 'S', backfill: true, records: Array.from({ length: n }, (_, i) => rec(i + 1)) }));
    ports[0]!.deliver(env({ type: 'records', src: 'S', backfill: true, records: [rec(3)] })); // a duplicate
    ports[0]!.deliver(env({ type: 'tab-status', relays: true }));
    const a = await bridge.read(7, 0, 0);
    expect(a).toMatchObject({ generation: 0, from: 0, total: n, relays: true });
    expect(a.records).toHaveLength(READ_MAX);
    const b = await bridge.read(7, READ_MAX, 0);
    expect(b.records.map((r) => r.seq)).toEqual([READ_MAX + 1, READ_MAX + 2, READ_MAX + 3, READ_MAX + 4, READ_MAX + 5]);
    expect((await bridge.tabs())[0]!.recording).toBe(true);
    expect((await bridge.settings()).cumulativeMethods).toEqual(['notifications/x']);
  });

  it('starts again from 0 when the store replaced its list (a navigation), and arms faults on the panel port', async () => {
    const { bridge, ports, setAccess } = setup();
    setAccess(true);
    await bridge.open(7);
    const p = ports[0]!;
    p.deliver(env({ type: 'records', src: 'S', backfill: false, records: [{ kind: 'navigation', src: 'S', seq: 1, t: 1, url: 'http://127.0.0.1:1/a', top: true }, rec(2)] }));
    const first = await bridge.read(7, 0, 0);
    p.deliver(env({ type: 'records', src: 'T', backfill: false, records: [{ kind: 'navigation', src: 'T', seq: 1, t: 5, url: 'http://127.0.0.1:1/b', top: true }] }));
    const next = await bridge.read(7, first.total, first.generation);
    expect(next.generation).not.toBe(first.generation);
    expect(next.from).toBe(0);
    expect(next.records.map((r) => (r as { url?: string }).url)).toEqual(['http://127.0.0.1:1/b']);
    const armed = await bridge.arm(7, 'cut:3');
    expect(armed.map((x) => x.text)).toEqual([expect.stringContaining('cut the stream after 3 events')]);
    expect(p.sent.at(-1)).toMatchObject({ type: 'arm-faults', faults: [{ id: armed[0]!.id, text: armed[0]!.text }] });
    await expect(bridge.arm(7, 'explode:now')).rejects.toThrow();
    // Access turned off: the tab's faults are disarmed and its port closed at once.
    setAccess(false);
    expect(p.sent.at(-1)).toMatchObject({ type: 'arm-faults', faults: [] });
    expect(p.closed).toBe(true);
  });
});
