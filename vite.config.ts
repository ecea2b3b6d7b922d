import { crx } from '@crxjs/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import manifest from './manifest.json' with { type: 'json' };

// The extension build (dist/, load unpacked). Two crxjs details matter (docs/capture.md):
// - hook and relay are standalone IIFE content scripts: crxjs's default async loader would run
//   them after the page's first inline scripts, missing the first requests;
// - the DevTools panel and the standalone viewer are referenced only at run time
//   (chrome.devtools.panels.create, a link), so they must be explicit build inputs.
export default defineConfig({
  plugins: [
    react(),
    crx({
      manifest: manifest as Parameters<typeof crx>[0]['manifest'],
      contentScripts: { standaloneFiles: ['src/extension/hook/hook.ts', 'src/extension/relay/relay.ts'] },
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: true,
    rolldownOptions: {
      input: {
        panel: 'src/panel/panel.html',
        viewer: 'src/panel/viewer.html',
      },
    },
  },
});
