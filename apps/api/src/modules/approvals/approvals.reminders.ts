import {
  type ApprovalSettings,
  approvalPeriodOf,
  type BillingMode,
  dayKey,
  formatDuration,
  type PlanId,
  shiftDay,
  workspaceFeatures,
  workspaceHasFeature,
} from '@sundial/core';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import { approversAmong } from './approvals.approvers.js';
import {
  type ApprovalRow,
  approvalsRepository,
  type Member,
  type PeriodOwner,
  remindersRepository as repo,
} from './approvals.repository.js';

/** Hourly: each person's ended period unsubmitted, and approvals pending for a day, by e-mail. */
export const approvalRemindersJob = defineJob('approvals.reminders', z.object({}));

/** How long a submission waits before its approvers are reminded. */
export const PENDING_REMIND_AFTER_MS = 24 * 3_600_000;

export interface ReminderDeps {
  db: Db;
  jobs: JobRunner;
  mailer: Mailer;
  publicUrl: string;
  billing: BillingMode;
}

/**
 * Approval reminders (issue 17), on the platform's job runner: once a member's period has ended
 * with time tracked in it and nothing submitted, they get one e-mail about it; a period waiting for
 * a day gets one e-mail to each of its approvers (owners and admins, and the member's group
 * managers unless the workspace says admins only). Each reminder is claimed in
 * `approval_reminders` in the transaction that queues its mail, so it goes out once.
 */
export function createApprovalReminders({ db, jobs, mailer, publicUrl, billing }: ReminderDeps) {
  /** Sends one reminder unless it was sent before. */
  async function once(
    workspaceId: string,
    userId: string,
    subject: string,
    message: { to: string; subject: string; text: string },
  ) {
    return db.transaction().execute(async (tx) => {
      if (!(await repo.claim(tx, workspaceId, userId, subject))) return false;
      await mailer.send(message, { db: tx });
      return true;
    });
  }

  async function remindMembers(
    ws: { id: string; name: string },
    settings: ApprovalSettings,
    members: PeriodOwner[],
    now: Date,
  ) {
    let sent = 0;
    for (const member of members) {
      const today = dayKey(now, member.time_zone);
      const current = approvalPeriodOf(today, settings.period, member.week_start);
      const ended = approvalPeriodOf(shiftDay(current.start, -1), settings.period, member.week_start);
      if (!(await repo.trackedWithin(db, ws.id, member, ended.start, ended.end))) continue;
      if (await approvalsRepository.liveOverlap(db, ws.id, member.user_id, ended.start, ended.end)) continue;
      const text = [
        `Hello ${member.name || member.email},`,
        '',
        `Your time from ${ended.start} to ${ended.end} in ${ws.name} is not submitted for approval yet.`,
        `Check it and submit it from your timesheet: ${publicUrl}/homepage/timesheet`,
      ].join('\n');
      const subject = `Submit your time for ${ended.start} – ${ended.end}`;
      if (await once(ws.id, member.user_id, `unsubmitted:${ended.start}`, { to: member.email, subject, text })) sent++;
    }
    return sent;
  }

  async function remindApprovers(
    ws: { id: string; name: string; plan: PlanId; trial_ends_at: Date | null },
    settings: ApprovalSettings,
    members: Member[],
    now: Date,
  ) {
    const pending = await repo.pending(db, ws.id, new Date(now.getTime() - PENDING_REMIND_AFTER_MS));
    if (pending.length === 0) return 0;
    const approvers = await approversAmong(db, ws.id, settings, members, workspaceFeatures(ws, now, billing));
    let sent = 0;
    for (const { person, approves } of approvers) {
      const theirs = pending.filter((a) => approves(a.user_id));
      for (const approval of theirs) {
        const subject = `${approval.user_name || 'A member'} waits for your approval`;
        const text = [
          `Hello ${person.name || person.email},`,
          '',
          line(approval),
          `Approve or reject it in Sundial: ${publicUrl}/homepage/approvals`,
        ].join('\n');
        if (await once(ws.id, person.user_id, `pending:${approval.id}`, { to: person.email, subject, text })) sent++;
      }
    }
    return sent;
  }

  const line = (a: ApprovalRow) =>
    `${a.user_name} submitted ${a.period_start} to ${a.period_end} (${formatDuration(Number(a.tracked_seconds))} tracked) on ${new Date(a.submitted_at).toISOString().slice(0, 10)}; it is still waiting.`;

  /** One pass over every workspace with approvals; answers how many e-mails were queued. */
  async function remind(now: Date): Promise<number> {
    let sent = 0;
    for (const ws of await repo.workspaces(db)) {
      if (!workspaceHasFeature(ws, 'approvals', now, billing)) continue;
      const settings = await approvalsRepository.settings(db, ws.id);
      const members = await repo.members(db, ws.id);
      sent += await remindMembers(ws, settings, members, now);
      sent += await remindApprovers(ws, settings, members, now);
    }
    return sent;
  }

  return {
    remind,
    registerJobs(): void {
      jobs.register(approvalRemindersJob, async (_payload, { now }) => {
        await remind(now);
      });
      jobs.schedule(approvalRemindersJob, '7 * * * *', {});
    },
  };
}
