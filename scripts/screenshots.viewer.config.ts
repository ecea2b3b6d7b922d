// Builds only the standalone viewer into a temp dir for screenshots (does not touch dist/).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: process.cwd(),
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: process.env.MSI_VIEWER_OUT ?? '/tmp/msi-viewer-dist',
    emptyOutDir: true,
    target: 'chrome116',
    rolldownOptions: { input: { viewer: 'src/panel/viewer.html' } },
  },
});
