import {
  AWAY_MAX_DAYS,
  type AwayActivitiesBody,
  type AwayActivity,
  type AwayPeriodView,
  awayActivitiesBody,
  DEFAULT_AWAY_ACTIVITIES,
  type ResolveAwayBody,
  type ResolvedAwayView,
  resolveAwayBody,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import type { WriteResult } from '../../platform/idempotency.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { readableRange } from './computer-time.activity.js';
import { type AwayPeriod, awayPeriods } from './computer-time.away-periods.js';
import { type AwayResolutionRow, computerTimeRepository as repo } from './computer-time.repository.js';

const DAY_MS = 86_400_000;
/**
 * How far around a range away spans are read, so a period that begins before it (or runs on after
 * it) is whole, and keeps the start that names it, whatever range it is read in.
 */
const MARGIN_MS = 2 * DAY_MS;

const resolutionView = (row: AwayResolutionRow) => ({
  outcome: row.outcome,
  activityId: row.activity_id,
  entryId: row.time_entry_id,
  at: row.created_at.toISOString(),
});

const periodView = (period: AwayPeriod, resolution: AwayResolutionRow | undefined): AwayPeriodView => ({
  start: period.start.toISOString(),
  end: period.end.toISOString(),
  seconds: Math.round((period.end.getTime() - period.start.getTime()) / 1000),
  reason: period.reason,
  resolution: resolution ? resolutionView(resolution) : null,
});

const refused = (code: string, message: string, status = 422) => new AppError(code, message, { status });
const answeredAlready = () =>
  refused('away_period_resolved', 'This away period is answered already: undo that first.', 409);

/**
 * Away time (issue 35): a person's away periods (their away spans, adjacent ones as one), the
 * workspace's away activities, and what the person says a period was: a time entry (made through
 * the time-entries service, so its rules apply), a break in the entries it overlaps, or nothing.
 */
export function createAway(deps: { db: Db; timeEntries: TimeEntriesService; now: () => Date }) {
  const { db, timeEntries, now: clock } = deps;

  const activitiesOf = async (dbOrTx: Db, workspaceId: string) =>
    (await repo.awayActivities(dbOrTx, workspaceId)) ?? DEFAULT_AWAY_ACTIVITIES;

  /** A person's away periods overlapping [from, to), whole. */
  async function periodsOf(workspaceId: string, userId: string, from: Date, to: Date): Promise<AwayPeriod[]> {
    const spans = await repo.awaySpansOf(
      db,
      workspaceId,
      userId,
      new Date(from.getTime() - MARGIN_MS),
      new Date(to.getTime() + MARGIN_MS),
    );
    return awayPeriods(spans).filter((p) => p.start < to && p.end > from);
  }

  /** The projects and tasks the activities name are the workspace's, each task of its project. */
  async function assertDefaultsHere(workspaceId: string, items: readonly AwayActivity[]): Promise<void> {
    const projectIds = items.flatMap((a) => (a.projectId ? [a.projectId] : []));
    const taskIds = items.flatMap((a) => (a.taskId ? [a.taskId] : []));
    const found = await repo.projectsAndTasks(db, workspaceId, projectIds, taskIds);
    const fields: Record<string, string> = {};
    items.forEach((a, i) => {
      if (a.projectId && !found.projects.has(a.projectId)) fields[`items.${i}.projectId`] = 'Project not found.';
      else if (a.taskId && found.tasks.get(a.taskId) !== a.projectId) {
        fields[`items.${i}.taskId`] = 'This task is not one of the project’s.';
      }
    });
    if (Object.keys(fields).length > 0) throw validationError(fields);
  }

  const answer = (period: AwayPeriod, row: AwayResolutionRow): WriteResult<ResolvedAwayView> => ({
    status: 201,
    body: { ...periodView(period, row), entriesWithBreak: row.entries_with_break },
  });

  return {
    /** The workspace's away activities (core's starter list until an admin saves some). */
    async awayActivities(actor: Actor): Promise<{ items: AwayActivity[] }> {
      return { items: await activitiesOf(db, actor.membership.workspace.id) };
    },

    /** Replaces the away activities (`computer_time:settings`); their projects and tasks must be here (422). */
    async saveAwayActivities(actor: Actor, input: AwayActivitiesBody): Promise<{ items: AwayActivity[] }> {
      assertCan(actor, 'computer_time:settings');
      const { items } = awayActivitiesBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      await assertDefaultsHere(workspaceId, items);
      await db.transaction().execute(async (tx) => {
        const before = await activitiesOf(tx, workspaceId);
        await repo.saveAwayActivities(tx, workspaceId, items);
        const changes = changesOf({ items: before }, { items });
        if (Object.keys(changes).length === 0) return;
        await audit(tx, {
          action: 'away_activities.updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: { changes },
        });
      });
      return { items };
    },

    /**
     * A person's away periods over [from, to) (at most 31 days), each with what they said it was:
     * their own, or their people's when the workspace lets managers see activity (403 else).
     */
    async away(actor: Actor, query: { userId?: string | undefined; from: string; to: string }) {
      const { from, to, userId } = await readableRange(db, actor, query, AWAY_MAX_DAYS);
      const workspaceId = actor.membership.workspace.id;
      const periods = await periodsOf(workspaceId, userId, from, to);
      const first = periods[0];
      const resolutions = first
        ? await repo.resolutionsOf(db, workspaceId, userId, first.start, new Date(to.getTime() + MARGIN_MS))
        : [];
      const byStart = new Map(resolutions.map((r) => [r.started_at.getTime(), r]));
      return { items: periods.map((p) => periodView(p, byStart.get(p.start.getTime()))) };
    },

    /**
     * Says what one of the actor's own away periods (start and end exactly as read) was, once
     * (409 away_period_resolved after): 'entry' makes a time entry over it (its project, task and
     * note default to the activity's; the time-entries rules refuse with their own errors), 'break'
     * puts a break into the entries it overlaps, 'dismissed' records nothing more. A retry with
     * the same Idempotency-Key gets the first answer.
     */
    async resolveAway(
      actor: Actor,
      input: ResolveAwayBody,
      idempotencyKey?: string,
    ): Promise<WriteResult<ResolvedAwayView>> {
      const body = resolveAwayBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      const start = new Date(body.start);
      const end = new Date(body.end);
      const period = (await periodsOf(workspaceId, actor.userId, start, end)).find(
        (p) => p.start.getTime() === start.getTime() && p.end.getTime() === end.getTime(),
      );
      if (!period) {
        throw refused(
          'away_period_unknown',
          'This is not one of your away periods (it may have grown since it was read): reload and try again.',
        );
      }
      const activityId = body.activityId ?? null;
      const resolved = await repo.findResolution(db, workspaceId, actor.userId, start);
      if (resolved) {
        const sameRequest = resolved.outcome === body.outcome && resolved.activity_id === activityId;
        if (idempotencyKey && resolved.idempotency_key === idempotencyKey && sameRequest) {
          return answer(period, resolved);
        }
        throw answeredAlready();
      }
      const activity = activityId ? (await activitiesOf(db, workspaceId)).find((a) => a.id === activityId) : undefined;
      if (activityId && !activity) throw validationError({ activityId: 'This away activity no longer exists.' });

      let entryId: string | null = null;
      let entriesWithBreak = 0;
      if (body.outcome === 'entry') {
        const projectId = body.projectId !== undefined ? body.projectId : (activity?.projectId ?? null);
        const taskId =
          body.taskId !== undefined ? body.taskId : body.projectId === undefined ? (activity?.taskId ?? null) : null;
        const created = await timeEntries.create(
          actor,
          {
            start: period.start.toISOString(),
            end: period.end.toISOString(),
            projectId,
            taskId,
            note: body.note ?? activity?.name ?? '',
          },
          idempotencyKey,
        );
        entryId = created.body.id;
      } else if (body.outcome === 'break') {
        entriesWithBreak = (await timeEntries.addBreaks(actor, { start: period.start, end: period.end })).length;
      }
      const row = await db.transaction().execute(async (tx) => {
        const inserted = await repo.insertResolution(tx, {
          workspace_id: workspaceId,
          user_id: actor.userId,
          started_at: period.start,
          ended_at: period.end,
          outcome: body.outcome,
          activity_id: activityId,
          time_entry_id: entryId,
          entries_with_break: entriesWithBreak,
          idempotency_key: idempotencyKey ?? null,
          created_at: clock(),
        });
        if (!inserted) return undefined;
        await audit(tx, {
          action: 'away_period.resolved',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: actor.userId,
          detail: {
            start: period.start.toISOString(),
            end: period.end.toISOString(),
            outcome: body.outcome,
            activityId,
            entryId,
            entriesWithBreak,
          },
        });
        return inserted;
      });
      if (row) return answer(period, row);
      // A request at the same time answered the period first. The same entry (a retry with this
      // key) is its answer; an entry of this request's own would be a second one: it goes again.
      const first = await repo.findResolution(db, workspaceId, actor.userId, period.start);
      if (first && entryId !== null && first.time_entry_id === entryId) return answer(period, first);
      if (entryId !== null) await timeEntries.remove(actor, entryId);
      throw answeredAlready();
    },

    /** Forgets what the actor said of their away period starting at `start` (404 when nothing); an entry it made stays. */
    async reopenAway(actor: Actor, start: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const row = await repo.deleteResolution(tx, workspaceId, actor.userId, new Date(start));
        if (!row) throw notFound('This away period has no answer to undo.');
        await audit(tx, {
          action: 'away_period.reopened',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: actor.userId,
          detail: { start: row.started_at.toISOString(), outcome: row.outcome, entryId: row.time_entry_id },
        });
      });
    },
  };
}
