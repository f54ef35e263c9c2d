import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/harness.js';
import { hashSecret } from './ids.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
let t: TestApp;
let offset = 0;
const ago = (ms: number) => new Date(Date.now() - ms);
const ahead = (ms: number) => new Date(Date.now() + ms);

beforeAll(async () => {
  // The runner's clock runs `offset` ahead of the real one; no polling loop, the test drains.
  t = await createTestApp({ JOBS_ENABLED: 'false' }, { now: () => new Date(Date.now() + offset) });
});
afterAll(() => t?.close());

describe('scheduled purges', () => {
  it('deletes what has expired at the next slot of each schedule and keeps what is live', async () => {
    const { db, app } = t;
    const user = await signUp(app);
    // The first tick records each schedule's next slot; nothing runs yet.
    await app.services.jobs.drain();

    await db
      .insertInto('sessions')
      .values([
        {
          id_hash: hashSecret('expired'),
          user_id: user.userId,
          user_agent: null,
          ip: null,
          idle_expires_at: ago(HOUR_MS),
          expires_at: ahead(HOUR_MS),
        },
        {
          id_hash: hashSecret('live'),
          user_id: user.userId,
          user_agent: null,
          ip: null,
          idle_expires_at: ahead(HOUR_MS),
          expires_at: ahead(HOUR_MS),
        },
      ])
      .execute();
    await db
      .insertInto('login_attempts')
      .values([
        { email: user.email, ip: '203.0.113.9', success: false, created_at: ago(3 * DAY_MS) },
        { email: user.email, ip: '203.0.113.9', success: false, created_at: ago(HOUR_MS) },
      ])
      .execute();
    await db
      .insertInto('password_resets')
      .values([
        { token_hash: hashSecret('old-reset'), user_id: user.userId, expires_at: ago(3 * DAY_MS) },
        { token_hash: hashSecret('new-reset'), user_id: user.userId, expires_at: ahead(HOUR_MS) },
      ])
      .execute();
    await db
      .insertInto('known_devices')
      .values([
        { token_hash: hashSecret('old-device'), user_id: user.userId, expires_at: ago(DAY_MS) },
        { token_hash: hashSecret('device'), user_id: user.userId, expires_at: ahead(180 * DAY_MS) },
      ])
      .execute();
    await db
      .insertInto('outbox')
      .values([
        {
          id: '019ab000-0000-7000-8000-000000000001',
          to_address: 'a@example.com',
          subject: 'Old',
          text_body: 'x',
          html_body: null,
          created_at: ago(40 * DAY_MS),
        },
        {
          id: '019ab000-0000-7000-8000-000000000002',
          to_address: 'a@example.com',
          subject: 'New',
          text_body: 'x',
          html_body: null,
          created_at: ago(DAY_MS),
        },
      ])
      .execute();
    await db
      .insertInto('rate_limit_hits')
      .values([
        { bucket: 'test:ended', window_start: ago(2 * HOUR_MS), window_end: ago(HOUR_MS), hits: 3 },
        { bucket: 'test:open', window_start: ago(HOUR_MS), window_end: ahead(HOUR_MS), hits: 3 },
      ])
      .execute();

    // A day and an hour later every schedule (every 15 min, hourly, daily) has had a slot.
    offset = 25 * HOUR_MS;
    await app.services.jobs.drain();

    const sessions = await db.selectFrom('sessions').select('id_hash').where('user_id', '=', user.userId).execute();
    expect(sessions.map((s) => s.id_hash)).not.toContain(hashSecret('expired'));
    expect(sessions.map((s) => s.id_hash)).toContain(hashSecret('live'));
    expect(sessions).toHaveLength(2); // the sign-up's own session is live too
    const attempts = await db
      .selectFrom('login_attempts')
      .select('created_at')
      .where('email', '=', user.email)
      .execute();
    expect(attempts).toHaveLength(1);
    const resets = await db
      .selectFrom('password_resets')
      .select('token_hash')
      .where('user_id', '=', user.userId)
      .execute();
    expect(resets.map((r) => r.token_hash)).toEqual([hashSecret('new-reset')]);
    const devices = await db
      .selectFrom('known_devices')
      .select('token_hash')
      .where('user_id', '=', user.userId)
      .execute();
    expect(devices.map((d) => d.token_hash)).toEqual([hashSecret('device')]);
    const outbox = await db.selectFrom('outbox').select('subject').where('to_address', '=', 'a@example.com').execute();
    expect(outbox.map((m) => m.subject)).toEqual(['New']);
    const buckets = await db.selectFrom('rate_limit_hits').select('bucket').where('bucket', 'like', 'test:%').execute();
    expect(buckets.map((b) => b.bucket)).toEqual(['test:open']);

    const done = await app.services.jobs.list({ state: 'done' });
    expect(done.map((j) => j.name).sort()).toEqual([
      'api-keys.reminders',
      'approvals.reminders',
      'audit-log.prune',
      'audit-log.seal',
      'billing.renewals',
      'billing.trial-reminders',
      'calendars.refresh',
      'computer-time.prune',
      // Planner statistics by the hour where autovacuum does not run: PGlite only (decision 0016).
      ...(process.env.DATABASE_URL ? [] : ['db.analyze']),
      'exports.purge',
      'imports.purge',
      'jobs.purge',
      'outbox.purge',
      'rate-limits.purge',
      'report-schedules.tick',
      'reports.rebuild-rollups',
      'sessions.purge',
      'sign-in-records.purge',
      'sso.purge',
      'time-entries.prune',
      'webhooks.fan-out-all',
      'webhooks.purge',
    ]);
  });

  it('deletes finished jobs after a day and dead letters after 30 days', async () => {
    const { db, app } = t;
    const row = (id: string, state: 'done' | 'dead', finishedAt: Date) => ({
      id,
      name: 'test.old',
      payload: '{}',
      state,
      finished_at: finishedAt,
    });
    await db
      .insertInto('jobs')
      .values([
        row('019ab000-0000-7000-8000-0000000000a1', 'done', ago(2 * DAY_MS)),
        row('019ab000-0000-7000-8000-0000000000a2', 'done', ago(HOUR_MS)),
        row('019ab000-0000-7000-8000-0000000000a3', 'dead', ago(31 * DAY_MS)),
        row('019ab000-0000-7000-8000-0000000000a4', 'dead', ago(2 * DAY_MS)),
      ])
      .execute();
    await app.services.jobs.purgeFinished(new Date());
    const left = await db.selectFrom('jobs').select('id').where('name', '=', 'test.old').orderBy('id').execute();
    expect(left.map((j) => j.id)).toEqual([
      '019ab000-0000-7000-8000-0000000000a2',
      '019ab000-0000-7000-8000-0000000000a4',
    ]);
  });
});
