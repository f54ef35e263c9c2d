import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { type Inbox, startInbox } from '../../test/smtp.js';
import { deliverMailJob } from './mail.js';

let inbox: Inbox;
let t: TestApp;
let at = new Date('2026-11-24T09:00:00Z').getTime();

beforeAll(async () => {
  inbox = await startInbox({ refuseFirst: 2 });
  // No polling loop: the test runs due jobs itself, on its own clock.
  t = await createTestApp({ SMTP_URL: inbox.url, JOBS_ENABLED: 'false' }, { now: () => new Date(at) });
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

describe('mail delivery through the job runner', () => {
  it('keeps a message the SMTP server refuses and delivers it on a later attempt', async () => {
    const { mailer, jobs } = t.app.services;
    await mailer.send({ to: 'ada@example.com', subject: 'Hello', text: 'Second time lucky' });
    const outbox = () =>
      t.db
        .selectFrom('outbox')
        .select(['sent_at', 'error'])
        .where('to_address', '=', 'ada@example.com')
        .executeTakeFirstOrThrow();

    await mailer.flush();
    expect(inbox.messages).toHaveLength(0);
    expect(await outbox()).toMatchObject({ sent_at: null, error: expect.stringMatching(/451/) });
    const [queued] = await jobs.list({ name: deliverMailJob.name });
    expect(queued).toMatchObject({ state: 'queued', attempts: 1 });

    // Not before its backoff: 30 s, then 60 s.
    await mailer.flush();
    expect(inbox.messages).toHaveLength(0);
    at += 30_000;
    await mailer.flush();
    expect(inbox.messages).toHaveLength(0);
    at += 60_000;
    await mailer.flush();

    const mail = await inbox.waitFor('ada@example.com');
    expect(mail.subject).toBe('Hello');
    expect(mail.text?.trim()).toBe('Second time lucky');
    expect(await outbox()).toMatchObject({ sent_at: expect.any(Date), error: null });
    expect(await jobs.list({ name: deliverMailJob.name })).toMatchObject([{ state: 'done', attempts: 3 }]);
  });

  it('queues no delivery when the transaction that sent the mail rolls back', async () => {
    const { mailer } = t.app.services;
    await expect(
      t.db.transaction().execute(async (trx) => {
        await mailer.send({ to: 'grace@example.com', subject: 'Never', text: 'sent' }, { db: trx });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await mailer.flush();
    const rows = await t.db.selectFrom('outbox').select('id').where('to_address', '=', 'grace@example.com').execute();
    expect(rows).toEqual([]);
    expect(inbox.messages.some((m) => m.subject === 'Never')).toBe(false);
  });
});
