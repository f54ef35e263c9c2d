import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, createTestApp, type SignedUp, signUp, type TestApp } from '../../../test/harness.js';
import { type Inbox, recipients, startInbox } from '../../../test/smtp.js';
import { membersRepository } from '../members/members.repository.js';

/**
 * Approval reminders over real SMTP: a member whose ended week has time and no submission is
 * reminded once; approvers of a period pending for a day are reminded once each; a workspace
 * without the approvals feature gets nothing.
 */
let inbox: Inbox;
let t: TestApp;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url, JOBS_ENABLED: 'false' });
  call = caller(t.app);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

/** The reminders a person got (a submission's own notice to its approvers is not one: approvals.notifications test). */
const to = (person: SignedUp) =>
  inbox.messages.filter(
    (m) => recipients(m).includes(person.email.toLowerCase()) && !/ for approval \(/.test(m.subject ?? ''),
  );
const REMINDER = /waits for your approval$/;

async function workspace() {
  const owner = await signUp(t.app);
  const w = (path: string) => `/api/v1/workspaces/${owner.workspaceId}${path}`;
  const join = async (role: 'manager' | 'member') => {
    const user = await signUp(t.app);
    await membersRepository.add(t.db, { workspaceId: owner.workspaceId, userId: user.userId, role });
    return user;
  };
  const manager = await join('manager');
  const member = await join('member');
  const idle = await join('member');
  const group = (await call('POST', w('/groups'), owner.cookie, { name: 'Crew' })).json();
  for (const u of [manager, member]) await call('PUT', w(`/groups/${group.id}/members/${u.userId}`), owner.cookie);
  return { owner, manager, member, idle, w };
}

describe('approval reminders', () => {
  it('remind a member of an ended week with time and no submission, once, and the approvers of a pending week, once each', async () => {
    const { owner, manager, member, idle, w } = await workspace();
    // Wednesday 2026-11-18: the week before (9 to 15 Nov) has ended.
    const now = new Date('2026-11-18T09:00:00Z');
    const entry = await call('POST', w('/time-entries'), member.cookie, {
      start: '2026-11-10T09:00:00Z',
      end: '2026-11-10T12:00:00Z',
    });
    expect(entry.statusCode).toBe(201);
    const { approvalReminders, jobs } = t.app.services;

    // Two passes at once (two processes): one e-mail.
    await Promise.all([approvalReminders.remind(now), approvalReminders.remind(now)]);
    await jobs.drain();
    const mail = await inbox.waitFor(member.email);
    expect(mail.subject).toBe('Submit your time for 2026-11-09 – 2026-11-15');
    expect(mail.text).toContain('/homepage/timesheet');
    expect(to(member)).toHaveLength(1);
    // Nobody who tracked nothing is reminded.
    expect(to(idle)).toHaveLength(0);

    // Submitted (the real clock: after the week), then pending for more than a day.
    const submitted = await call('POST', w('/approvals'), member.cookie, { day: '2026-11-10' });
    expect(submitted.statusCode).toBe(201);
    const later = new Date(Date.now() + 25 * 3_600_000);
    await approvalReminders.remind(later);
    await approvalReminders.remind(later);
    await jobs.drain();
    const toManager = await inbox.waitFor(manager.email, 5000, REMINDER);
    expect(toManager.subject).toMatch(/waits for your approval$/);
    expect(toManager.text).toContain('2026-11-09 to 2026-11-15 (3:00:00 tracked)');
    expect(toManager.text).toContain('/homepage/approvals');
    await inbox.waitFor(owner.email, 5000, REMINDER);
    expect(to(manager)).toHaveLength(1);
    expect(to(owner)).toHaveLength(1);
    // The member, submitted now, hears nothing more.
    expect(to(member)).toHaveLength(1);
  });

  it('send nothing for a workspace without approvals (Free after its trial), and only to admins when admins approve', async () => {
    const free = await workspace();
    await t.db
      .updateTable('workspaces')
      .set({ plan: 'free', trial_ends_at: new Date('2026-01-01') })
      .where('id', '=', free.owner.workspaceId)
      .execute();
    await t.db
      .insertInto('time_entries')
      .values({
        id: crypto.randomUUID(),
        workspace_id: free.owner.workspaceId,
        user_id: free.member.userId,
        start_at: new Date('2026-11-10T09:00:00Z'),
        end_at: new Date('2026-11-10T10:00:00Z'),
        duration_seconds: 3600,
        created_by_user_id: free.member.userId,
      })
      .execute();
    await t.app.services.approvalReminders.remind(new Date('2026-11-18T09:00:00Z'));
    await t.app.services.jobs.drain();
    expect(to(free.member)).toHaveLength(0);

    const strict = await workspace();
    await call('PUT', strict.w('/approvals/settings'), strict.owner.cookie, {
      period: 'week',
      approverRule: 'admins_only',
      lockDate: null,
    });
    await call('POST', strict.w('/time-entries'), strict.member.cookie, {
      start: '2026-11-10T09:00:00Z',
      end: '2026-11-10T10:00:00Z',
    });
    expect((await call('POST', strict.w('/approvals'), strict.member.cookie, { day: '2026-11-10' })).statusCode).toBe(
      201,
    );
    await t.app.services.approvalReminders.remind(new Date(Date.now() + 25 * 3_600_000));
    await t.app.services.jobs.drain();
    await inbox.waitFor(strict.owner.email, 5000, REMINDER);
    expect(to(strict.manager)).toHaveLength(0);
  });
});
