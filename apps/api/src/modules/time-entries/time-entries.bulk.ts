import type { TimeEntryView } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan, reachesTimeOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { notFound, validationError } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import { purgeIdempotencyKeys } from '../../platform/idempotency.js';
import { assertUnlocked, lockWriter } from './time-entries.locks.js';
import { presentEntry } from './time-entries.presenter.js';
import { type EntryValues, type EntryWithRelations, timeEntriesRepository as repo } from './time-entries.repository.js';
import { assertEditable, by, moneyFor, publisher, settingsOf } from './time-entries.shared.js';
import { assertTagRules } from './time-entries.tag-rules.js';
import { assertRequired, type EntryInput, resolveRefs } from './time-entries.validation.js';

/** How long a deleted entry can be brought back with Undo. */
export const UNDO_WINDOW_MS = 10 * 60_000;

/** Changes to many entries at once, and the Undo of a delete (of one entry or many). */
export function createBulk(db: Db, events: EventBus) {
  const publish = publisher(events);
  return {
    /** Sets the same fields on every entry; tags are set, or added and removed. */
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
        const movesProject = set.projectId !== undefined || set.taskId !== undefined;
        const ruled = entries.map((e) => ({
          projectId: movesProject ? (refs.project_id ?? null) : e.project_id,
          tagIds: tagsOf(e) ?? e.tag_ids,
          stopped: e.end_at !== null,
        }));
        await assertTagRules(tx, workspaceId, ruled);
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
          const reprice =
            (values.project_id !== undefined && values.project_id !== entry.project_id) ||
            (values.task_id !== undefined && values.task_id !== entry.task_id);
          await repo.update(tx, workspaceId, [entry.id], values, reprice);
          if (newTags) await repo.setTags(tx, workspaceId, entry.id, newTags);
        }
        await publish(
          tx,
          'updated',
          by(actor),
          entries.map((e) => ({ id: e.id, userId: e.user_id })),
        );
        return presentAll(tx, actor, await repo.findMany(tx, workspaceId, ids));
      });
    },

    /**
     * Marks entries invoiced (now) or not invoiced, for those who may edit their time; entries
     * already so are left as they are. 404 when an id is not in the workspace or its time is
     * out of the actor's reach. Returns how many entries changed.
     */
    async setInvoiced(actor: Actor, ids: string[], invoiced: boolean): Promise<number> {
      assertCan(actor, 'time:track');
      const workspaceId = actor.membership.workspace.id;
      const unique = [...new Set(ids)];
      return db.transaction().execute(async (tx) => {
        const owners = await repo.ownersOf(tx, workspaceId, unique);
        if (owners.length !== unique.length) throw notFound('Some of these time entries were not found.');
        // Entries of time out of the actor's reach are not found, as a bulk change says (loadForBulk).
        const others = [...new Set(owners.map((e) => e.user_id).filter((id) => id !== actor.userId))];
        for (const userId of others)
          if (!(await reachesTimeOf(tx, actor, userId, 'edit')))
            throw notFound('Some of these time entries were not found.');
        const changed = await repo.setInvoiced(tx, workspaceId, unique, invoiced ? new Date() : null);
        await publish(
          tx,
          'updated',
          by(actor),
          changed.map((e) => ({ id: e.id, userId: e.user_id })),
        );
        return changed.length;
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
        for (const row of rows) if (await reachesTimeOf(tx, actor, row.user_id, 'edit')) allowed.push(row);
        if (allowed.length !== unique.length) {
          throw notFound('These entries can no longer be restored: Undo works for 10 minutes after a delete.');
        }
        const data = (row: (typeof rows)[number]) =>
          (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as EntryWithRelations;
        await assertUnlocked(
          tx,
          lockWriter(actor),
          allowed.map((row) => ({ userId: row.user_id, at: new Date(data(row).start_at) })),
        );
        for (const row of allowed) {
          const e = data(row);
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
            // Undo brings the entry back priced as it was, whatever the rates say now.
            rates: { billable_rate_cents: e.billable_rate_cents ?? null, cost_rate_cents: e.cost_rate_cents ?? null },
            invoiced_at: e.invoiced_at ? new Date(e.invoiced_at) : null,
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
        return presentAll(tx, actor, await repo.findMany(tx, workspaceId, unique));
      });
    },

    /** Forgets idempotency keys older than a day; retries come within seconds, not days. */
    async pruneIdempotencyKeys(): Promise<void> {
      await purgeIdempotencyKeys(db);
      await repo.pruneTrash(db, new Date(Date.now() - UNDO_WINDOW_MS));
    },
  };
}

/** Loads every id for a bulk change; 404 naming none when any is missing or not visible. */
async function loadForBulk(tx: Db, actor: Actor, ids: string[]): Promise<EntryWithRelations[]> {
  assertCan(actor, 'time:track');
  const unique = [...new Set(ids)];
  const entries = await repo.findMany(tx, actor.membership.workspace.id, unique);
  const visible: EntryWithRelations[] = [];
  for (const e of entries) if (await reachesTimeOf(tx, actor, e.user_id, 'view')) visible.push(e);
  if (visible.length !== unique.length) throw notFound('Some of these time entries were not found.');
  for (const e of visible) await assertEditable(tx, actor, e);
  await assertUnlocked(
    tx,
    lockWriter(actor),
    visible.map((e) => ({ userId: e.user_id, at: e.start_at })),
  );
  return visible;
}

async function presentAll(tx: Db, actor: Actor, entries: EntryWithRelations[]): Promise<TimeEntryView[]> {
  const now = new Date();
  const money = await moneyFor(tx, actor, entries);
  return entries.map((e) => presentEntry(e, now, money));
}
