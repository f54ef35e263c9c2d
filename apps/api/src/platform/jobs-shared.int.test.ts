import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GENEROUS_LIMITS, openTestDb } from '../../test/harness.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDb } from '../db/connection.js';
import { defineJob } from './jobs.js';

const work = defineJob('test.work', z.object({ n: z.number().int() }));

/**
 * Two API processes on one PostgreSQL, each with its own connection pool and its own polling
 * worker: every job runs exactly once, and both take a share. PGlite is one process by nature.
 */
describe.skipIf(!process.env.DATABASE_URL)('jobs shared by two app instances on one PostgreSQL', () => {
  it('runs each of 50 jobs exactly once across both instances', async () => {
    const first = await openTestDb({ migrated: true });
    const second = openDb({ databaseUrl: first.url });
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://localhost:3000',
      WEB_DIST: '/nonexistent',
      JOBS_POLL_MS: '20',
      ...GENEROUS_LIMITS,
    });
    const runs: Array<{ instance: number; n: number }> = [];
    const apps: FastifyInstance[] = [];
    try {
      for (const [instance, db] of [first.db, second.db].entries()) {
        const app = await buildApp({ config, db, logger: false });
        app.services.jobs.register(work, async ({ n }) => {
          runs.push({ instance, n });
          // Long enough that the other instance's poll comes while this one is busy.
          await new Promise((resolve) => setTimeout(resolve, 15));
        });
        apps.push(app);
      }
      await Promise.all(apps.map((app) => app.ready()));
      await first.db.transaction().execute(async (trx) => {
        for (let n = 0; n < 50; n++) await apps[0]?.services.jobs.enqueue(trx, work, { n });
      });
      for (const app of apps) app.services.jobs.wake();

      const deadline = Date.now() + 30_000;
      while (runs.length < 50 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await Promise.all(apps.map((app) => app.services.jobs.stop()));

      expect(runs.map((r) => r.n).sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
      expect(new Set(runs.map((r) => r.instance))).toEqual(new Set([0, 1]));
      const done = await first.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', work.name)
        .where('state', '=', 'done')
        .where('attempts', '=', 1)
        .executeTakeFirstOrThrow();
      expect(Number(done.n)).toBe(50);
    } finally {
      for (const app of apps) await app.close();
      await second.close();
      await first.close();
    }
  });
});
