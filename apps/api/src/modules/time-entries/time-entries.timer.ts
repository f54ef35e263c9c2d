import type { RunningTimerView, TimeEntryView } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { allows, assertCan, othersTimeScope } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { type ConstraintTable, constraintViolation } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import { assertUnlocked, lockWriter } from './time-entries.locks.js';
import { presentEntry } from './time-entries.presenter.js';
import { type EntryWithRelations, timeEntriesRepository as repo } from './time-entries.repository.js';
import {
  by,
  conflict,
  entryWork,
  moneyFor,
  once,
  present,
  publisher,
  settingsOf,
  targetUser,
  uniqueSorted,
  wholeSecond,
} from './time-entries.shared.js';
import { assertTagRules } from './time-entries.tag-rules.js';
import { assertRequired, type EntryInput, resolveRefs } from './time-entries.validation.js';

const RUNNING_CONSTRAINTS: ConstraintTable = {
  time_entries_one_running_key: {
    code: 'timer_already_running',
    message: 'A timer was started at the same moment; it is running now.',
  },
};

/**
 * Ends the running entry (read and locked by the caller) at `at`, closing an open break, and
 * stores its work seconds; undefined when another request stopped it first. Returns it as stored.
 */
async function stopEntry(tx: Db, workspaceId: string, running: EntryWithRelations, at: Date) {
  const breaks = running.breaks.map((b) => ({ start_at: b.start_at, end_at: b.end_at ?? at }));
  const work = entryWork({ ...running, end_at: at, breaks }, at);
  const row = await repo.stop(tx, workspaceId, running.id, at, work);
  if (!row) return undefined;
  if (running.breaks.some((b) => b.end_at === null)) await repo.closeBreak(tx, workspaceId, running.id, at);
  return { ...row, tag_ids: running.tag_ids, breaks };
}

