import { defineConfig } from 'vite';

// The `audit` command: the pure core bundled for Node into dist-cli/.
export default defineConfig({
  build: {
    ssr: 'src/cli/main.ts',
    outDir: 'dist-cli',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: { output: { entryFileNames: 'cli.mjs', format: 'es' } },
  },
  ssr: { noExternal: true },
});
