import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          env: { TZ: 'UTC' },
          // Sized for a loaded machine (load 8 on 2 cores runs a test ~5x slower): tests are bounded
          // by their case counts, never by wall time (issue 31).
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'int',
          include: ['apps/api/src/**/*.int.test.ts'],
          env: { TZ: 'UTC' },
          // Sized for a loaded machine: at load 15 on 2 cores, migrating up, down and up on PGlite or
          // starting a server of its own took a test past 30 s (issue 31).
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
    ],
  },
});
