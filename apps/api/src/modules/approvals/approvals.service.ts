import {
  type ApprovalSettings,
  type ApprovalStatus,
  type ApprovalView,
  approvalPeriodOf,
  approvalMessages as msg,
  type PeriodStateView,
  timeLockOf,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { approvalScope, assertCan, assertFeature, passesLockDate, reachesTimeOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, type ConstraintTable, forbidden, mapConstraints, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { approversAmong } from './approvals.approvers.js';
import { decidedMessage, submittedMessage } from './approvals.mails.js';
import { presentApproval } from './approvals.presenter.js';
import {
  type ApprovalRow,
  type PeriodOwner,
  remindersRepository,
  approvalsRepository as repo,
} from './approvals.repository.js';

const conflict = (code: string, message: string) => new AppError(code, message, { status: 409 });
const approvalNotFound = () => notFound(msg.notFound);

const CONSTRAINTS: ConstraintTable = {
  approvals_live_period_key: { code: 'period_already_submitted', message: msg.alreadyLive, status: 409 },
};

/**
 * Timesheet approvals (issue 17): submitting a period, approving, rejecting and withdrawing it,
 * the workspace's approval settings and lock date, and the state of one person's period for the
 * timesheet. The locks themselves are enforced by the time-entries service (time-entries.locks.ts),
 * through which every write of time passes.
 */
export function createApprovalsService({
  db,
  notifications,
  publicUrl,
}: {
  db: Db;
  notifications: NotificationsService;
  publicUrl: string;
}) {
  /** Whether the actor approves `userId`'s periods under the workspace's rule. */
  async function approves(tx: Db, actor: Actor, settings: ApprovalSettings, userId: string): Promise<boolean> {
    return (await approvalScope(tx, actor, settings.approverRule)).approves(userId);
  }

  /** The approval, when the actor may see it (their own, or time they may view); 404 otherwise. */
  async function visible(tx: Db, actor: Actor, id: string): Promise<ApprovalRow> {
    const row = await repo.find(tx, actor.membership.workspace.id, id);
    if (!row || !(await reachesTimeOf(tx, actor, row.user_id, 'view'))) throw approvalNotFound();
    return row;
  }

  async function reread(tx: Db, workspaceId: string, id: string): Promise<ApprovalView> {
    const row = await repo.find(tx, workspaceId, id);
    if (!row) throw approvalNotFound();
    return presentApproval(row);
  }

  /** Approve or reject a submitted period: the first decision wins, a second one is 409. */
  async function decide(actor: Actor, id: string, to: 'approved' | 'rejected', comment: string | undefined) {
    assertCan(actor, 'approvals:review');
    assertFeature(actor, 'approvals');
    const workspaceId = actor.membership.workspace.id;
    return db.transaction().execute(async (tx) => {
      const row = await visible(tx, actor, id);
      if (!(await approves(tx, actor, await repo.settings(tx, workspaceId), row.user_id))) {
        throw new AppError('forbidden', msg.notApprover, { status: 403 });
      }
      // Held until commit, as a submission holds it: an approver's edit or re-applied rates on this
      // person's time wait, and see the decision after.
      const owner = await repo.owner(tx, workspaceId, row.user_id, true);
      const moved = await repo.transition(tx, workspaceId, id, ['submitted'], to, {
        comment: comment ?? '',
        decidedBy: actor.userId,
      });
      if (!moved) {
        const now = (await repo.status(tx, workspaceId, id)) ?? row.status;
        throw conflict('approval_decided', msg.notSubmitted(now));
      }
      await audit(tx, {
        action: to === 'approved' ? 'approval.approved' : 'approval.rejected',
        actorUserId: actor.userId,
        workspaceId,
        subjectId: id,
        detail: { userId: row.user_id, periodStart: row.period_start, comment: comment ?? '' },
      });
      if (owner) {
        const words = decidedMessage({
          workspaceName: actor.membership.workspace.name,
          publicUrl,
          start: row.period_start,
          end: row.period_end,
          decision: to,
          by: actor.user.name || actor.user.email,
          comment: comment ?? '',
        });
        await notifications.deliver(tx, {
          workspaceId,
          kind: to === 'approved' ? 'approval_approved' : 'approval_rejected',
          to: [{ id: owner.user_id, email: owner.email }],
          ...words,
        });
      }
      return reread(tx, workspaceId, id);
    });
  }

  return {
    async getSettings(actor: Actor): Promise<ApprovalSettings> {
      assertCan(actor, 'workspace:view');
      return repo.settings(db, actor.membership.workspace.id);
    },

    async updateSettings(actor: Actor, input: ApprovalSettings): Promise<ApprovalSettings> {
      assertCan(actor, 'approvals:settings');
      assertFeature(actor, 'approvals');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        await repo.saveSettings(tx, workspaceId, input);
        await audit(tx, { action: 'approval_settings.updated', actorUserId: actor.userId, workspaceId, detail: input });
        return repo.settings(tx, workspaceId);
      });
    },

    /** The period holding `day` of a person (the actor by default), for the timesheet. */
    async period(actor: Actor, day: string, userId?: string): Promise<PeriodStateView> {
      assertCan(actor, 'time:track');
      const workspaceId = actor.membership.workspace.id;
      const target = userId ?? actor.userId;
      if (target !== actor.userId && !(await reachesTimeOf(db, actor, target, 'view'))) throw forbidden();
      const owner = await repo.owner(db, workspaceId, target);
      if (!owner) throw notFound('Member not found.');
      const settings = await repo.settings(db, workspaceId);
      const { start, end } = approvalPeriodOf(day, settings.period, owner.week_start);
      const latest = await repo.latestOf(db, workspaceId, target, start);
      const approval = latest ? presentApproval(latest) : null;
      // The period's first day under the one rule of the locks (a period is locked or open as a whole).
      const live = approval?.status === 'approved' || approval?.status === 'submitted' ? approval : null;
      const lock = timeLockOf(
        {
          userId: target,
          day: start,
          lockDate: settings.lockDate,
          approval: live ? { status: live.status, start, end } : null,
        },
        { userId: actor.userId, passesLockDate: passesLockDate(actor) },
      );
      const lockReason = lock?.reason ?? null;
      return {
        periodStart: start,
        periodEnd: end,
        approval,
        lockDate: settings.lockDate,
        locked: lockReason !== null,
        lockReason,
      };
    },

    /** Submits the actor's own period holding `day`; it must have begun and have no timer running. */
    async submit(actor: Actor, day: string): Promise<ApprovalView> {
      assertCan(actor, 'approvals:submit');
      assertFeature(actor, 'approvals');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        // Held until commit: a write of this person's time waits, and sees the submission after.
        const owner = (await repo.owner(tx, workspaceId, actor.userId, true)) as PeriodOwner;
        const settings = await repo.settings(tx, workspaceId);
        const { start, end } = approvalPeriodOf(day, settings.period, owner.week_start);
        if (start > (await repo.today(tx, owner.time_zone))) throw conflict('period_not_begun', msg.futurePeriod);
        if (await repo.liveOverlap(tx, workspaceId, actor.userId, start, end)) {
          throw conflict('period_already_submitted', msg.alreadyLive);
        }
        if (await repo.runningWithin(tx, workspaceId, owner, start, end)) {
          throw conflict('timer_running', 'Stop the running timer before submitting this period.');
        }
        const id = newId();
        await mapConstraints(CONSTRAINTS, () =>
          repo.insert(tx, {
            id,
            workspace_id: workspaceId,
            user_id: actor.userId,
            period_start: start,
            period_end: end,
          }),
        );
        await audit(tx, {
          action: 'approval.submitted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { periodStart: start, periodEnd: end },
        });
        const submitted = await reread(tx, workspaceId, id);
        const approvers = await approversAmong(
          tx,
          workspaceId,
          settings,
          await remindersRepository.members(tx, workspaceId),
          actor.membership.features,
        );
        await notifications.deliver(tx, {
          workspaceId,
          kind: 'approval_submitted',
          to: approvers
            .filter((a) => a.approves(actor.userId) && a.person.user_id !== actor.userId)
            .map((a) => ({ id: a.person.user_id, email: a.person.email })),
          ...submittedMessage({
            workspaceName: actor.membership.workspace.name,
            publicUrl,
            start,
            end,
            name: owner.name || owner.email,
            userId: actor.userId,
            trackedSeconds: submitted.trackedSeconds,
          }),
        });
        return submitted;
      });
    },

    /** Periods in one status that the actor approves (owners and admins: everyone's). */
    async list(actor: Actor, status: ApprovalStatus): Promise<ApprovalView[]> {
      assertCan(actor, 'approvals:review');
      const workspaceId = actor.membership.workspace.id;
      const settings = await repo.settings(db, workspaceId);
      const scope = await approvalScope(db, actor, settings.approverRule);
      const rows = await repo.list(db, workspaceId, status, scope.userIds && [...scope.userIds]);
      return rows.filter((row) => scope.approves(row.user_id)).map(presentApproval);
    },

    approve: (actor: Actor, id: string, comment?: string) => decide(actor, id, 'approved', comment),
    reject: (actor: Actor, id: string, comment: string) => decide(actor, id, 'rejected', comment),

    /**
     * Withdraws a submission (its owner, before a decision) or an approval (an approver): the
     * period opens again. Not a plan feature, so a workspace that left Pro can still unlock time.
     */
    async withdraw(actor: Actor, id: string): Promise<ApprovalView> {
      assertCan(actor, 'approvals:submit');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const row = await visible(tx, actor, id);
        const approver = await approves(tx, actor, await repo.settings(tx, workspaceId), row.user_id);
        const own = row.user_id === actor.userId;
        if (!own && !approver) throw new AppError('forbidden', msg.onlyOwnOrApprover, { status: 403 });
        // The owner withdraws what waits; an approval is taken back by an approver.
        const from: ApprovalStatus[] = approver ? ['submitted', 'approved'] : ['submitted'];
        const moved = await repo.transition(tx, workspaceId, id, from, 'withdrawn', {});
        if (!moved) {
          const now = (await repo.status(tx, workspaceId, id)) ?? row.status;
          throw conflict(
            'approval_decided',
            now === 'approved' ? msg.approvedLock(row.period_start, row.period_end) : msg.notWithdrawable,
          );
        }
        await audit(tx, {
          action: 'approval.withdrawn',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { userId: row.user_id, periodStart: row.period_start, was: row.status },
        });
        return reread(tx, workspaceId, id);
      });
    },
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
