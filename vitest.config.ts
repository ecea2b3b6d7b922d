import { defineConfig } from 'vitest/config';

// Two projects: fast unit tests (parallel) and end-to-end tests in real Chromium, which run one
// file at a time (2 cores; each file launches its own browser).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          environment: 'node',
          setupFiles: ['test/setup/fast-check.ts', 'test/setup/event-list.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Stops the run with one line (how to install Chromium) before any file launches it.
          globalSetup: ['test/setup/chromium.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
