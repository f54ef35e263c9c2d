import type { NotificationView } from '@sundial/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, createTestApp, joinWorkspace, type SignedUp, signUp, type TestApp } from '../../../test/harness.js';
import { type Inbox, recipients, startInbox } from '../../../test/smtp.js';

/**
 * Approvals tell people, over real SMTP and in the bell: a submission its approvers (the member's
 * group manager, owners and admins; nobody else), a rejection with its comment and an approval the
 * member; each with a link to the week. A member's notification settings hold: a kind turned off
 * by e-mail sends none, off in the bell shows none.
 */
let inbox: Inbox;
let t: TestApp;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url, JOBS_ENABLED: 'false', PUBLIC_URL: 'https://sundial.test' });
  call = caller(t.app);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

const mailsTo = (who: SignedUp) => inbox.messages.filter((m) => recipients(m).includes(who.email.toLowerCase()));
/** Sends what the writes queued: mail is a job on the outbox. */
const send = () => t.app.services.jobs.drain({ schedules: false });

let owner: SignedUp;
let manager: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let w: (path: string) => string;

beforeAll(async () => {
  owner = await signUp(t.app);
  w = (path: string) => `/api/v1/workspaces/${owner.workspaceId}${path}`;
  manager = await joinWorkspace(t, owner.workspaceId, 'manager');
  member = await joinWorkspace(t, owner.workspaceId, 'member');
  // A member outside the manager's group: approves nothing, hears nothing.
  outsider = await joinWorkspace(t, owner.workspaceId, 'member');
  const group = (await call('POST', w('/groups'), owner.cookie, { name: 'Crew' })).json();
  for (const u of [manager, member]) await call('PUT', w(`/groups/${group.id}/members/${u.userId}`), owner.cookie);
});

