import { isInstantInRange, type TimeEntryView, withBreak } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan, othersTimeScope } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { notFound, validationError } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import { isUuid } from '../../platform/ids.js';
import { assertUnlocked, lockWriter } from './time-entries.locks.js';
import { presentEntry } from './time-entries.presenter.js';
import { type EntryValues, timeEntriesRepository as repo } from './time-entries.repository.js';
import {
  assertEditable,
  by,
  changesOf,
  type EntryChanges,
  entryWork,
  getVisible,
  locksFor,
  moneyFor,
  once,
  publisher,
  SKEW_MS,
  settingsOf,
  targetUser,
  uniqueSorted,
  wholeSecond,
} from './time-entries.shared.js';
import { assertTagRules } from './time-entries.tag-rules.js';
import { assertRequired, assertTimes, type EntryInput, resolveRefs } from './time-entries.validation.js';

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

/** One's entries, one at a time: list a page, get, create by hand, change, delete. */
export function createEntries(db: Db, events: EventBus) {
  const publish = publisher(events);
  return {
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
      const [money, locks] = await Promise.all([moneyFor(db, actor, page), locksFor(db, actor, page)]);
      return {
        items: page.map((e) => presentEntry(e, now, money, locks)),
        nextCursor: rows.length > q.limit && last ? encodeCursor(last) : null,
      };
    },

    async get(actor: Actor, id: string): Promise<TimeEntryView> {
      const entry = await getVisible(db, actor, id);
      const [money, locks] = await Promise.all([moneyFor(db, actor, [entry]), locksFor(db, actor, [entry])]);
      return presentEntry(entry, new Date(), money, locks);
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
          await assertUnlocked(tx, lockWriter(actor), [{ userId, at: start }]);
          const refs = await resolveRefs(tx, actor, input, undefined, [userId]);
          const note = input.note ?? '';
          assertRequired(settings, {
            project_id: refs.project_id ?? null,
            task_id: refs.task_id ?? null,
            note,
            tagCount: input.tagIds?.length ?? 0,
          });
          const ruled = {
            projectId: refs.project_id ?? null,
            tagIds: input.tagIds ?? [],
            stopped: true,
            required: refs.requiredTagLists,
          };
          await assertTagRules(tx, workspaceId, [ruled]);
          const entry = await repo.insert(tx, {
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
          const tagIds = uniqueSorted(input.tagIds ?? []);
          await repo.setTags(tx, workspaceId, entry.id, tagIds, { fresh: true });
          await publish(tx, 'created', by(actor), [{ id: entry.id, userId }]);
          const money = await moneyFor(tx, actor, [entry]);
          return { status: 201, body: presentEntry({ ...entry, tag_ids: tagIds, breaks: [] }, now, money) };
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
        await assertUnlocked(tx, lockWriter(actor), [
          { userId: entry.user_id, at: entry.start_at },
          { userId: entry.user_id, at: start },
        ]);
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
        const projectId = values.project_id === undefined ? entry.project_id : values.project_id;
        await assertTagRules(tx, workspaceId, [
          { projectId, tagIds: input.tagIds ?? entry.tag_ids, stopped: !running },
        ]);
        // Work seconds of a stopped entry follow its times; its breaks stay as they were read.
        if (end) values.duration_seconds = entryWork({ ...entry, start_at: start, end_at: end }, now);
        // A new start, project or task copies the rates in force then; a note or tags keep them.
        const reprice =
          start.getTime() !== entry.start_at.getTime() ||
          (values.project_id !== undefined && values.project_id !== entry.project_id) ||
          (values.task_id !== undefined && values.task_id !== entry.task_id);
        const row = await repo.updateOne(tx, workspaceId, id, values, reprice);
        if (!row) throw notFound('Time entry not found.');
        const tagIds = input.tagIds ? uniqueSorted(input.tagIds) : entry.tag_ids;
        if (input.tagIds) await repo.setTags(tx, workspaceId, id, tagIds);
        const changes = changesOf(entry, { ...row, tag_ids: tagIds });
        await publish(tx, 'updated', by(actor), [{ id, userId: entry.user_id }], changes);
        return presentEntry({ ...row, tag_ids: tagIds, breaks: entry.breaks }, now, await moneyFor(tx, actor, [row]));
      });
    },

    /**
     * A break over [start, end) in each of the actor's own entries it overlaps (a running timer's
     * up to now), joined with their breaks, so their work seconds drop; in one transaction, refused
     * (409 time_locked) when any is locked. Answers the ids of the entries that changed.
     */
    async addBreaks(actor: Actor, range: { start: Date; end: Date }): Promise<string[]> {
      assertCan(actor, 'time:track');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const now = new Date();
        const ms = (d: Date | null) => (d === null ? null : d.getTime());
        const entries = await repo.list(tx, workspaceId, {
          userIds: [actor.userId],
          from: range.start,
          to: range.end,
          limit: 500,
        });
        const changed: string[] = [];
        for (const entry of entries) {
          const breaks = withBreak(
            {
              startMs: entry.start_at.getTime(),
              endMs: ms(entry.end_at),
              breaks: entry.breaks.map((b) => ({ startMs: b.start_at.getTime(), endMs: ms(b.end_at) })),
            },
            { startMs: range.start.getTime(), endMs: range.end.getTime() },
            now.getTime(),
          );
          if (!breaks) continue;
          await assertUnlocked(tx, lockWriter(actor), [{ userId: entry.user_id, at: entry.start_at }]);
          const rows = breaks.map((b) => ({ start_at: new Date(b.startMs), end_at: new Date(b.endMs) }));
          await repo.replaceClosedBreaks(tx, workspaceId, entry.id, rows);
          const after = { ...entry, breaks: [...rows, ...entry.breaks.filter((b) => b.end_at === null)] };
          let changes: EntryChanges | undefined;
          if (entry.end_at !== null) {
            const row = await repo.updateOne(tx, workspaceId, entry.id, { duration_seconds: entryWork(after, now) });
            if (row) changes = changesOf(entry, { ...row, tag_ids: entry.tag_ids });
          }
          await publish(tx, 'updated', by(actor), [{ id: entry.id, userId: entry.user_id }], changes);
          changed.push(entry.id);
        }
        return changed;
      });
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const entry = await getVisible(tx, actor, id);
        await assertEditable(tx, actor, entry);
        await assertUnlocked(tx, lockWriter(actor), [{ userId: entry.user_id, at: entry.start_at }]);
        if (entry.end_at !== null) await repo.trash(tx, [entry], actor.userId, new Date());
        await repo.delete(tx, workspaceId, [id]);
        await publish(tx, 'deleted', by(actor), [{ id, userId: entry.user_id }]);
      });
    },
  };
}
