import { approvalMessages } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp } from '../../../test/harness.js';
import { workspacesRepository } from '../workspaces/workspaces.repository.js';

/**
 * Approvals and locks (issue 17): submitting, approving, rejecting, withdrawing, by each role;
 * the locks on every way of writing time (entries, bulk, Undo, timer, imports); the lock date;
 * and two approvers deciding at once.
 */
const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

// A past week, Monday 2026-11-09 to Sunday 2026-11-15, and the week after it.
const WEEK = { start: '2026-11-09', end: '2026-11-15' };
const at = (day: string, time = '10:00') => `${day}T${time}:00.000Z`;

interface Team {
  owner: SignedUp;
  admin: SignedUp;
  manager: SignedUp;
  member: SignedUp;
  /** A member outside the manager's group. */
  other: SignedUp;
  w: (path?: string) => string;
}

async function makeTeam(): Promise<Team> {
  const owner = await signUp(ctx.t.app);
  const ws = owner.workspaceId;
  const add = async (role: 'admin' | 'manager' | 'member') => {
    const user = await signUp(ctx.t.app);
    await workspacesRepository.addMember(ctx.t.db, { workspaceId: ws, userId: user.userId, role });
    // Their own workspace's cookie works in this one too: a session is per user.
    return user;
  };
  const [admin, manager, member, other] = [
    await add('admin'),
    await add('manager'),
    await add('member'),
    await add('member'),
  ];
  const w = (path = '') => `/api/v1/workspaces/${ws}${path}`;
  const group = (await call('POST', w('/groups'), owner.cookie, { name: 'Design' })).json();
  for (const u of [manager, member]) {
    expect((await call('PUT', w(`/groups/${group.id}/members/${u.userId}`), owner.cookie)).statusCode).toBe(200);
  }
  return { owner, admin, manager, member, other, w };
}

