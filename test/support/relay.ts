// Read the relay's own counters (src/extension/relay/relay-core.ts RelayStats) from its isolated
// world, over CDP: the page cannot see them, the test can.

import type { Cdp } from './cdp';
import { waitFor } from './wait';

export interface RelayStats {
  src: string;
  lastSeq: number;
  oldestSeq: number;
  records: number;
  bytes: number;
  maxRecords: number;
  maxBytes: number;
  recordMaxChars: number;
  evicted: number;
  accepted: number;
  rejected: number;
  cut: number;
  released: boolean;
  /** Messages the relay read from the hook's synchronous channel; hellos it ignored as forged. */
  syncMessages: number;
  forgedHellos: number;
  /** Keeping records now (DevTools inspects the tab, or capture while closed is on). */
  recording: boolean;
  /** Connections held while not recording, their estimated bytes, body records dropped. */
  held: number;
  heldBytes: number;
  notRecorded: number;
  /** Blobs the relay made of chunk bytes, and large reads the hook sent as Blobs (kept). */
  blobs: number;
  hookBlobs: number;
}

const EXTENSION_NAME = 'MCP Stream Inspector';

/** Execution context id of the extension's isolated world in the page's top frame. */
export async function relayContext(cdp: Cdp, pageSession: string): Promise<number> {
  const { frameTree } = await cdp.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree', {}, pageSession);
  const top = frameTree.frame.id;
  return waitFor(
    async () => {
      const found: number[] = [];
      const off = cdp.on('Runtime.executionContextCreated', (p: any, sid) => {
        const c = p.context;
        if (sid === pageSession && c.name === EXTENSION_NAME && c.auxData?.type === 'isolated' && c.auxData?.frameId === top) found.push(c.id);
      });
      try {
        await cdp.send('Runtime.disable', {}, pageSession);
        await cdp.send('Runtime.enable', {}, pageSession); // replays every existing context
      } finally {
        off();
      }
      return found.at(-1);
    },
    { message: 'relay isolated world not found' },
  );
}

export async function relayStats(cdp: Cdp, pageSession: string, contextId: number): Promise<RelayStats> {
  const r = await cdp.send<any>(
    'Runtime.evaluate',
    { expression: 'globalThis.__MSI_RELAY__.stats()', contextId, returnByValue: true },
    pageSession,
  );
  if (r.exceptionDetails) throw new Error(`relay stats: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  return r.result.value as RelayStats;
}

/** JS heap of a target after a full GC (bytes used). */
export async function heapUsed(cdp: Cdp, session: string): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage', {}, session).catch(() => {});
  const r = await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage', {}, session);
  return r.usedSize;
}
