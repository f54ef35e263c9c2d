import {
  can,
  DEFAULT_TIME_SETTINGS,
  formatDuration,
  isInstantInRange,
  type TimeEntryView,
  type TimeSettings,
  type updateTimeSettingsBody,
  workSeconds,
} from '@sundial/core';
import type { z } from 'zod';
import type { Db } from '../../db/connection.js';
import {
  assertCan,
  memberReachesProject,
  othersTimeScope,
  outOfTimeScope,
  reachesTimeOf,
} from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import {
  AppError,
  type ConstraintTable,
  constraintViolation,
  forbidden,
  notFound,
  validationError,
} from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import { idempotent, purgeIdempotencyKeys, type WriteResult } from '../../platform/idempotency.js';
import { hashSecret, isUuid } from '../../platform/ids.js';
import { presentEntry, presentSettings } from './time-entries.presenter.js';
import {
  type EntryValues,
  type EntryWithRelations,
  timeEntriesRepository as repo,
  type StoppedEntryValues,
  type TouchedEntry,
} from './time-entries.repository.js';

/**
 * Who changes time entries through another module's write (a project or tag deleted, a file
 * imported), in which workspace: the caller has checked its own permission for that write.
 */
export interface WriteBy {
  workspaceId: string;
  actorUserId: string | null;
}

const by = (actor: Actor): WriteBy => ({ workspaceId: actor.membership.workspace.id, actorUserId: actor.userId });
const touched = (entries: TouchedEntry[]) => entries.map((e) => ({ id: e.id, userId: e.user_id }));

/** Fields of an entry after the body's text (durations, ids) has been read. */
export interface EntryInput {
  start?: string;
  end?: string;
  duration?: number;
  note?: string;
  projectId?: string | null;
  taskId?: string | null;
  tagIds?: string[];
  billable?: boolean;
}

export interface ListInput {
  from?: string;
  to?: string;
  userId?: string;
  projectId?: string;
  taskId?: string;
  tagId?: string;
  billable?: boolean;
  limit: number;
  cursor?: string;
}

const SKEW_MS = 60_000;
const wholeSecond = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

const conflict = (code: string, message: string) => new AppError(code, message, { status: 409 });
const outOfScope = outOfTimeScope;
const RUNNING_CONSTRAINTS: ConstraintTable = {
  time_entries_one_running_key: {
    code: 'timer_already_running',
    message: 'A timer was started at the same moment; it is running now.',
  },
};
/** How long a deleted entry can be brought back with Undo. */
export const UNDO_WINDOW_MS = 10 * 60_000;