async function entry(t: Team, who: SignedUp, day: string, time = '10:00', userId?: string) {
  const response = await call('POST', t.w('/time-entries'), who.cookie, {
    start: at(day, time),
    end: at(day, `${String(Number(time.slice(0, 2)) + 1).padStart(2, '0')}${time.slice(2)}`),
    note: 'Work',
    ...(userId ? { userId } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function submit(t: Team, who: SignedUp, day = WEEK.start) {
  const response = await call('POST', t.w('/approvals'), who.cookie, { day });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const expectLocked = (
  response: { statusCode: number; body: string; json: () => { error: { code: string; message: string } } },
  message: string,
) => {
  expect(response.statusCode, response.body).toBe(409);
  expect(response.json().error).toEqual({ code: 'time_locked', message });
};

const SUBMITTED = approvalMessages.submittedLock(WEEK.start, WEEK.end);
const APPROVED = approvalMessages.approvedLock(WEEK.start, WEEK.end);

let t: Team;
beforeAll(async () => {
  t = await makeTeam();
});

describe('a period goes through approval', () => {
  it('submitted, rejected with a comment, fixed, resubmitted, approved, withdrawn', async () => {
    const team = t;
    const id = await entry(team, team.member, '2026-11-10');
    const submitted = await submit(team, team.member, '2026-11-12');
    expect(submitted).toMatchObject({
      userId: team.member.userId,
      periodStart: WEEK.start,
      periodEnd: WEEK.end,
      status: 'submitted',
      trackedSeconds: 3600,
      decidedAt: null,
    });

    // The member's own time is closed; the timesheet says so.
    expectLocked(await call('PATCH', team.w(`/time-entries/${id}`), team.member.cookie, { note: 'More' }), SUBMITTED);
    const state = (await call('GET', team.w(`/approvals/period?day=2026-11-13`), team.member.cookie)).json();
    expect(state).toMatchObject({ periodStart: WEEK.start, locked: true, lockReason: SUBMITTED });
    expect(state.approval.status).toBe('submitted');

    // Pending for the manager (their group) and admins; not for a member.
    const pending = (await call('GET', team.w('/approvals?status=submitted'), team.manager.cookie)).json().items;
    expect(pending.map((a: { id: string }) => a.id)).toContain(submitted.id);
    expect((await call('GET', team.w('/approvals'), team.member.cookie)).statusCode).toBe(403);

    // A rejection needs a comment; then the period opens again.
    const bare = await call('POST', team.w(`/approvals/${submitted.id}/reject`), team.manager.cookie, { comment: '' });
    expect(bare.statusCode).toBe(422);
    const rejected = await call('POST', team.w(`/approvals/${submitted.id}/reject`), team.manager.cookie, {
      comment: 'Tuesday afternoon is missing',
    });
    expect(rejected.json()).toMatchObject({ status: 'rejected', comment: 'Tuesday afternoon is missing' });
    expect(rejected.json().decidedByName).toBeTypeOf('string');
    await entry(team, team.member, '2026-11-10', '14:00');

    const again = await submit(team, team.member);
    expect(again.trackedSeconds).toBe(7200);
    const approved = await call('POST', team.w(`/approvals/${again.id}/approve`), team.manager.cookie, {});
    expect(approved.json().status).toBe('approved');

    // Approved time is locked for everyone, the owner too, until the approval is withdrawn.
    for (const who of [team.member, team.manager, team.admin, team.owner]) {
      expectLocked(await call('DELETE', team.w(`/time-entries/${id}`), who.cookie), APPROVED);
    }
    expect(
      (
        await call('GET', team.w(`/approvals/period?day=2026-11-09&userId=${team.member.userId}`), team.owner.cookie)
      ).json().locked,
    ).toBe(true);
    // The member may not take an approval back; an approver may.
    const own = await call('POST', team.w(`/approvals/${again.id}/withdraw`), team.member.cookie);
    expect(own.statusCode).toBe(409);
    const withdrawn = await call('POST', team.w(`/approvals/${again.id}/withdraw`), team.admin.cookie);
    expect(withdrawn.json().status).toBe('withdrawn');
    expect((await call('DELETE', team.w(`/time-entries/${id}`), team.member.cookie)).statusCode).toBe(204);

    const actions = await ctx.t.db
      .selectFrom('audit_log')
      .select('action')
      .where('workspace_id', '=', team.owner.workspaceId)
      .where('action', 'like', 'approval.%')
      .orderBy('created_at')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'approval.submitted',
      'approval.rejected',
      'approval.submitted',
      'approval.approved',
      'approval.withdrawn',
    ]);
  });

  it('lets a member withdraw before a decision, and refuses a second submission of a live period', async () => {
    const week = '2026-10-05';
    const first = await submit(t, t.other, week);
    const twice = await call('POST', t.w('/approvals'), t.other.cookie, { day: '2026-10-07' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toEqual({ code: 'period_already_submitted', message: approvalMessages.alreadyLive });
    expect((await call('POST', t.w(`/approvals/${first.id}/withdraw`), t.other.cookie)).json().status).toBe(
      'withdrawn',
    );
    const late = await call('POST', t.w(`/approvals/${first.id}/approve`), t.admin.cookie, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toEqual({
      code: 'approval_decided',
      message: approvalMessages.notSubmitted('withdrawn'),
    });
    await submit(t, t.other, week);
  });

  it('refuses a period that has not begun', async () => {
    const response = await call('POST', t.w('/approvals'), t.member.cookie, { day: '2099-01-05' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'period_not_begun', message: approvalMessages.futurePeriod });
  });
});

describe('who approves', () => {
  it('is the member’s group manager or an admin; not a manager of another group, nor with admins_only', async () => {
    const team = t;
    const theirs = await submit(team, team.other, '2026-09-07');
    const outside = await call('POST', team.w(`/approvals/${theirs.id}/approve`), team.manager.cookie, {});
    // Outside the manager's reach the request does not exist for them.
    expect(outside.statusCode).toBe(404);
    const memberTries = await call('POST', team.w(`/approvals/${theirs.id}/approve`), team.member.cookie, {});
    expect(memberTries.statusCode).toBe(403);

    const mine = await submit(team, team.member, '2026-09-07');
    const settings = { period: 'week', approverRule: 'admins_only', lockDate: null };
    expect((await call('PUT', team.w('/approvals/settings'), team.manager.cookie, settings)).statusCode).toBe(403);
    expect((await call('PUT', team.w('/approvals/settings'), team.admin.cookie, settings)).statusCode).toBe(200);
    const refused = await call('POST', team.w(`/approvals/${mine.id}/approve`), team.manager.cookie, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(approvalMessages.notApprover);
    expect((await call('GET', team.w('/approvals'), team.manager.cookie)).json().items).toEqual([]);
    expect((await call('POST', team.w(`/approvals/${mine.id}/approve`), team.admin.cookie, {})).statusCode).toBe(200);
    await call('PUT', team.w('/approvals/settings'), team.admin.cookie, {
      ...settings,
      approverRule: 'managers_and_admins',
    });
  });

  it('answers 404 for another workspace’s approval', async () => {
    const stranger = await signUp(ctx.t.app);
    const theirs = (
      await call('POST', `/api/v1/workspaces/${stranger.workspaceId}/approvals`, stranger.cookie, { day: '2026-08-03' })
    ).json();
    expect((await call('POST', t.w(`/approvals/${theirs.id}/approve`), t.owner.cookie, {})).statusCode).toBe(404);
    expect((await call('POST', t.w(`/approvals/${theirs.id}/withdraw`), t.owner.cookie)).statusCode).toBe(404);
  });

  it('lets one of two approvers deciding at once win; the other gets a clear 409', async () => {
    const request = await submit(t, t.member, '2026-08-03');
    const [a, b] = await Promise.all([
      call('POST', t.w(`/approvals/${request.id}/approve`), t.manager.cookie, { comment: 'Fine' }),
      call('POST', t.w(`/approvals/${request.id}/reject`), t.admin.cookie, { comment: 'Missing Friday' }),
    ]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    const winner = a.statusCode === 200 ? a : b;
    expect(loser.json().error.code).toBe('approval_decided');
    expect(loser.json().error.message).toBe(approvalMessages.notSubmitted(winner.json().status));
    const stored = await ctx.t.db
      .selectFrom('approvals')
      .select('status')
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe(winner.json().status);
  });
});

describe('the locks hold on every way of writing time', () => {
  it('a submitted period: the member cannot create, change, bulk-edit, delete or undo; the approver can, audited', async () => {
    const team = await makeTeam();
    const day = '2026-07-07';
    const id = await entry(team, team.member, day);
    const gone = await entry(team, team.member, day, '12:00');
    expect((await call('DELETE', team.w(`/time-entries/${gone}`), team.member.cookie)).statusCode).toBe(204);
    await submit(team, team.member, day);
    const message = approvalMessages.submittedLock('2026-07-06', '2026-07-12');
    const m = team.member.cookie;
    expectLocked(
      await call('POST', team.w('/time-entries'), m, { start: at(day, '15:00'), end: at(day, '16:00') }),
      message,
    );
    expectLocked(await call('PATCH', team.w(`/time-entries/${id}`), m, { note: 'x' }), message);
    // Moving an open day's entry into the period is refused too.
    const outside = await entry(team, team.member, '2026-07-14');
    expectLocked(await call('PATCH', team.w(`/time-entries/${outside}`), m, { start: at(day, '18:00') }), message);
    expectLocked(
      await call('POST', team.w('/time-entries/bulk-update'), m, { ids: [id, outside], set: { billable: true } }),
      message,
    );
    expectLocked(await call('POST', team.w('/time-entries/bulk-delete'), m, { ids: [outside, id] }), message);
    expectLocked(await call('DELETE', team.w(`/time-entries/${id}`), m), message);
    expectLocked(await call('POST', team.w('/time-entries/restore'), m, { ids: [gone] }), message);
    // Nothing changed.
    const row = await ctx.t.db
      .selectFrom('time_entries')
      .select(['note', 'billable'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ note: 'Work', billable: false });

    // The approver edits; the event audit names them.
    const edit = await call('PATCH', team.w(`/time-entries/${id}`), team.manager.cookie, { note: 'Fixed by manager' });
    expect(edit.statusCode, edit.body).toBe(200);
    const audited = await ctx.t.db
      .selectFrom('audit_log')
      .select('actor_user_id')
      .where('action', '=', 'time_entry.updated')
      .where('workspace_id', '=', team.owner.workspaceId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(audited.actor_user_id).toBe(team.manager.userId);
  });

  it('imports: a file cannot put time into an approved period', async () => {
    const team = await makeTeam();
    const day = '2026-06-02';
    const request = await submit(team, team.member, day);
    await call('POST', team.w(`/approvals/${request.id}/approve`), team.admin.cookie, {});
    const { timeEntries } = ctx.t.app.services;
    const values = {
      id: crypto.randomUUID(),
      user_id: team.member.userId,
      project_id: null,
      task_id: null,
      note: 'Imported',
      billable: false,
      start_at: new Date(at(day)),
      end_at: new Date(at(day, '11:00')),
      duration_seconds: 3600,
      created_by_user_id: team.owner.userId,
      tagIds: [],
    };
    const writer = { workspaceId: team.owner.workspaceId, actorUserId: team.owner.userId };
    await expect(
      ctx.t.db.transaction().execute((tx) => timeEntries.importEntries(tx, writer, [values])),
    ).rejects.toMatchObject({
      code: 'time_locked',
      message: approvalMessages.approvedLock('2026-06-01', '2026-06-07'),
    });
    // A day outside the period imports.
    const later = {
      ...values,
      id: crypto.randomUUID(),
      start_at: new Date(at('2026-06-08')),
      end_at: new Date(at('2026-06-08', '11:00')),
    };
    expect(await ctx.t.db.transaction().execute((tx) => timeEntries.importEntries(tx, writer, [later]))).toBe(1);
  });

  it('the timer: no start in a submitted week, and no submission while a timer runs in it', async () => {
    const team = await makeTeam();
    const today = new Date().toISOString().slice(0, 10);
    expect((await call('POST', team.w('/timer/start'), team.member.cookie, { note: 'Now' })).statusCode).toBe(201);
    const refused = await call('POST', team.w('/approvals'), team.member.cookie, { day: today });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('timer_running');
    expect((await call('POST', team.w('/timer/stop'), team.member.cookie, {})).statusCode).toBe(200);
    const period = await submit(team, team.member, today);
    const start = await call('POST', team.w('/timer/start'), team.member.cookie, { note: 'Again' });
    expectLocked(start, approvalMessages.submittedLock(period.periodStart, period.periodEnd));
  });

  it('the lock date: before it only owners and admins change time', async () => {
    const team = await makeTeam();
    const id = await entry(team, team.member, '2026-05-04');
    const settings = { period: 'month', approverRule: 'managers_and_admins', lockDate: '2026-05-05' };
    expect((await call('PUT', team.w('/approvals/settings'), team.admin.cookie, settings)).json()).toEqual(settings);
    const message = approvalMessages.lockDate('2026-05-05');
    expectLocked(await call('PATCH', team.w(`/time-entries/${id}`), team.member.cookie, { note: 'x' }), message);
    expectLocked(await call('PATCH', team.w(`/time-entries/${id}`), team.manager.cookie, { note: 'x' }), message);
    expectLocked(
      await call('POST', team.w('/time-entries'), team.member.cookie, {
        start: at('2026-05-04', '15:00'),
        end: at('2026-05-04', '16:00'),
      }),
      message,
    );
    expect(
      (await call('PATCH', team.w(`/time-entries/${id}`), team.admin.cookie, { note: 'Payroll fix' })).statusCode,
    ).toBe(200);
    expect(
      (
        await call('POST', team.w('/time-entries'), team.member.cookie, {
          start: at('2026-05-05'),
          end: at('2026-05-05', '11:00'),
        })
      ).statusCode,
    ).toBe(201);
    // The timesheet tells the member; an admin sees the period open.
    expect((await call('GET', team.w('/approvals/period?day=2026-05-04'), team.member.cookie)).json()).toMatchObject({
      periodStart: '2026-05-01',
      periodEnd: '2026-05-31',
      locked: true,
      lockReason: message,
    });
    expect((await call('GET', team.w('/approvals/period?day=2026-05-04'), team.admin.cookie)).json().locked).toBe(
      false,
    );
  });

  it('an entry belongs to the day it starts in its owner’s time zone', async () => {
    const team = await makeTeam();
    await ctx.t.db
      .updateTable('users')
      .set({ time_zone: 'America/New_York' })
      .where('id', '=', team.member.userId)
      .execute();
    // Monday 2026-04-06 02:00 UTC is Sunday evening in New York: the week before.
    const sunday = await entry(team, team.member, '2026-04-06', '02:00');
    const monday = await entry(team, team.member, '2026-04-06', '15:00');
    const request = await submit(team, team.member, '2026-04-06');
    expect(request).toMatchObject({ periodStart: '2026-04-06', trackedSeconds: 3600 });
    expect(
      (await call('PATCH', team.w(`/time-entries/${sunday}`), team.member.cookie, { note: 'ok' })).statusCode,
    ).toBe(200);
    expect(
      (await call('PATCH', team.w(`/time-entries/${monday}`), team.member.cookie, { note: 'no' })).statusCode,
    ).toBe(409);
  });
});
