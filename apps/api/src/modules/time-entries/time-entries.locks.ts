import { type ApprovalStatus, approvalMessages, type TimeLockFacts, timeLockOf } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { prepared } from '../../db/prepared.js';
import { passesLockDate } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import type { WriteBy } from './time-entries.shared.js';

/**
 * The locks on time (issue 17), checked by every write of the one write path for time before it
 * changes anything: an entry belongs to the local day (its owner's time zone) it starts on, and
 *
 * - a day before the workspace's lock date is changed only by those who may move it (access.ts
 *   `passesLockDate`: owners and admins, and custom roles holding approvals:settings);
 * - a day of an approved period is changed by nobody until the approval is withdrawn;
 * - a day of a submitted period is closed to its owner; their approvers may still change it (the
 *   time-entry events audit who did).
 *
 * The owners' membership rows are held (`for key share`) until the write commits, and submitting
 * a period takes its owner's row `for update`, so a write and a submission of the same time never
 * pass each other.
 */

/** One person's time at one instant that a write touches (an entry's start, old or new). */
export interface LockTarget {
  userId: string;
  at: Date;
}

export const timeLocked = (message: string) => new AppError('time_locked', message, { status: 409 });

interface LockRow extends LockFactsRow {
  name: string;
}

/**
 * The locks met by these (person, instant) pairs, with the owners' membership rows taken (`for key
 * share`, held until the write commits) with `skip locked`, in the statement that reads the locks:
 * one round trip, built and compiled once (every time write sends it). `held` below `members`
 * means a row was skipped: a submission or an approval holds it (`for update`), see `readLocks`.
 */
const locksQuery = prepared(
  ['workspaceId', 'userIds', 'ids', 'ats'],
  (db, v: { workspaceId: string; userIds: string[]; ids: string[]; ats: string[] }) => ({
    compile: () =>
      sql<LockRow & { held: number; members: number }>`
    with locked as materialized (
      select m.user_id from memberships m
      where m.workspace_id = ${v.workspaceId} and m.user_id = any(${v.userIds}::uuid[])
      for key share skip locked
    ),
    t as (
      select t.user_id, coalesce(nullif(u.name, ''), u.email) as name, (t.at at time zone u.time_zone)::date as day
      from unnest(${v.ids}::uuid[], ${v.ats}::timestamptz[]) as t (user_id, at)
      join users u on u.id = t.user_id
    ),
    met as (
      select t.user_id, t.name, to_char(t.day, 'YYYY-MM-DD') as day, to_char(s.lock_date, 'YYYY-MM-DD') as lock_date,
        a.status, to_char(a.period_start, 'YYYY-MM-DD') as period_start, to_char(a.period_end, 'YYYY-MM-DD') as period_end,
        a.status = 'approved' as approved, t.day as sort_day
      from t
      left join approval_settings s on s.workspace_id = ${v.workspaceId}
      left join approvals a on a.workspace_id = ${v.workspaceId} and a.user_id = t.user_id
        and a.status in ('submitted', 'approved') and a.period_start <= t.day and a.period_end >= t.day
      where t.day < s.lock_date or a.id is not null
    )
    select (select count(*) from locked)::int as held,
      (select count(*) from memberships m where m.workspace_id = ${v.workspaceId} and m.user_id = any(${v.userIds}::uuid[]))::int as members,
      met.user_id, met.name, met.day, met.lock_date, met.status, met.period_start, met.period_end
    from (select 1) as one
    left join met on true
    order by met.approved desc nulls last, met.sort_day
  `.compile(db),
  }),
);

/**
 * A writer the locks judge: who writes, and whether they pass the workspace's lock date, as access.ts
 * decides it from their permissions in force (custom roles and the plan included). Writes of other
 * modules take one too, so nothing here reads a stored role.
 */
export interface LockWriter extends WriteBy {
  passesLockDate: boolean;
}

/** The writer of an HTTP write (the actor), or of a job's (the member it writes for, in force now). */
export const lockWriter = (who: Pick<Actor, 'userId' | 'membership'>): LockWriter => ({
  workspaceId: who.membership.workspace.id,
  actorUserId: who.userId,
  passesLockDate: passesLockDate(who),
});

