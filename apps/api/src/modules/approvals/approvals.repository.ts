import { type ApprovalSettings, type ApprovalStatus, DEFAULT_APPROVAL_SETTINGS, type Role } from '@sundial/core';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Database } from '../../db/tables.js';
import type { StoredMembership } from '../../platform/actor.js';
import { customRoleColumns, customRoleFields } from '../roles/roles.membership-columns.js';

/** An approval as the presenter reads it: its days as YYYY-MM-DD, names and tracked seconds joined. */
export interface ApprovalRow {
  id: string;
  user_id: string;
  user_name: string;
  period_start: string;
  period_end: string;
  status: ApprovalStatus;
  comment: string;
  submitted_at: Date;
  decided_at: Date | null;
  decided_by_name: string | null;
  tracked_seconds: number;
}

/** The person whose periods are asked about: their time zone and week start make their periods. */
export interface PeriodOwner {
  user_id: string;
  role: Role;
  status: string;
  time_zone: string;
  week_start: string;
  email: string;
  name: string;
}

/** A member as the reminders and the approvers' notices read them. */
export interface Member extends PeriodOwner, Pick<StoredMembership, 'customRole' | 'groupRolePermissions'> {}

const day = (column: string) => sql<string>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

function selectApprovals(
  db: Db,
  workspaceId: string,
): SelectQueryBuilder<Database, 'approvals' | 'users', ApprovalRow> {
  return db
    .selectFrom('approvals')
    .innerJoin('users', 'users.id', 'approvals.user_id')
    .where('approvals.workspace_id', '=', workspaceId)
    .select([
      'approvals.id',
      'approvals.user_id',
      'users.name as user_name',
      day('approvals.period_start').as('period_start'),
      day('approvals.period_end').as('period_end'),
      'approvals.status',
      'approvals.comment',
      'approvals.submitted_at',
      'approvals.decided_at',
    ])
    .select((eb) => [
      eb
        .selectFrom('users as d')
        .select('d.name')
        .whereRef('d.id', '=', 'approvals.decided_by_user_id')
        .as('decided_by_name'),
      // Work of the period's stopped entries, by the local day each starts on (its owner's zone).
      sql<number>`coalesce((
        select sum(e.duration_seconds)::int from time_entries e
        where e.workspace_id = approvals.workspace_id and e.user_id = approvals.user_id and e.end_at is not null
          and (e.start_at at time zone users.time_zone)::date between approvals.period_start and approvals.period_end
      ), 0)`.as('tracked_seconds'),
    ]) as unknown as SelectQueryBuilder<Database, 'approvals' | 'users', ApprovalRow>;
}

