import type { Db } from '../../db/connection.js';
import { validationError } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import { assertUnlocked, type LockWriter, lockWriter } from './time-entries.locks.js';
import {
  type RepriceSelection,
  timeEntriesRepository as repo,
  type StoppedEntryValues,
} from './time-entries.repository.js';
import { publisher, touched, type WriteBy } from './time-entries.shared.js';
import { assertTagRules, assertTagRulesKept } from './time-entries.tag-rules.js';

/**
 * Writes of other modules to time entries, inside their transaction `tx`: the one write path for
 * time. The caller has checked its own permission (projects:manage, tags:manage, imports); these
 * keep the entries' rules and announce the changes (live updates, audit) in one place.
 */
export function createWrites(events: EventBus) {
  const publish = publisher(events);
  return {
    /**
     * The writer these writes take: the actor (or the member a job writes for), with what the
     * locks let them change decided by access.ts from their permissions in force.
     */
    writerOf: lockWriter,

    /** A project is being deleted: its entries go with it (409 time_locked when any is locked). */
    async deleteOnProject(tx: Db, writer: LockWriter, projectId: string): Promise<number> {
      const targets = await repo.lockTargetsOf(tx, writer.workspaceId, { projectId });
      await assertUnlocked(tx, writer, targets, 'Deleting this project');
      const entries = await repo.deleteOnProject(tx, writer.workspaceId, projectId);
      await publish(tx, 'deleted', writer, touched(entries));
      return entries.length;
    },

    /** Tasks are being deleted: their entries keep the project and lose the task (409 when any is locked). */
    async detachTasks(tx: Db, writer: LockWriter, taskIds: string[]): Promise<number> {
      const targets = await repo.lockTargetsOf(tx, writer.workspaceId, { taskIds });
      await assertUnlocked(tx, writer, targets, taskIds.length > 1 ? 'Deleting these tasks' : 'Deleting this task');
      const entries = await repo.detachTasks(tx, writer.workspaceId, taskIds);
      await publish(tx, 'updated', writer, touched(entries));
      return entries.length;
    },

    /** Tags are being deleted: every entry loses them (409 when any such entry is locked). */
    async removeTags(tx: Db, writer: LockWriter, tagIds: string[]): Promise<number> {
      const targets = await repo.lockTargetsOf(tx, writer.workspaceId, { tagIds });
      await assertUnlocked(tx, writer, targets, tagIds.length > 1 ? 'Deleting these tags' : 'Deleting this tag');
      const entries = await repo.taggedWith(tx, writer.workspaceId, tagIds);
      await repo.untag(tx, writer.workspaceId, tagIds);
      await publish(tx, 'updated', writer, touched(entries));
      return entries.length;
    },

    /**
     * A tag is merged into another: its entries carry `intoId` instead; returns how many gained it.
     * Refused (409) when any of them is locked, and (422) when it would make one break a tag rule.
     */
    async retag(tx: Db, writer: LockWriter, fromId: string, intoId: string): Promise<number> {
      const entries = await repo.carryingTag(tx, writer.workspaceId, fromId);
      await assertUnlocked(
        tx,
        writer,
        entries.map((e) => ({ userId: e.user_id, at: e.start_at })),
        'Merging this tag',
      );
      await assertTagRulesKept(
        tx,
        writer.workspaceId,
        entries.map((e) => {
          const before = { projectId: e.project_id, tagIds: e.tag_ids, stopped: e.stopped };
          return { before, after: { ...before, tagIds: [...e.tag_ids.filter((id) => id !== fromId), intoId] } };
        }),
      );
      const moved = await repo.retag(tx, writer.workspaceId, fromId, intoId);
      await publish(tx, 'updated', writer, touched(entries));
      return moved;
    },

    /**
     * Rates re-applied (the caller checked rates:manage): the selection's entries whose copied rates
     * differ from those in force at their start get those, but for the ones locked to the writer
     * and the ones on a client invoice, which keep theirs; returns how many changed.
     */
    async reprice(tx: Db, writer: LockWriter, selection: RepriceSelection): Promise<number> {
      const entries = await repo.reprice(tx, writer, selection);
      await publish(tx, 'updated', writer, touched(entries));
      return entries.length;
    },

    /** What `reprice` would change and would leave out (`lock`, `invoiced`), read in `db` (or the caller's transaction). */
    repriceCandidates(dbOrTx: Db, writer: LockWriter, selection: RepriceSelection) {
      return repo.repriceCandidates(dbOrTx, writer, selection);
    },

    /** Client invoices: entries issued on an invoice are invoiced (`at`), a voided invoice's are not (null). */
    async markInvoiced(tx: Db, writer: WriteBy, ids: string[], at: Date | null): Promise<number> {
      const entries = await repo.setInvoiced(tx, writer.workspaceId, ids, at);
      await publish(tx, 'updated', writer, touched(entries));
      return entries.length;
    },

    /** Stores finished entries read from a file (their projects, tasks and tags exist in `tx`). */
    async importEntries(tx: Db, writer: LockWriter, entries: StoppedEntryValues[]): Promise<number> {
      for (const e of entries) {
        if (e.end_at.getTime() < e.start_at.getTime()) {
          throw validationError({ end: 'The end must be after the start.' });
        }
      }
      await assertUnlocked(
        tx,
        writer,
        entries.map((e) => ({ userId: e.user_id, at: e.start_at })),
      );
      const ruled = entries.map((e) => ({ projectId: e.project_id, tagIds: e.tagIds, stopped: true }));
      await assertTagRules(tx, writer.workspaceId, ruled);
      await repo.insertStopped(tx, writer.workspaceId, entries);
      await publish(tx, 'created', writer, touched(entries));
      return entries.length;
    },
  };
}
