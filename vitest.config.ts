import { defineConfig } from 'vitest/config';

const intOptions = {
  env: { TZ: 'UTC' },
  // Sized for a loaded machine: at load 15 on 2 cores, migrating up, down and up on PGlite or
  // starting a server of its own took a test past 30 s (issue 31).
  testTimeout: 120_000,
  hookTimeout: 180_000,
  pool: 'forks' as const,
  // A worker imports the app once for all its files, not once a file (issue 31: imports were 313 s of
  // a 734 s PostgreSQL run). Each file still has its own database and app (test/harness.ts).
  isolate: false,
  globalSetup: ['apps/api/test/global-setup.ts'],
};

/**
 * What PGlite runs when PostgreSQL runs the whole API suite (CI, issue 31): the files that exercise
 * what differs between the two (the dialect and its worker thread, the one connection and the
 * heavy-work slot, LISTEN, cursors instead of COPY, migrations, the data folder, the job runner) and a
 * parity sample of every module's routes (the generated bad input at fewer cases, the figures). The
 * permission matrix runs on PostgreSQL only: who may do what is decided in the services, not the
 * database, and the bad input reaches every route on PGlite too (it was 60 s of the PGlite run).
 * Without DATABASE_URL, `int` runs everything on PGlite.
 */
export const PGLITE_SAMPLE = [
  'apps/api/src/app.int.test.ts',
  'apps/api/src/main.int.test.ts',
  'apps/api/src/db/*.int.test.ts',
  'apps/api/src/platform/{events,errors,idempotency,jobs,jobs-shared,purges,rate-limits}.int.test.ts',
  'apps/api/src/round-trips.int.test.ts',
  'apps/api/src/bad-input*.int.test.ts',
  'apps/api/src/modules/time-entries/*.int.test.ts',
  'apps/api/src/modules/exports/{exports,exports.copy,exports.stream,exports.slow-readers,exports.figures,exports.pglite-turns}.int.test.ts',
  'apps/api/src/modules/reports/{reports.rollups,reports.figures,reports.totals,reports.sources}.int.test.ts',
  'apps/api/src/modules/imports/imports-streaming.int.test.ts',
  'apps/api/src/modules/billing/billing.int.test.ts',
  'apps/api/src/modules/client-invoices/client-invoices.int.test.ts',
  'apps/api/src/modules/approvals/approvals.int.test.ts',
];

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
      { test: { name: 'int', include: ['apps/api/src/**/*.int.test.ts'], ...intOptions } },
      {
        test: {
          name: 'int-pglite',
          include: PGLITE_SAMPLE,
          ...intOptions,
          // The generated bad input as a parity sweep of every route: 200 cases a route run on PostgreSQL;
          // the rollups' random writes likewise (60 on PostgreSQL).
          env: { ...intOptions.env, BAD_INPUT_CASES: '25', ROLLUP_RANDOM_WRITES: '15' },
        },
      },
    ],
  },
});