async function bell(who: SignedUp): Promise<NotificationView[]> {
  const response = await call('GET', w('/notifications'), who.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
}

async function submitWeek(day: string) {
  const entry = await call('POST', w('/time-entries'), member.cookie, {
    start: `${day}T09:00:00Z`,
    end: `${day}T11:30:00Z`,
  });
  expect(entry.statusCode, entry.body).toBe(201);
  const submitted = await call('POST', w('/approvals'), member.cookie, { day });
  expect(submitted.statusCode, submitted.body).toBe(201);
  return submitted.json().id as string;
}

describe('approval notifications', () => {
  it('tell the approvers of a submission, and the member of a rejection with its comment and of an approval', async () => {
    const id = await submitWeek('2026-11-10');
    await send();
    const weekLink = `/homepage/timesheet?day=2026-11-09&user=${member.userId}`;
    for (const approver of [manager, owner]) {
      const mail = await inbox.waitFor(approver.email);
      expect(mail.subject).toMatch(/ submitted 2026-11-09 – 2026-11-15 for approval \(/);
      expect(mail.text).toContain(`https://sundial.test${weekLink}`);
      expect(mail.text).toContain('2:30:00 tracked');
      const [notice] = await bell(approver);
      expect(notice).toMatchObject({ kind: 'approval_submitted', link: weekLink, read: false });
    }
    // The member who submitted and a member of no group of the manager's hear nothing.
    for (const nobody of [member, outsider]) {
      expect(mailsTo(nobody)).toHaveLength(0);
      expect(await bell(nobody)).toEqual([]);
    }

    const rejected = await call('POST', w(`/approvals/${id}/reject`), manager.cookie, {
      comment: 'Tuesday afternoon is missing',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    await send();
    const rejection = await inbox.waitFor(member.email);
    expect(rejection.subject).toMatch(/^Your time from 2026-11-09 to 2026-11-15 was rejected/);
    expect(rejection.text).toContain('“Tuesday afternoon is missing”');
    expect(rejection.text).toContain('https://sundial.test/homepage/timesheet?day=2026-11-09');
    expect((await bell(member))[0]).toMatchObject({
      kind: 'approval_rejected',
      link: '/homepage/timesheet?day=2026-11-09',
    });
    expect((await bell(member))[0]?.body).toContain('Tuesday afternoon is missing');

    const again = (await call('POST', w('/approvals'), member.cookie, { day: '2026-11-10' })).json();
    expect((await call('POST', w(`/approvals/${again.id}/approve`), owner.cookie, {})).statusCode).toBe(200);
    await send();
    const approval = await inbox.waitFor(member.email, 5000, /was approved/);
    expect(approval.subject).toMatch(/^Your time from 2026-11-09 to 2026-11-15 was approved/);
    expect((await bell(member))[0]).toMatchObject({ kind: 'approval_approved' });
    expect(mailsTo(outsider)).toHaveLength(0);
  });

  it('keep to each person’s settings: a kind turned off by e-mail sends none, off in the bell shows none', async () => {
    const defaults = await call('GET', w('/notifications/settings'), owner.cookie);
    expect(defaults.json().items).toContainEqual({ kind: 'approval_submitted', inApp: true, email: true });
    const bad = await call('PUT', w('/notifications/settings'), owner.cookie, {
      items: [{ kind: 'weather', inApp: true, email: true }],
    });
    expect(bad.statusCode).toBe(422);

    const saved = await call('PUT', w('/notifications/settings'), owner.cookie, {
      items: [{ kind: 'approval_submitted', inApp: true, email: false }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().items).toContainEqual({ kind: 'approval_submitted', inApp: true, email: false });
    // The member keeps their e-mail of a rejection but takes it out of the bell.
    await call('PUT', w('/notifications/settings'), member.cookie, {
      items: [{ kind: 'approval_rejected', inApp: false, email: true }],
    });

    const ownerMails = mailsTo(owner).length;
    const ownerBell = (await bell(owner)).length;
    const memberBell = (await bell(member)).length;
    const id = await submitWeek('2026-11-17');
    await send();
    // The manager's e-mail is sent in the same job run as the owner's would have been.
    await inbox.waitFor(manager.email, 5000, /2026-11-16 – 2026-11-22/);
    expect(mailsTo(owner)).toHaveLength(ownerMails);
    expect(await bell(owner)).toHaveLength(ownerBell + 1);

    await call('POST', w(`/approvals/${id}/reject`), owner.cookie, { comment: 'Wrong project' });
    await send();
    expect((await inbox.waitFor(member.email, 5000, /was rejected/)).text).toContain('Wrong project');
    expect(await bell(member)).toHaveLength(memberBell);
  });
});

describe('approvers with custom roles', () => {
  it('are told by the permissions in force: a reviewer role is, an admin-based role without review is not', async () => {
    const boss = await signUp(t.app);
    const at = (path: string) => `/api/v1/workspaces/${boss.workspaceId}${path}`;
    const role = async (body: object) => {
      const created = await call('POST', at('/roles'), boss.cookie, body);
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id as string;
    };
    const give = async (who: SignedUp, customRoleId: string) => {
      const given = await call('PUT', at(`/members/${who.userId}/custom-role`), boss.cookie, { customRoleId });
      expect(given.statusCode, given.body).toBe(204);
    };
    // An admin whose role reviews nothing, and a member whose role reviews everyone's time.
    const finance = await joinWorkspace(t, boss.workspaceId, 'admin');
    await give(
      finance,
      await role({ name: 'Finance', baseRole: 'admin', permissions: ['workspace:view', 'rates:manage'] }),
    );
    const reviewer = await joinWorkspace(t, boss.workspaceId, 'member');
    await give(
      reviewer,
      await role({
        name: 'Reviewer',
        baseRole: 'member',
        permissions: ['time:track', 'time:view_others', 'time:edit_others', 'approvals:submit', 'approvals:review'],
      }),
    );
    const worker = await joinWorkspace(t, boss.workspaceId, 'member');
    const entry = await call('POST', at('/time-entries'), worker.cookie, {
      start: '2026-11-10T09:00:00Z',
      end: '2026-11-10T10:00:00Z',
    });
    expect(entry.statusCode, entry.body).toBe(201);
    expect((await call('POST', at('/approvals'), worker.cookie, { day: '2026-11-10' })).statusCode).toBe(201);
    await send();
    for (const approver of [boss, reviewer]) {
      await inbox.waitFor(approver.email);
      const notices = (await call('GET', at('/notifications'), approver.cookie)).json().items;
      expect(notices.map((n: NotificationView) => n.kind)).toEqual(['approval_submitted']);
    }
    expect(mailsTo(finance)).toHaveLength(0);
    expect((await call('GET', at('/notifications'), finance.cookie)).json().items).toEqual([]);
  });
});