/** The running timer of a person: start, stop, pause, resume, discard. */
export function createTimer(db: Db, events: EventBus) {
  const publish = publisher(events);
  return {
    /** The user's running timer, or null. */
    async running(actor: Actor, userId?: string): Promise<TimeEntryView | null> {
      const target = await targetUser(db, actor, userId, 'view');
      const entry = await repo.findRunning(db, actor.membership.workspace.id, target);
      return entry ? presentEntry(entry, new Date(), await moneyFor(db, actor, [entry])) : null;
    },

    /**
     * The running timers the actor may see (the real-time dashboard): their own only without
     * time:view_others, a manager's people and their own, everyone's for owners and admins.
     */
    async team(actor: Actor): Promise<RunningTimerView[]> {
      assertCan(actor, 'time:track');
      const workspaceId = actor.membership.workspace.id;
      const scope = allows(actor.membership, 'time:view_others') ? await othersTimeScope(db, actor) : new Set<string>();
      const rows = await repo.listRunning(db, workspaceId, scope ? [actor.userId, ...scope] : undefined);
      const now = new Date();
      const money = await moneyFor(db, actor, rows);
      return rows.map((row) => ({
        entry: presentEntry(row, now, money),
        userName: row.user_name,
        projectName: row.project_name,
        projectColor: row.project_color,
        taskName: row.task_name,
      }));
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
            const ruled = { projectId: refs.project_id ?? null, tagIds: input.tagIds ?? [], stopped: false };
            await assertTagRules(tx, workspaceId, [ruled]);
            const now = wholeSecond(Date.now());
            const running = await repo.findRunningForUpdate(tx, workspaceId, userId);
            await assertUnlocked(tx, lockWriter(actor), [
              { userId, at: now },
              ...(running ? [{ userId, at: running.start_at }] : []),
            ]);
            const stopped = running && (await stopEntry(tx, workspaceId, running, now));
            const entry = await repo.insert(tx, {
              workspace_id: workspaceId,
              user_id: userId,
              project_id: refs.project_id,
              task_id: refs.task_id,
              note: input.note ?? '',
              billable: input.billable ?? refs.billableDefault ?? false,
              start_at: now,
              created_by_user_id: actor.userId,
            });
            const tagIds = uniqueSorted(input.tagIds ?? []);
            await repo.setTags(tx, workspaceId, entry.id, tagIds, { fresh: true });
            if (stopped) await publish(tx, 'updated', by(actor), [{ id: stopped.id, userId }]);
            await publish(tx, 'created', by(actor), [{ id: entry.id, userId }]);
            const money = await moneyFor(tx, actor, stopped ? [entry, stopped] : [entry]);
            return {
              status: 201,
              body: {
                entry: presentEntry({ ...entry, tag_ids: tagIds, breaks: [] }, now, money),
                stopped: stopped ? presentEntry(stopped, now, money) : null,
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
          // Locked: a second stop at the same moment waits here, then finds nothing running.
          const running = await repo.findRunningForUpdate(tx, workspaceId, target);
          if (!running) throw conflict('no_running_timer', 'No timer is running.');
          await assertUnlocked(tx, lockWriter(actor), [{ userId: target, at: running.start_at }]);
          const settings = await settingsOf(tx, workspaceId);
          assertRequired(settings, { ...running, tagCount: running.tag_ids.length }, ' before stopping the timer');
          const ruled = { projectId: running.project_id, tagIds: running.tag_ids, stopped: true };
          await assertTagRules(tx, workspaceId, [ruled], ' before stopping the timer');
          const now = wholeSecond(Date.now());
          const stopped = await stopEntry(tx, workspaceId, running, now);
          if (!stopped) throw conflict('no_running_timer', 'No timer is running.');
          await publish(tx, 'updated', by(actor), [{ id: stopped.id, userId: target }]);
          return { status: 200, body: presentEntry(stopped, now, await moneyFor(tx, actor, [stopped])) };
        }),
      );
    },

    async pause(actor: Actor, userId?: string): Promise<TimeEntryView> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const target = await targetUser(tx, actor, userId, 'edit');
        const running = await repo.findRunningForUpdate(tx, workspaceId, target);
        if (!running) throw conflict('no_running_timer', 'No timer is running.');
        if (running.breaks.some((b) => b.end_at === null))
          throw conflict('timer_paused', 'The timer is already paused.');
        await assertUnlocked(tx, lockWriter(actor), [{ userId: target, at: running.start_at }]);
        const now = wholeSecond(Date.now());
        await repo.openBreak(tx, workspaceId, running.id, now);
        await repo.update(tx, workspaceId, [running.id], {});
        await publish(tx, 'updated', by(actor), [{ id: running.id, userId: target }]);
        return present(tx, actor, running.id, now);
      });
    },

    async resume(actor: Actor, userId?: string): Promise<TimeEntryView> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const target = await targetUser(tx, actor, userId, 'edit');
        const running = await repo.findRunningForUpdate(tx, workspaceId, target);
        if (!running) throw conflict('no_running_timer', 'No timer is running.');
        await assertUnlocked(tx, lockWriter(actor), [{ userId: target, at: running.start_at }]);
        const now = wholeSecond(Date.now());
        if (!(await repo.closeBreak(tx, workspaceId, running.id, now))) {
          throw conflict('timer_not_paused', 'The timer is not paused.');
        }
        await repo.update(tx, workspaceId, [running.id], {});
        await publish(tx, 'updated', by(actor), [{ id: running.id, userId: target }]);
        return present(tx, actor, running.id, now);
      });
    },

    /** Throws the running timer away without keeping an entry. */
    async discard(actor: Actor, userId?: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const target = await targetUser(tx, actor, userId, 'edit');
        const running = await repo.findRunningForUpdate(tx, workspaceId, target);
        if (!running) throw conflict('no_running_timer', 'No timer is running.');
        await assertUnlocked(tx, lockWriter(actor), [{ userId: target, at: running.start_at }]);
        await repo.delete(tx, workspaceId, [running.id]);
        await publish(tx, 'deleted', by(actor), [{ id: running.id, userId: target }]);
      });
    },
  };
}
