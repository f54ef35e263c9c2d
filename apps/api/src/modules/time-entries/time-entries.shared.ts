import {
  DEFAULT_TIME_SETTINGS,
  type TimeEntryView,
  type TimeLockView,
  type TimeSettings,
  timeLockOf,
  workSeconds,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import {
  allows,
  assertCan,
  type MoneyAccess,
  moneyAccessOf,
  outOfTimeScope,
  passesLockDate,
  reachesTimeOf,
} from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError, forbidden, notFound } from '../../platform/errors.js';
import type { EventBus, TimeEntriesChanged } from '../../platform/events.js';
import { idempotent, type WriteResult } from '../../platform/idempotency.js';
import { NO_MONEY, presentEntry, presentSettings } from './time-entries.presenter.js';
import {
  type EntryWithRelations,
  timeEntriesRepository as repo,
  type TouchedEntry,
} from './time-entries.repository.js';

/**
 * What the parts of the time-entries service share: whose time the actor touches, the workspace's
 * time settings, the stored work seconds, and the one way changed entries are announced.
 */

/**
 * Who changes time entries through another module's write (a project or tag deleted, a file
 * imported), in which workspace: the caller has checked its own permission for that write.
 */
export interface WriteBy {
  workspaceId: string;
  actorUserId: string | null;
}

export const by = (actor: Actor): WriteBy => ({
  workspaceId: actor.membership.workspace.id,
  actorUserId: actor.userId,
});
export const touched = (entries: TouchedEntry[]) => entries.map((e) => ({ id: e.id, userId: e.user_id }));

/** Clock skew allowed between a browser and the server. */
export const SKEW_MS = 60_000;
export const wholeSecond = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

export const conflict = (code: string, message: string) => new AppError(code, message, { status: 409 });

export function entryWork(e: Pick<EntryWithRelations, 'id' | 'start_at' | 'end_at' | 'breaks'>, now: Date): number {
  return workSeconds(
    { id: e.id, start: e.start_at, end: e.end_at, breaks: e.breaks.map((b) => ({ start: b.start_at, end: b.end_at })) },
    now,
  );
}

export async function settingsOf(dbOrTx: Db, workspaceId: string): Promise<TimeSettings> {
  const row = await repo.findSettings(dbOrTx, workspaceId);
  return row ? presentSettings(row) : DEFAULT_TIME_SETTINGS;
}

/** The user whose timesheet is touched: the actor, or another member with time:edit_others. */
export async function targetUser(tx: Db, actor: Actor, userId: string | undefined, permission: 'view' | 'edit') {
  assertCan(actor, 'time:track');
  if (!userId || userId === actor.userId) return actor.userId;
  const needed = permission === 'view' ? 'time:view_others' : 'time:edit_others';
  if (!allows(actor.membership, needed)) throw forbidden();
  if (!(await reachesTimeOf(tx, actor, userId, permission))) throw outOfTimeScope();
  const member = await repo.findMember(tx, actor.membership.workspace.id, userId);
  // Past time of a removed member stays readable; nobody books new time for them.
  if (!member || (permission === 'edit' && member.status === 'removed')) throw notFound('Member not found.');
  return userId;
}

/** The entry, when the actor may see it (own, or others' with time:view_others); 404 otherwise. */
export async function getVisible(dbOrTx: Db, actor: Actor, id: string): Promise<EntryWithRelations> {
  assertCan(actor, 'time:track');
  const entry = await repo.find(dbOrTx, actor.membership.workspace.id, id);
  if (!entry) throw notFound('Time entry not found.');
  if (!(await reachesTimeOf(dbOrTx, actor, entry.user_id, 'view'))) throw notFound('Time entry not found.');
  return entry;
}

export async function assertEditable(dbOrTx: Db, actor: Actor, entry: { user_id: string }): Promise<void> {
  if (!(await reachesTimeOf(dbOrTx, actor, entry.user_id, 'edit'))) throw forbidden();
}

export async function present(dbOrTx: Db, actor: Actor, id: string, now = new Date()): Promise<TimeEntryView> {
  const entry = await repo.find(dbOrTx, actor.membership.workspace.id, id);
  if (!entry) throw notFound('Time entry not found.');
  return presentEntry(entry, now, await moneyFor(dbOrTx, actor, [entry]));
}

