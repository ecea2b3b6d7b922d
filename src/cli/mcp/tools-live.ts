// The live-browser tools (--browser-url): the tabs the extension records, a tab's capture opened
// as a capture id (every file tool then reads it), and the panel's faults on a tab.
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PRESETS } from '../../core/faults/index';
import type { McpContext } from './context';
import { LiveRefused, type LiveAccess } from './live/access';
import { fail, guarded, ok, type ToolResult } from './results';
import { captureView } from './views';
import * as S from './schemas';

const tab = z.object({ tabId: z.number(), title: z.string(), url: z.string(), recording: z.boolean(), capture: z.string().nullable() });
const fault = z.object({ id: z.string(), text: z.string(), preset: z.string().optional() });
const faultList = z.object({ tabId: z.number(), armed: z.array(fault) });
const tabIdArg = z.number().int().min(0).describe('tab id from list_tabs');

const live = (fn: () => Promise<ToolResult>) =>
  guarded(async () => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof LiveRefused) return fail(e.message);
      throw e;
    }
  });

export function registerLiveTools(server: McpServer, ctx: McpContext, access: LiveAccess): void {
  server.registerTool(
    'list_tabs',
    {
      title: 'List browser tabs the extension can record',
      description:
        'The tabs of the Chrome this server is attached to (--browser-url) where the MCP Stream Inspector extension runs, with whether they are recorded now and the capture id when opened. Refuses with the reason when the extension is not loaded, another version, or live access is off in its settings.',
      inputSchema: z.object({}),
      outputSchema: z.object({ tabs: z.array(tab) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      live(async () => {
        const tabs = await access.tabs();
        return ok({ tabs: tabs.map((t) => ({ ...t, capture: ctx.captures.list().some((c) => c.id === `tab-${t.tabId}`) ? `tab-${t.tabId}` : null })) });
      }),
  );

  server.registerTool(
    'open_tab',
    {
      title: "Open a tab's live capture",
      description:
        "Read a tab's MCP traffic through the extension, as one more DevTools panel would (the same backfill of what the extension still holds, then live records). Returns a capture id (tab-<id>) that every capture tool reads; each call brings it up to date. Recording starts for the tab if it was not recorded.",
      inputSchema: z.object({ tabId: tabIdArg }),
      outputSchema: S.captureSummary,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ tabId }) =>
      live(async () => {
        const c = await access.openTab(tabId);
        await c.refresh?.();
        return ok(captureView(c));
      }),
  );

  server.registerTool(
    'arm_fault',
    {
      title: 'Arm a fault on a tab',
      description: `Make the next matching responses in a tab misbehave on purpose, as the panel's fault menu does, to reproduce a failure and read the verdict after the page runs again. A preset (${PRESETS.map((p) => `${p.id}: ${p.question}`).join('; ')}) or a fault: cut:N (cut the stream after N events), withhold:A-B, delay:MS[:A-B], drop-result[:keep-open], answer-resume:404|409|empty, expire-session, with ,method= ,tool= ,url= ,id= ,on=request|resume|standalone|any ,era=legacy|modern ,times=N|always. Replaces nothing: faults add up until disarmed.`,
      inputSchema: z.object({ tabId: tabIdArg, fault: z.string().min(1).max(2000) }),
      outputSchema: faultList,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    ({ tabId, fault: text }) => live(async () => ok({ tabId, armed: await access.armFaults(tabId, text) })),
  );

  server.registerTool(
    'list_faults',
    {
      title: 'Faults armed on a tab',
      description: 'The faults this server armed on a tab, in words.',
      inputSchema: z.object({ tabId: tabIdArg }),
      outputSchema: faultList,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ tabId }) => live(async () => ok({ tabId, armed: await access.listFaults(tabId) })),
  );

  server.registerTool(
    'disarm_faults',
    {
      title: 'Disarm faults on a tab',
      description: 'Disarm one fault (by id) or all faults this server armed on a tab.',
      inputSchema: z.object({ tabId: tabIdArg, id: z.string().max(100).optional() }),
      outputSchema: faultList,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    ({ tabId, id }) => live(async () => ok({ tabId, armed: await access.disarmFaults(tabId, id) })),
  );
}