/**
 * Throws 409 time_locked naming the first lock met. `doing` ("Deleting this project") marks a write
 * of other modules that changes many people's time: the refusal says what was refused and whose
 * approved time stood in the way.
 */
export async function assertUnlocked(tx: Db, writer: LockWriter, targets: LockTarget[], doing?: string) {
  if (targets.length === 0) return;
  const userIds = [...new Set(targets.map((t) => t.userId))];
  const unique = new Map(targets.map((t) => [`${t.userId}|${t.at.toISOString()}`, t]));
  const ids = [...unique.values()].map((t) => t.userId);
  const ats = [...unique.values()].map((t) => t.at.toISOString());
  const rows = await readLocks(tx, { workspaceId: writer.workspaceId, userIds, ids, ats });
  if (rows.length === 0) return;
  const refuse = (reason: string) => timeLocked(doing ? approvalMessages.cleanupLocked(doing, reason) : reason);
  for (const row of rows) {
    const whose = doing && row.user_id !== writer.actorUserId ? row.name : undefined;
    const lock = timeLockOf(
      lockFactsOf(row),
      { userId: writer.actorUserId, passesLockDate: writer.passesLockDate },
      whose,
    );
    if (lock) throw refuse(lock.reason);
  }
}

/** The lock columns of a row (`locksQuery`, the repository's `lockFacts`). */
export interface LockFactsRow {
  user_id: string;
  day: string;
  lock_date: string | null;
  status: ApprovalStatus | null;
  period_start: string | null;
  period_end: string | null;
  on_invoice?: boolean;
  invoice_number?: string | null;
}

/** A row's lock columns as the facts `timeLockOf` decides on: the one mapper of both readers. */
export const lockFactsOf = (row: LockFactsRow): TimeLockFacts => ({
  userId: row.user_id,
  day: row.day,
  lockDate: row.lock_date,
  approval:
    row.status && row.period_start && row.period_end
      ? { status: row.status, start: row.period_start, end: row.period_end }
      : null,
  ...(row.on_invoice === undefined ? {} : { invoice: row.on_invoice ? { number: row.invoice_number ?? null } : null }),
});

/**
 * The locks met, with the owners' membership rows held until the write commits. When `locksQuery`
 * skipped a row (a submission or an approval holds it), its statement's snapshot predates that
 * commit: the rows are then taken waiting, and the locks read again by a statement that sees it.
 */
async function readLocks(tx: Db, v: { workspaceId: string; userIds: string[]; ids: string[]; ats: string[] }) {
  const rows = await locksQuery(tx, v);
  if ((rows[0]?.held ?? 0) < (rows[0]?.members ?? 0)) {
    await sql`select 1 from memberships m
      where m.workspace_id = ${v.workspaceId} and m.user_id = any(${v.userIds}::uuid[])
      for key share`.execute(tx);
    return readLocks(tx, v);
  }
  return rows.filter((row) => row.user_id !== null);
}

/** Why a write by `writer` may not change an entry, as `assertUnlocked` decides it. */
export type EntryLock = 'approved' | 'lock_date' | 'submitted';

/**
 * `assertUnlocked`'s rules as a column of a query over entries `e` joined to their owners `u`:
 * the lock that closes the entry to `writer`, or null. For writes that leave locked entries out
 * instead of refusing (re-applying rates).
 */
export function entryLockOf(writer: LockWriter) {
  const day = sql`(e.start_at at time zone u.time_zone)::date`;
  const period = (status: 'approved' | 'submitted') => sql`exists (select 1 from approvals a
    where a.workspace_id = e.workspace_id and a.user_id = e.user_id and a.status = ${status}
      and a.period_start <= ${day} and a.period_end >= ${day})`;
  // The writer's pass is decided before the query (access.ts), so the statement reads no role.
  const beforeLockDate = writer.passesLockDate
    ? sql`false`
    : sql`${day} < (select s.lock_date from approval_settings s where s.workspace_id = e.workspace_id)`;
  return sql<EntryLock | null>`case
    when ${period('approved')} then 'approved'
    when ${beforeLockDate} then 'lock_date'
    when e.user_id = ${writer.actorUserId} and ${period('submitted')} then 'submitted'
  end`;
}