/**
 * Whose rates and amounts the actor sees among these entries (moneyAccessOf). Entries without a
 * rate show none whoever asks, so the common case of a workspace without rates asks nothing.
 */
export async function moneyFor(
  dbOrTx: Db,
  actor: Actor,
  entries: readonly { billable_rate_cents: number | null; cost_rate_cents: number | null }[],
): Promise<MoneyAccess> {
  if (entries.every((e) => e.billable_rate_cents === null && e.cost_rate_cents === null)) return NO_MONEY;
  return moneyAccessOf(dbOrTx, actor);
}

/**
 * The locks these entries are under for the actor (`timeLockOf`, the rule every write checks):
 * entry id to lock, entries on none left out.
 */
export async function locksFor(
  dbOrTx: Db,
  actor: Actor,
  entries: readonly { id: string }[],
): Promise<Map<string, TimeLockView>> {
  const facts = await repo.lockFacts(
    dbOrTx,
    actor.membership.workspace.id,
    entries.map((e) => e.id),
  );
  const viewer = { userId: actor.userId, passesLockDate: passesLockDate(actor) };
  const locks = new Map<string, TimeLockView>();
  for (const [id, f] of facts) {
    const lock = timeLockOf(f, viewer);
    if (lock) locks.set(id, lock);
  }
  return locks;
}

/** Tag ids as an entry reads them back: each once, in order. */
export const uniqueSorted = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))].sort();

export type Publish = (
  tx: Db,
  type: 'created' | 'updated' | 'deleted',
  writer: WriteBy,
  entries: { id: string; userId: string }[],
  /** One entry's edit: what changed (see `changesOf`), for the audit log. */
  changes?: EntryChanges,
) => Promise<void>;

export type EntryChanges = NonNullable<TimeEntriesChanged['changes']>;

type Audited = Pick<
  EntryWithRelations,
  'start_at' | 'end_at' | 'duration_seconds' | 'project_id' | 'task_id' | 'note' | 'billable' | 'tag_ids'
>;

/**
 * The fields of an entry that an edit changed, before and after, so the audit log shows what an
 * approver (or anyone) changed on someone's time; instants as ISO strings.
 */
export function changesOf(before: Audited, after: Audited): EntryChanges {
  const view = (e: Audited) => ({
    start: e.start_at.toISOString(),
    end: e.end_at?.toISOString() ?? null,
    durationSeconds: e.duration_seconds,
    projectId: e.project_id,
    taskId: e.task_id,
    note: e.note,
    billable: e.billable,
    tagIds: e.tag_ids.join(','),
  });
  const [b, a] = [view(before), view(after)];
  const changes: EntryChanges = {};
  for (const key of Object.keys(b) as (keyof typeof b)[]) {
    if (b[key] !== a[key]) {
      changes[key] =
        key === 'tagIds' ? { before: before.tag_ids, after: after.tag_ids } : { before: b[key], after: a[key] };
    }
  }
  return changes;
}

/**
 * Announces changed entries from inside the writing transaction, one event per person whose
 * entries they are: the bus audits it there and delivers it to live streams once it commits.
 */
export function publisher(events: EventBus): Publish {
  return async (tx, type, writer, entries, changes) => {
    const byUser = new Map<string, string[]>();
    for (const e of entries) byUser.set(e.userId, [...(byUser.get(e.userId) ?? []), e.id]);
    for (const [userId, entryIds] of byUser) {
      await events.publish(tx, {
        name: `time_entry.${type}`,
        workspaceId: writer.workspaceId,
        actorUserId: writer.actorUserId,
        payload: { userId, entryIds, ...(changes ? { changes } : {}) },
      });
    }
  };
}

/** Runs a retried write once per Idempotency-Key of the actor (platform/idempotency.ts). */
export function once<T>(
  tx: Db,
  actor: Actor,
  key: string | undefined,
  request: { operation: string; body: unknown },
  work: () => Promise<WriteResult<T>>,
): Promise<WriteResult<T>> {
  return idempotent(tx, { key, workspaceId: actor.membership.workspace.id, userId: actor.userId, ...request }, work);
}