export const approvalsRepository = {
  async settings(db: Db, workspaceId: string): Promise<ApprovalSettings> {
    const row = await db
      .selectFrom('approval_settings')
      .select(['period', 'approver_rule', day('lock_date').as('lock_date')])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (!row) return DEFAULT_APPROVAL_SETTINGS;
    return { period: row.period, approverRule: row.approver_rule, lockDate: row.lock_date };
  },

  async saveSettings(db: Db, workspaceId: string, s: ApprovalSettings): Promise<void> {
    const values = { period: s.period, approver_rule: s.approverRule, lock_date: s.lockDate, updated_at: new Date() };
    await db
      .insertInto('approval_settings')
      .values({ workspace_id: workspaceId, ...values })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(values))
      .execute();
  },

  /** The member (active or not) with their zone and week start; `lock` holds their row until commit. */
  async owner(db: Db, workspaceId: string, userId: string, lock = false): Promise<PeriodOwner | undefined> {
    let query = db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.role', 'm.status', 'u.time_zone', 'u.week_start', 'u.email', 'u.name'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.user_id', '=', userId);
    if (lock) query = query.forUpdate('m');
    return query.executeTakeFirst();
  },

  /** Today in a time zone. */
  async today(db: Db, timeZone: string): Promise<string> {
    const { rows } = await sql<{
      today: string;
    }>`select to_char((now() at time zone ${timeZone})::date, 'YYYY-MM-DD') as today`.execute(db);
    return rows[0]?.today ?? new Date().toISOString().slice(0, 10);
  },

  find(db: Db, workspaceId: string, id: string): Promise<ApprovalRow | undefined> {
    return selectApprovals(db, workspaceId).where('approvals.id', '=', id).executeTakeFirst();
  },

  /** The latest approval of the person's period starting on `start` (any status), if any. */
  latestOf(db: Db, workspaceId: string, userId: string, start: string): Promise<ApprovalRow | undefined> {
    return selectApprovals(db, workspaceId)
      .where('approvals.user_id', '=', userId)
      .where('approvals.period_start', '=', start)
      .orderBy('approvals.submitted_at', 'desc')
      .orderBy('approvals.id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** Whether a live (submitted or approved) approval of the person overlaps [start, end]. */
  async liveOverlap(db: Db, workspaceId: string, userId: string, start: string, end: string): Promise<boolean> {
    const row = await db
      .selectFrom('approvals')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('status', 'in', ['submitted', 'approved'])
      .where('period_start', '<=', end)
      .where('period_end', '>=', start)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Whether the person has a timer running that started within [start, end] (their zone). */
  async runningWithin(db: Db, workspaceId: string, owner: PeriodOwner, start: string, end: string): Promise<boolean> {
    const row = await db
      .selectFrom('time_entries')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', owner.user_id)
      .where('end_at', 'is', null)
      .where(sql<boolean>`(start_at at time zone ${owner.time_zone})::date between ${start}::date and ${end}::date`)
      .executeTakeFirst();
    return row !== undefined;
  },

  list(db: Db, workspaceId: string, status: ApprovalStatus, userIds: string[] | null): Promise<ApprovalRow[]> {
    let query = selectApprovals(db, workspaceId).where('approvals.status', '=', status);
    if (userIds) {
      if (userIds.length === 0) return Promise.resolve([]);
      query = query.where('approvals.user_id', 'in', userIds);
    }
    return query.orderBy('approvals.period_start', 'desc').orderBy('users.name').limit(500).execute();
  },

  async insert(
    db: Db,
    row: { id: string; workspace_id: string; user_id: string; period_start: string; period_end: string },
  ): Promise<void> {
    await db
      .insertInto('approvals')
      .values({ ...row, status: 'submitted' })
      .execute();
  },

  /**
   * Moves an approval from one of `from` to `to`; undefined when it is in none of them any more
   * (a concurrent decision won: on PostgreSQL the second update waits for the first, then finds
   * the status changed).
   */
  async transition(
    db: Db,
    workspaceId: string,
    id: string,
    from: readonly ApprovalStatus[],
    to: ApprovalStatus,
    change: { comment?: string; decidedBy?: string | null },
  ): Promise<{ id: string } | undefined> {
    const now = new Date();
    return db
      .updateTable('approvals')
      .set({
        status: to,
        updated_at: now,
        ...(change.comment !== undefined ? { comment: change.comment } : {}),
        ...(change.decidedBy !== undefined ? { decided_at: now, decided_by_user_id: change.decidedBy } : {}),
      })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .returning('id')
      .executeTakeFirst();
  },

  async status(db: Db, workspaceId: string, id: string): Promise<ApprovalStatus | undefined> {
    const row = await db
      .selectFrom('approvals')
      .select('status')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.status;
  },
};

/** What the reminders job reads and writes. */
export const remindersRepository = {
  workspaces(db: Db) {
    return db.selectFrom('workspaces').select(['id', 'name', 'plan', 'trial_ends_at']).execute();
  },

  /** Active members with their zone, week start, e-mail, role and custom roles (own and their groups'). */
  async members(db: Db, workspaceId: string): Promise<Member[]> {
    const rows = await db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.role', 'm.status', 'u.time_zone', 'u.week_start', 'u.email', 'u.name'])
      .select([customRoleColumns.ownRole.as('own_role'), customRoleColumns.groupPermissions.as('group_roles')])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.status', '=', 'active')
      .execute();
    return rows.map(({ own_role, group_roles, ...row }) => ({ ...row, ...customRoleFields(own_role, group_roles) }));
  },

  /** Whether the person tracked stopped time in [start, end] (local days of their zone). */
  async trackedWithin(db: Db, workspaceId: string, owner: PeriodOwner, start: string, end: string) {
    const row = await db
      .selectFrom('time_entries')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', owner.user_id)
      .where('end_at', 'is not', null)
      .where(sql<boolean>`(start_at at time zone ${owner.time_zone})::date between ${start}::date and ${end}::date`)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Submitted periods waiting since before `before`. */
  pending(db: Db, workspaceId: string, before: Date): Promise<ApprovalRow[]> {
    return selectApprovals(db, workspaceId)
      .where('approvals.status', '=', 'submitted')
      .where('approvals.submitted_at', '<', before)
      .orderBy('approvals.submitted_at')
      .execute();
  },

  /** Records a reminder; false when it was sent already (by this run or another process). */
  async claim(db: Db, workspaceId: string, userId: string, subject: string): Promise<boolean> {
    const row = await db
      .insertInto('approval_reminders')
      .values({ workspace_id: workspaceId, user_id: userId, subject })
      .onConflict((oc) => oc.doNothing())
      .returning('subject')
      .executeTakeFirst();
    return row !== undefined;
  },
};
