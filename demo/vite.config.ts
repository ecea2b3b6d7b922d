import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The demo page and its browser bundle of the official MCP SDK client: demo/dist/.
// Build: npx vite build --config demo/vite.config.ts
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome116',
    sourcemap: true,
    // The page bundles both official SDK clients (v1 and v2, ?sdk=): about 530 kB, one chunk.
    chunkSizeWarningLimit: 1500,
  },
});