function encodeCursor(e: { start_at: Date; id: string }): string {
  return Buffer.from(`${e.start_at.toISOString()}|${e.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { start: Date; id: string } {
  const [start, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(start ?? '');
  if (!id || !isUuid(id) || !isInstantInRange(date.getTime())) {
    throw validationError({ cursor: 'This page link is not valid.' });
  }
  return { start: date, id };
}

function entryWork(e: Pick<EntryWithRelations, 'id' | 'start_at' | 'end_at' | 'breaks'>, now: Date): number {
  return workSeconds(
    { id: e.id, start: e.start_at, end: e.end_at, breaks: e.breaks.map((b) => ({ start: b.start_at, end: b.end_at })) },
    now,
  );
}

export function createTimeEntriesService(db: Db, events: EventBus) {
  async function settingsOf(dbOrTx: Db, workspaceId: string): Promise<TimeSettings> {
    const row = await repo.findSettings(dbOrTx, workspaceId);
    return row ? presentSettings(row) : DEFAULT_TIME_SETTINGS;
  }

  /** Whose time the actor reaches: the rule lives in platform/access.ts. */
  const reaches = reachesTimeOf;

  /** The user whose timesheet is touched: the actor, or another member with time:edit_others. */
  async function targetUser(tx: Db, actor: Actor, userId: string | undefined, permission: 'view' | 'edit') {
    assertCan(actor, 'time:track');
    if (!userId || userId === actor.userId) return actor.userId;
    const needed = permission === 'view' ? 'time:view_others' : 'time:edit_others';
    if (!can(actor.membership.role, needed)) throw forbidden();
    if (!(await reaches(tx, actor, userId, permission))) throw outOfScope();
    const member = await repo.findMember(tx, actor.membership.workspace.id, userId);
    // Past time of a removed member stays readable; nobody books new time for them.
    if (!member || (permission === 'edit' && member.status === 'removed')) throw notFound('Member not found.');
    return userId;
  }

  /** The entry, when the actor may see it (own, or others' with time:view_others); 404 otherwise. */
  async function getVisible(dbOrTx: Db, actor: Actor, id: string): Promise<EntryWithRelations> {
    assertCan(actor, 'time:track');
    const entry = await repo.find(dbOrTx, actor.membership.workspace.id, id);
    if (!entry) throw notFound('Time entry not found.');
    if (!(await reaches(dbOrTx, actor, entry.user_id, 'view'))) throw notFound('Time entry not found.');
    return entry;
  }

  async function assertEditable(dbOrTx: Db, actor: Actor, entry: { user_id: string }): Promise<void> {
    if (!(await reaches(dbOrTx, actor, entry.user_id, 'edit'))) throw forbidden();
  }

  /**
   * Checks project, task and tags belong to the workspace and fit together; fills project from task.
   * A new project must be one that every owner of the time (`ownerIds`) may book on.
   */
  async function resolveRefs(
    tx: Db,
    actor: Actor,
    input: { projectId?: string | null; taskId?: string | null; tagIds?: string[] },
    current: { project_id: string | null; task_id: string | null } | undefined,
    ownerIds: string[],
  ): Promise<{ project_id?: string | null; task_id?: string | null; billableDefault?: boolean }> {
    const workspaceId = actor.membership.workspace.id;
    const out: { project_id?: string | null; task_id?: string | null; billableDefault?: boolean } = {};
    let projectId = input.projectId === undefined ? (current?.project_id ?? null) : input.projectId;
    let taskId = input.taskId === undefined ? (current?.task_id ?? null) : input.taskId;
    // A new project without a new task drops the old task.
    if (
      input.projectId !== undefined &&
      input.taskId === undefined &&
      current &&
      input.projectId !== current.project_id
    ) {
      taskId = null;
    }
    if (taskId) {
      const task = await repo.findTask(tx, workspaceId, taskId);
      if (!task) throw validationError({ taskId: 'This task does not exist in the workspace.' });
      if (projectId && task.project_id !== projectId)
        throw validationError({ taskId: 'This task belongs to another project.' });
      projectId = task.project_id;
    }
    if (projectId) {
      const project = await repo.findProject(tx, workspaceId, projectId);
      if (!project) throw validationError({ projectId: 'This project does not exist in the workspace.' });
      if (project.archived_at && projectId !== current?.project_id) {
        throw validationError({ projectId: 'This project is archived.' });
      }
      if (projectId !== current?.project_id) {
        for (const ownerId of new Set(ownerIds)) {
          if (await seesProject(tx, workspaceId, ownerId, projectId)) continue;
          throw validationError({
            projectId:
              ownerId === actor.userId
                ? 'You are not on this project: choose one of your projects, or ask a manager to add you.'
                : 'The person this time belongs to is not on this project: add them to it first.',
          });
        }
      }
      out.billableDefault = project.billable_default;
    }
    if (input.tagIds && input.tagIds.length > 0) {
      const found = await repo.countTags(tx, workspaceId, input.tagIds);
      if (found !== new Set(input.tagIds).size)
        throw validationError({ tagIds: 'A tag does not exist in the workspace.' });
    }
    if (input.projectId !== undefined || input.taskId !== undefined || !current) {
      out.project_id = projectId;
      out.task_id = taskId;
    }
    return out;
  }

  /**
   * Members and guests have time only on projects they can see (members: public or assigned directly or
   * via a group; guests: assigned only): checked for the person the time belongs to, whoever books it.
   */
  async function seesProject(tx: Db, workspaceId: string, userId: string, projectId: string): Promise<boolean> {
    return memberReachesProject(tx, { workspaceId, userId, projectId });
  }

  function assertRequired(
    s: TimeSettings,
    e: { project_id: string | null; task_id: string | null; note: string; tagCount: number },
    when = '',
  ): void {
    const fields: Record<string, string> = {};
    if (s.requireProject && !e.project_id) fields.projectId = `Choose a project${when}.`;
    if (s.requireTask && !e.task_id) fields.taskId = `Choose a task${when}.`;
    if (s.requireTag && e.tagCount === 0) fields.tagIds = `Choose at least one tag${when}.`;
    if (s.requireNote && e.note.trim() === '') fields.note = `Write a note${when}.`;
    if (Object.keys(fields).length > 0) throw validationError(fields);
  }

  function assertTimes(s: TimeSettings, start: Date, end: Date | null, now: Date): void {
    if (end && end.getTime() < start.getTime()) throw validationError({ end: 'The end must be after the start.' });
    if (end && end.getTime() - start.getTime() > s.maxEntryMinutes * 60_000) {
      throw validationError({
        end: `An entry can be at most ${formatDuration(s.maxEntryMinutes * 60, 'h:mm')} hours long.`,
      });
    }
    const limit = now.getTime() + s.futureLimitMinutes * 60_000 + SKEW_MS;
    if ((end ?? start).getTime() > limit) {
      throw validationError({
        [end ? 'end' : 'start']:
          s.futureLimitMinutes === 0
            ? 'Entries cannot be in the future.'
            : `Entries may end at most ${formatDuration(s.futureLimitMinutes * 60, 'h:mm')} hours from now.`,
      });
    }
  }

  async function present(dbOrTx: Db, workspaceId: string, id: string, now = new Date()): Promise<TimeEntryView> {
    const entry = await repo.find(dbOrTx, workspaceId, id);
    if (!entry) throw notFound('Time entry not found.');
    return presentEntry(entry, now);
  }

  /** Stores work seconds of a stopped entry (after its times or breaks changed). */
  async function refreshDuration(tx: Db, workspaceId: string, id: string): Promise<void> {
    const entry = await repo.find(tx, workspaceId, id);
    if (!entry || entry.end_at === null) return;
    await repo.update(tx, workspaceId, [id], { duration_seconds: entryWork(entry, new Date()) });
  }

  /**
   * Announces changed entries from inside the writing transaction, one event per person whose
   * entries they are: the bus audits it there and delivers it to live streams once it commits.
   */
  async function publish(
    tx: Db,
    type: 'created' | 'updated' | 'deleted',
    writer: WriteBy,
    entries: { id: string; userId: string }[],
  ) {
    const byUser = new Map<string, string[]>();
    for (const e of entries) byUser.set(e.userId, [...(byUser.get(e.userId) ?? []), e.id]);
    for (const [userId, entryIds] of byUser) {
      await events.publish(tx, {
        name: `time_entry.${type}`,
        workspaceId: writer.workspaceId,
        actorUserId: writer.actorUserId,
        payload: { userId, entryIds },
      });
    }
  }

  /** Runs a retried write once per Idempotency-Key of the actor (platform/idempotency.ts). */
  function once<T>(
    tx: Db,
    actor: Actor,
    key: string | undefined,
    request: { operation: string; body: unknown },
    work: () => Promise<WriteResult<T>>,
  ): Promise<WriteResult<T>> {
    return idempotent(tx, { key, workspaceId: actor.membership.workspace.id, userId: actor.userId, ...request }, work);
  }

  /** Ends the running entry at `at` (closing an open break); undefined when none runs. */
  async function stopRunningIn(tx: Db, workspaceId: string, userId: string, at: Date) {
    const stopped = await repo.stopRunning(tx, workspaceId, userId, at);
    if (!stopped) return undefined;
    await repo.closeBreak(tx, workspaceId, stopped.id, at);
    await refreshDuration(tx, workspaceId, stopped.id);
    return stopped;
  }

  return {
    async getSettings(actor: Actor): Promise<TimeSettings> {
      assertCan(actor, 'workspace:view');
      return settingsOf(db, actor.membership.workspace.id);
    },

    async updateSettings(actor: Actor, input: z.infer<typeof updateTimeSettingsBody>): Promise<TimeSettings> {
      assertCan(actor, 'time:settings');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        await repo.upsertSettings(tx, workspaceId, {
          require_project: input.requireProject,
          require_task: input.requireTask,
          require_tag: input.requireTag,
          require_note: input.requireNote,
          rounding_mode: input.roundingMode,
          rounding_minutes: input.roundingMinutes,
          max_entry_minutes: input.maxEntryMinutes,
          future_limit_minutes: input.futureLimitMinutes,
        });
        await audit(tx, { action: 'time_settings.updated', actorUserId: actor.userId, workspaceId, detail: input });
        return settingsOf(tx, workspaceId);
      });
    },

    /** Entries overlapping [from, to), newest first, a page at a time. Others' need time:view_others. */
    async list(actor: Actor, q: ListInput): Promise<{ items: TimeEntryView[]; nextCursor: string | null }> {
      const workspaceId = actor.membership.workspace.id;
      let userIds: string[] | undefined;
      if (q.userId === 'all') {
        assertCan(actor, 'time:view_others');
        const scope = await othersTimeScope(db, actor);
        if (scope) userIds = [...new Set([actor.userId, ...scope])];
      } else {
        userIds = [await targetUser(db, actor, q.userId, 'view')];
      }
      const from = q.from ? new Date(q.from) : undefined;
      const to = q.to ? new Date(q.to) : undefined;
      if (from && to && to < from) throw validationError({ to: 'The end of the range must be after its start.' });
      const rows = await repo.list(db, workspaceId, {
        userIds,
        from,
        to,
        projectId: q.projectId,
        taskId: q.taskId,
        tagId: q.tagId,
        billable: q.billable,
        after: q.cursor ? decodeCursor(q.cursor) : undefined,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      const last = page.at(-1);
      const now = new Date();
      return {
        items: page.map((e) => presentEntry(e, now)),
        nextCursor: rows.length > q.limit && last ? encodeCursor(last) : null,
      };
    },

    async get(actor: Actor, id: string): Promise<TimeEntryView> {
      return presentEntry(await getVisible(db, actor, id));
    },

    /** A manual entry from start and end, or start and duration. Throws 422 with the field at fault. */
    async create(
      actor: Actor,
      input: EntryInput & { userId?: string; start: string },
      key?: string,
    ): Promise<{ status: number; body: TimeEntryView }> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) =>
        once(tx, actor, key, { operation: 'time_entries.create', body: input }, async () => {
          const userId = await targetUser(tx, actor, input.userId, 'edit');
          const settings = await settingsOf(tx, workspaceId);
          const now = new Date();
          const start = wholeSecond(new Date(input.start).getTime());
          let end: Date;
          if (input.end !== undefined) end = wholeSecond(new Date(input.end).getTime());
          else if (input.duration !== undefined) end = new Date(start.getTime() + input.duration * 1000);
          else throw validationError({ end: 'Enter an end time or a duration.' });
          assertTimes(settings, start, end, now);
          const refs = await resolveRefs(tx, actor, input, undefined, [userId]);
          const note = input.note ?? '';
          assertRequired(settings, {
            project_id: refs.project_id ?? null,
            task_id: refs.task_id ?? null,
            note,
            tagCount: input.tagIds?.length ?? 0,
          });
          const id = await repo.insert(tx, {
            workspace_id: workspaceId,
            user_id: userId,
            project_id: refs.project_id,
            task_id: refs.task_id,
            note,
            billable: input.billable ?? refs.billableDefault ?? false,
            start_at: start,
            end_at: end,
            duration_seconds: Math.round((end.getTime() - start.getTime()) / 1000),
            created_by_user_id: actor.userId,
          });
          await repo.setTags(tx, workspaceId, id, input.tagIds ?? []);
          await publish(tx, 'created', by(actor), [{ id, userId }]);
          return { status: 201, body: await present(tx, workspaceId, id, now) };
        }),
      );
    },

    /** Changes an entry; a duration moves its end. A running entry keeps running (stop it to end it). */
    async update(actor: Actor, id: string, input: EntryInput): Promise<TimeEntryView> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const entry = await getVisible(tx, actor, id);
        await assertEditable(tx, actor, entry);
        const settings = await settingsOf(tx, workspaceId);
        const now = new Date();
        const running = entry.end_at === null;
        if (running && (input.end !== undefined || input.duration !== undefined)) {
          throw validationError({ end: 'Stop the timer to set its end.' });
        }
        const start = input.start ? wholeSecond(new Date(input.start).getTime()) : entry.start_at;
        let end = entry.end_at;
        if (input.end !== undefined) end = wholeSecond(new Date(input.end).getTime());
        else if (input.duration !== undefined) {
          const breakSeconds = entry.end_at
            ? Math.round((entry.end_at.getTime() - entry.start_at.getTime()) / 1000) - entryWork(entry, now)
            : 0;
          end = new Date(start.getTime() + (input.duration + breakSeconds) * 1000);
        } else if (input.start && end) {
          // Moving the start keeps the length.
          end = new Date(end.getTime() + (start.getTime() - entry.start_at.getTime()));
        }
        if (running && start.getTime() > now.getTime() + SKEW_MS) {
          throw validationError({ start: 'A running timer cannot start in the future.' });
        }
        assertTimes(settings, start, end, now);
        const refs = await resolveRefs(tx, actor, input, entry, [entry.user_id]);
        const values: EntryValues = { start_at: start, end_at: end };
        if (refs.project_id !== undefined) values.project_id = refs.project_id;
        if (refs.task_id !== undefined) values.task_id = refs.task_id;
        if (input.note !== undefined) values.note = input.note;
        if (input.billable !== undefined) values.billable = input.billable;
        if (!running) {
          assertRequired(settings, {
            project_id: values.project_id === undefined ? entry.project_id : values.project_id,
            task_id: values.task_id === undefined ? entry.task_id : values.task_id,
            note: values.note ?? entry.note,
            tagCount: (input.tagIds ?? entry.tag_ids).length,
          });
        }
        await repo.update(tx, workspaceId, [id], values);
        if (input.tagIds) await repo.setTags(tx, workspaceId, id, input.tagIds);
        await refreshDuration(tx, workspaceId, id);
        await publish(tx, 'updated', by(actor), [{ id, userId: entry.user_id }]);
        return present(tx, workspaceId, id, now);
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const entry = await getVisible(tx, actor, id);
        await assertEditable(tx, actor, entry);
        if (entry.end_at !== null) await repo.trash(tx, [entry], actor.userId, new Date());
        await repo.delete(tx, workspaceId, [id]);
        await publish(tx, 'deleted', by(actor), [{ id, userId: entry.user_id }]);
      });
    },

    /** Loads every id for a bulk change; 404 naming none when any is missing or not visible. */
    async bulkUpdate(
      actor: Actor,
      ids: string[],
      set: Omit<EntryInput, 'start' | 'end' | 'duration'> & { addTagIds?: string[]; removeTagIds?: string[] },
    ): Promise<TimeEntryView[]> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const entries = await loadForBulk(tx, actor, ids);
        const settings = await settingsOf(tx, workspaceId);
        const refs = await resolveRefs(
          tx,
          actor,
          set,
          undefined,
          entries.map((e) => e.user_id),
        );
        const added = [...new Set(set.addTagIds ?? [])];
        if (added.length && (await repo.countTags(tx, workspaceId, added)) !== added.length)
          throw validationError({ addTagIds: 'A tag does not exist in the workspace.' });
        const removed = new Set(set.removeTagIds ?? []);
        const tagsOf = (entry: { tag_ids: string[] }): string[] | undefined =>
          set.tagIds ??
          (added.length || removed.size
            ? [...new Set([...entry.tag_ids, ...added])].filter((id) => !removed.has(id))
            : undefined);
        for (const entry of entries) {
          const newTags = tagsOf(entry);
          const values: EntryValues = {};
          if (set.projectId !== undefined || set.taskId !== undefined) {
            values.project_id = refs.project_id ?? null;
            values.task_id = refs.task_id ?? null;
          }
          if (set.note !== undefined) values.note = set.note;
          if (set.billable !== undefined) values.billable = set.billable;
          if (entry.end_at !== null) {
            assertRequired(settings, {
              project_id: values.project_id === undefined ? entry.project_id : values.project_id,
              task_id: values.task_id === undefined ? entry.task_id : values.task_id,
              note: values.note ?? entry.note,
              tagCount: (newTags ?? entry.tag_ids).length,
            });
          }
          await repo.update(tx, workspaceId, [entry.id], values);
          if (newTags) await repo.setTags(tx, workspaceId, entry.id, newTags);
        }
        await publish(
          tx,
          'updated',
          by(actor),
          entries.map((e) => ({ id: e.id, userId: e.user_id })),
        );
        const now = new Date();
        return (await repo.findMany(tx, workspaceId, ids)).map((e) => presentEntry(e, now));
      });
    },

    async bulkDelete(actor: Actor, ids: string[]): Promise<number> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const entries = await loadForBulk(tx, actor, ids);
        await repo.trash(
          tx,
          entries.filter((e) => e.end_at !== null),
          actor.userId,
          new Date(),
        );
        await repo.delete(tx, workspaceId, ids);
        await publish(
          tx,
          'deleted',
          by(actor),
          entries.map((e) => ({ id: e.id, userId: e.user_id })),
        );
        return entries.length;
      });
    },

    /**
     * Undo of a delete: brings the entries back as they were (same ids, times, breaks, tags) when
     * they were deleted less than UNDO_WINDOW_MS ago. A project, task or tag deleted meanwhile is left off.
     */
    async restore(actor: Actor, ids: string[]): Promise<TimeEntryView[]> {
      assertCan(actor, 'time:track');
      const workspaceId = actor.membership.workspace.id;
      const unique = [...new Set(ids)];
      return db.transaction().execute(async (tx) => {
        const rows = await repo.untrash(tx, workspaceId, unique, new Date(Date.now() - UNDO_WINDOW_MS));
        const allowed: typeof rows = [];
        for (const row of rows) if (await reaches(tx, actor, row.user_id, 'edit')) allowed.push(row);
        if (allowed.length !== unique.length) {
          throw notFound('These entries can no longer be restored: Undo works for 10 minutes after a delete.');
        }
        for (const row of allowed) {
          const e = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as EntryWithRelations;
          const project = e.project_id ? await repo.findProject(tx, workspaceId, e.project_id) : undefined;
          const task = project && e.task_id ? await repo.findTask(tx, workspaceId, e.task_id) : undefined;
          await repo.insert(tx, {
            id: row.entry_id,
            workspace_id: workspaceId,
            user_id: row.user_id,
            project_id: project ? project.id : null,
            task_id: task && task.project_id === project?.id ? task.id : null,
            note: e.note,
            billable: e.billable,
            start_at: new Date(e.start_at),
            end_at: e.end_at === null ? null : new Date(e.end_at),
            duration_seconds: e.duration_seconds,
            created_by_user_id: e.created_by_user_id,
          });
          await repo.setTags(tx, workspaceId, row.entry_id, await repo.existingTags(tx, workspaceId, e.tag_ids));
          await repo.insertBreaks(
            tx,
            workspaceId,
            row.entry_id,
            e.breaks.map((b) => ({
              start_at: new Date(b.start_at),
              end_at: b.end_at === null ? null : new Date(b.end_at),
            })),
          );
        }
        await publish(
          tx,
          'created',
          by(actor),
          allowed.map((r) => ({ id: r.entry_id, userId: r.user_id })),
        );
        const now = new Date();
        return (await repo.findMany(tx, workspaceId, unique)).map((e) => presentEntry(e, now));
      });
    },

    /** The user's running timer, or null. */
    async running(actor: Actor, userId?: string): Promise<TimeEntryView | null> {
      const target = await targetUser(db, actor, userId, 'view');
      const entry = await repo.findRunning(db, actor.membership.workspace.id, target);
      return entry ? presentEntry(entry) : null;
    },

    /** Starts a timer now; a running one is stopped first (its end is this start). */
    async start(
      actor: Actor,
      input: Omit<EntryInput, 'start' | 'end' | 'duration'> & { userId?: string },
      key?: string,
    ): Promise<{ status: number; body: { entry: TimeEntryView; stopped: TimeEntryView | null } }> {
      const workspaceId = actor.membership.workspace.id;
      try {
        return await db.transaction().execute(async (tx) =>
          once(tx, actor, key, { operation: 'timer.start', body: input }, async () => {
            const userId = await targetUser(tx, actor, input.userId, 'edit');
            const refs = await resolveRefs(tx, actor, input, undefined, [userId]);
            const now = wholeSecond(Date.now());
            await repo.findRunningForUpdate(tx, workspaceId, userId);
            const stopped = await stopRunningIn(tx, workspaceId, userId, now);
            const id = await repo.insert(tx, {
              workspace_id: workspaceId,
              user_id: userId,
              project_id: refs.project_id,
              task_id: refs.task_id,
              note: input.note ?? '',
              billable: input.billable ?? refs.billableDefault ?? false,
              start_at: now,
              created_by_user_id: actor.userId,
            });
            await repo.setTags(tx, workspaceId, id, input.tagIds ?? []);
            if (stopped) await publish(tx, 'updated', by(actor), [{ id: stopped.id, userId }]);
            await publish(tx, 'created', by(actor), [{ id, userId }]);
            return {
              status: 201,
              body: {
                entry: await present(tx, workspaceId, id, now),
                stopped: stopped ? await present(tx, workspaceId, stopped.id, now) : null,
              },
            };
          }),
        );
      } catch (error) {
        throw constraintViolation(error, RUNNING_CONSTRAINTS) ?? error;
      }
    },

    /**
     * Stops the running timer. Two stops at once end it once: the second finds nothing running
     * and answers 409 no_running_timer (or, with the same Idempotency-Key, the first answer).
     */
    async stop(
      actor: Actor,
      userId: string | undefined,
      key?: string,
    ): Promise<{ status: number; body: TimeEntryView }> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) =>
        once(tx, actor, key, { operation: 'timer.stop', body: { userId } }, async () => {
          const target = await targetUser(tx, actor, userId, 'edit');
          const running = await repo.findRunning(tx, workspaceId, target);
          if (running) {
            const settings = await settingsOf(tx, workspaceId);
            assertRequired(settings, { ...running, tagCount: running.tag_ids.length }, ' before stopping the timer');
          }
          const now = wholeSecond(Date.now());
          const stopped = await stopRunningIn(tx, workspaceId, target, now);
          if (!stopped) throw conflict('no_running_timer', 'No timer is running.');
          await publish(tx, 'updated', by(actor), [{ id: stopped.id, userId: target }]);
          return { status: 200, body: await present(tx, workspaceId, stopped.id, now) };
        }),
      );
    },

    async pause(actor: Actor, userId?: string): Promise<TimeEntryView> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const target = await targetUser(tx, actor, userId, 'edit');
        const running = await repo.findRunningForUpdate(tx, workspaceId, target);
        if (!running) throw conflict('no_running_timer', 'No timer is running.');
        const entry = await repo.find(tx, workspaceId, running.id);
        if (entry?.breaks.some((b) => b.end_at === null))
          throw conflict('timer_paused', 'The timer is already paused.');
        const now = wholeSecond(Date.now());
        await repo.openBreak(tx, workspaceId, running.id, now);
        await repo.update(tx, workspaceId, [running.id], {});
        await publish(tx, 'updated', by(actor), [{ id: running.id, userId: target }]);
        return present(tx, workspaceId, running.id, now);
      });
    },

    async resume(actor: Actor, userId?: string): Promise<TimeEntryView> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const target = await targetUser(tx, actor, userId, 'edit');
        const running = await repo.findRunningForUpdate(tx, workspaceId, target);
        if (!running) throw conflict('no_running_timer', 'No timer is running.');
        const now = wholeSecond(Date.now());
        if (!(await repo.closeBreak(tx, workspaceId, running.id, now))) {
          throw conflict('timer_not_paused', 'The timer is not paused.');
        }
        await repo.update(tx, workspaceId, [running.id], {});
        await publish(tx, 'updated', by(actor), [{ id: running.id, userId: target }]);
        return present(tx, workspaceId, running.id, now);
      });
    },

    /** Throws the running timer away without keeping an entry. */
    async discard(actor: Actor, userId?: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const target = await targetUser(tx, actor, userId, 'edit');
        const running = await repo.findRunningForUpdate(tx, workspaceId, target);
        if (!running) throw conflict('no_running_timer', 'No timer is running.');
        await repo.delete(tx, workspaceId, [running.id]);
        await publish(tx, 'deleted', by(actor), [{ id: running.id, userId: target }]);
      });
    },

    // ---- Writes of other modules to time entries, inside their transaction `tx`. The caller has
    // checked its own permission (projects:manage, tags:manage); these keep the entries' rules
    // and announce the changes (live updates, audit) in one place.

    /** A project is being deleted: its entries go with it. */
    async deleteOnProject(tx: Db, writer: WriteBy, projectId: string): Promise<number> {
      const entries = await repo.deleteOnProject(tx, writer.workspaceId, projectId);
      await publish(tx, 'deleted', writer, touched(entries));
      return entries.length;
    },

    /** Tasks are being deleted: their entries keep the project and lose the task. */
    async detachTasks(tx: Db, writer: WriteBy, taskIds: string[]): Promise<number> {
      const entries = await repo.detachTasks(tx, writer.workspaceId, taskIds);
      await publish(tx, 'updated', writer, touched(entries));
      return entries.length;
    },

    /** Tags are being deleted: every entry loses them. */
    async removeTags(tx: Db, writer: WriteBy, tagIds: string[]): Promise<number> {
      const entries = await repo.taggedWith(tx, writer.workspaceId, tagIds);
      await repo.untag(tx, writer.workspaceId, tagIds);
      await publish(tx, 'updated', writer, touched(entries));
      return entries.length;
    },

    /** A tag is merged into another: its entries carry `intoId` instead; returns how many gained it. */
    async retag(tx: Db, writer: WriteBy, fromId: string, intoId: string): Promise<number> {
      const entries = await repo.taggedWith(tx, writer.workspaceId, [fromId]);
      const moved = await repo.retag(tx, writer.workspaceId, fromId, intoId);
      await publish(tx, 'updated', writer, touched(entries));
      return moved;
    },

    /** Stores finished entries read from a file (their projects, tasks and tags exist in `tx`). */
    async importEntries(tx: Db, writer: WriteBy, entries: StoppedEntryValues[]): Promise<number> {
      for (const e of entries) {
        if (e.end_at.getTime() < e.start_at.getTime()) {
          throw validationError({ end: 'The end must be after the start.' });
        }
      }
      await repo.insertStopped(tx, writer.workspaceId, entries);
      await publish(tx, 'created', writer, touched(entries));
      return entries.length;
    },

    /** Forgets idempotency keys older than a day; retries come within seconds, not days. */
    async pruneIdempotencyKeys(): Promise<void> {
      await purgeIdempotencyKeys(db);
      await repo.pruneTrash(db, new Date(Date.now() - UNDO_WINDOW_MS));
    },

    /**
     * Who may follow whose changes live: one's own, or others' with time:view_others (a manager:
     * their people only). `userId` null follows everyone in `only` (every member when it is null).
     */
    async streamTarget(
      actor: Actor,
      userId: string | undefined,
    ): Promise<{ userId: string | null; only: Set<string> | null }> {
      if (userId === 'all') {
        assertCan(actor, 'time:view_others');
        const scope = await othersTimeScope(db, actor);
        return { userId: null, only: scope ? new Set([actor.userId, ...scope]) : null };
      }
      return { userId: await targetUser(db, actor, userId, 'view'), only: null };
    },

    /** The people whose timesheet the actor may open (the "Timesheet of" picker): self first. */
    async people(actor: Actor): Promise<{ userId: string; name: string; email: string }[]> {
      assertCan(actor, 'time:track');
      const workspaceId = actor.membership.workspace.id;
      if (!can(actor.membership.role, 'time:view_others')) {
        return repo.activeMembers(db, workspaceId, [actor.userId]);
      }
      const scope = await othersTimeScope(db, actor);
      const people = await repo.activeMembers(db, workspaceId, scope ? [actor.userId, ...scope] : undefined);
      return [...people.filter((p) => p.userId === actor.userId), ...people.filter((p) => p.userId !== actor.userId)];
    },

    /** Whether the session that opened a live stream still lets its user in (not ended, expired or disabled). */
    streamAllowed(input: { sessionSecret: string; workspaceId: string; userId: string }): Promise<boolean> {
      return repo.sessionStillValid(db, { ...input, sessionHash: hashSecret(input.sessionSecret), now: new Date() });
    },
  };

  async function loadForBulk(tx: Db, actor: Actor, ids: string[]): Promise<EntryWithRelations[]> {
    assertCan(actor, 'time:track');
    const unique = [...new Set(ids)];
    const entries = await repo.findMany(tx, actor.membership.workspace.id, unique);
    const visible: EntryWithRelations[] = [];
    for (const e of entries) if (await reaches(tx, actor, e.user_id, 'view')) visible.push(e);
    if (visible.length !== unique.length) throw notFound('Some of these time entries were not found.');
    for (const e of visible) await assertEditable(tx, actor, e);
    return visible;
  }
}

export type TimeEntriesService = ReturnType<typeof createTimeEntriesService>;
