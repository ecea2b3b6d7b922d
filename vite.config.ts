import { crx } from '@crxjs/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import manifest from './manifest.json' with { type: 'json' };
import pkg from './package.json' with { type: 'json' };

// The extension build (dist/, load unpacked). Two crxjs details matter (docs/capture.md):
// - hook and relay are standalone IIFE content scripts: crxjs's default async loader would run
//   them after the page's first inline scripts, missing the first requests;
// - the DevTools panel and the standalone viewer are referenced only at run time
//   (chrome.devtools.panels.create, a link), so they must be explicit build inputs.
// The manifest's version is package.json's. Mode "store" (`npm run package`, scripts/package.ts)
// builds what is published: into dist-store/, without source maps (MSI_SOURCEMAP=1 keeps them) and
// without the test hooks (src/extension/shared/test-hooks.ts).
export default defineConfig(({ mode }) => {
  const store = mode === 'store';
  return {
  plugins: [
    react(),
    crx({
      manifest: { ...manifest, version: pkg.version } as Parameters<typeof crx>[0]['manifest'],
      contentScripts: { standaloneFiles: ['src/extension/hook/hook.ts', 'src/extension/relay/relay.ts'] },
    }),
  ],
  ...(store ? { define: { __MSI_TEST_HOOKS__: 'false' } } : {}),
  build: {
    outDir: store ? 'dist-store' : 'dist',
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: store ? process.env.MSI_SOURCEMAP === '1' : true,
    rolldownOptions: {
      input: {
        panel: 'src/panel/panel.html',
        viewer: 'src/panel/viewer.html',
        // The coding-agent bridge (issue 21): opened over CDP by `mcp-stream-inspector mcp`.
        'agent-bridge': 'src/panel/agent-bridge.html',
      },
    },
  },
};
});
