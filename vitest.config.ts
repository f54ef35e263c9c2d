import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

/**
 * The API files that run longest, longest first (PostgreSQL, CI at 8d0343c under load: the bad input
 * to the other routes 313 s, rollups 140, catalog 125, renewals 118, money 106, reports 87, main 75
 * (now on PGlite only), the permission matrix 73). Without a record of earlier runs (a fresh clone) Vitest starts the
 * largest files first, and the bad input's files, a few lines each, came last: the run ended on
 * one of them with the other worker idle. Started first, the short files fill in beside them.
 */
const LONGEST_FIRST = [
  'apps/api/src/bad-input.int.test.ts',
  'apps/api/src/modules/reports/reports.rollups.int.test.ts',
  'apps/api/src/bad-input-catalog.int.test.ts',
  'apps/api/src/modules/billing/billing-renewals.int.test.ts',
  'apps/api/src/bad-input-money.int.test.ts',
  'apps/api/src/bad-input-reports.int.test.ts',
  'apps/api/src/main.int.test.ts',
  'apps/api/src/permission-matrix.int.test.ts',
  'apps/api/src/bad-input-time.int.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // A stable sort: the files not listed keep Vitest's order after the listed ones.
    return sorted.toSorted((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
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
