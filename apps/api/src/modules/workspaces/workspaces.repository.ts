import type { PlanId, Role } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { prepared } from '../../db/prepared.js';
import type { Membership, Workspace } from '../../db/tables.js';
import type { StoredMembership } from '../../platform/actor.js';
import type { SignedIn } from '../../platform/auth.js';
import { liveSessions, sessionIdHash } from '../../platform/sessions.js';
import { customRoleColumns, customRoleFields } from '../roles/roles.membership-columns.js';
import { ssoUnprovedColumn } from '../sso/sso.session-columns.js';

export type { StoredMembership } from '../../platform/actor.js';

export const workspacesRepository = {
  async insert(
    db: Db,
    input: { id: string; name: string; plan: PlanId; trialEndsAt: Date | null },
  ): Promise<Workspace> {
    return db
      .insertInto('workspaces')
      .values({ id: input.id, name: input.name, plan: input.plan, trial_ends_at: input.trialEndsAt })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async setPlan(db: Db, workspaceId: string, terms: { plan: PlanId; licenses: number }): Promise<void> {
    await db
      .updateTable('workspaces')
      .set({ plan: terms.plan, licenses: terms.licenses })
      .where('id', '=', workspaceId)
      .execute();
  },

  /** Ends a running trial at `at`; answers false when there was none to end (ended, or never had one). */
  async endTrial(db: Db, workspaceId: string, at: Date): Promise<boolean> {
    const ended = await db
      .updateTable('workspaces')
      .set({ trial_ends_at: at })
      .where('id', '=', workspaceId)
      .where('trial_ends_at', '>', at)
      .returning('id')
      .executeTakeFirst();
    return !!ended;
  },

  /** The user's active membership of a workspace, with the workspace; undefined when none. */
  async findMembership(db: Db, workspaceId: string, userId: string): Promise<StoredMembership | undefined> {
    const row = await membershipsOf(db, userId)
      .where('m.workspace_id', '=', workspaceId)
      .where('m.status', '=', 'active')
      .executeTakeFirst();
    return row && toMembership(row);
  },

  /**
   * The live session of a secret with its user and, given a workspace, the user's active membership
   * of it (null when none): the one query that authenticates a request.
   */
  async findSignedIn(
    db: Db,
    secret: string,
    options: { now: Date; workspaceId?: string },
  ): Promise<SignedIn | undefined> {
    const { workspaceId } = options;
    const [row] = await signedInQuery(db, {
      idHash: sessionIdHash(secret),
      now: options.now,
      // Without a workspace the membership join matches nothing and its columns stay null.
      workspaceId: workspaceId ?? NO_WORKSPACE,
    });
    if (!row) return undefined;
    const {
      session_remember,
      session_last_seen_at,
      session_expires_at,
      session_enrolment_only,
      member_role,
      member_status,
      member_custom_role,
      member_group_role_permissions,
      member_sso_unproved,
      workspace_id,
      workspace_name,
      workspace_plan,
      workspace_trial_ends_at,
      workspace_licenses,
      workspace_hide_disabled_users,
      workspace_created_at,
      workspace_updated_at,
      ...user
    } = row;
    const session = {
      remember: session_remember,
      last_seen_at: session_last_seen_at,
      expires_at: session_expires_at,
      enrolment_only: session_enrolment_only,
    };
    if (workspaceId === undefined) return { session, user };
    const membership =
      member_role && member_status && workspace_id && workspace_name && workspace_plan && workspace_created_at
        ? {
            role: member_role,
            status: member_status,
            ...customRoleFields(member_custom_role, member_group_role_permissions),
            workspace: {
              id: workspace_id,
              name: workspace_name,
              plan: workspace_plan,
              trial_ends_at: workspace_trial_ends_at,
              licenses: workspace_licenses ?? 0,
              hide_disabled_users: workspace_hide_disabled_users ?? false,
              created_at: workspace_created_at,
              updated_at: workspace_updated_at ?? workspace_created_at,
            },
          }
        : null;
    return { session, user, membership, ...(membership && member_sso_unproved ? { ssoUnproved: true } : {}) };
  },

  async listForUser(db: Db, userId: string): Promise<StoredMembership[]> {
    const rows = await membershipsOf(db, userId)
      .where('m.status', '=', 'active')
      .orderBy('w.name')
      .orderBy('w.id')
      .execute();
    return rows.map(toMembership);
  },

  /** Workspaces that disabled or removed the user: they no longer have access to them. */
  async listInactiveForUser(db: Db, userId: string): Promise<StoredMembership[]> {
    const rows = await membershipsOf(db, userId)
      .where('m.status', '!=', 'active')
      .orderBy('w.name')
      .orderBy('w.id')
      .execute();
    return rows.map(toMembership);
  },

  async setHideDisabledUsers(db: Db, workspaceId: string, value: boolean): Promise<void> {
    await db
      .updateTable('workspaces')
      .set({ hide_disabled_users: value, updated_at: new Date() })
      .where('id', '=', workspaceId)
      .execute();
  },

  async rename(db: Db, workspaceId: string, name: string): Promise<Workspace> {
    return db
      .updateTable('workspaces')
      .set({ name, updated_at: new Date() })
      .where('id', '=', workspaceId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** The workspace's allowed e-mail domains, sorted; empty: any address may join. */
  async listEmailDomains(db: Db, workspaceId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('workspace_email_domains')
      .select('domain')
      .where('workspace_id', '=', workspaceId)
      .orderBy('domain')
      .execute();
    return rows.map((r) => r.domain);
  },

  /** Replaces the workspace's allowed e-mail domains with these (lower-case, distinct). */
  async replaceEmailDomains(db: Db, workspaceId: string, domains: readonly string[]): Promise<void> {
    await db.deleteFrom('workspace_email_domains').where('workspace_id', '=', workspaceId).execute();
    if (domains.length === 0) return;
    await db
      .insertInto('workspace_email_domains')
      .values(domains.map((domain) => ({ workspace_id: workspaceId, domain })))
      .execute();
  },

  /** The workspace's logo (bytes, type and size), or undefined. */
  findLogo(db: Db, workspaceId: string) {
    return db
      .selectFrom('workspace_logos')
      .select(['content_type', 'width', 'height', 'data', 'updated_at'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
  },

  /** Which of these workspaces have a logo. */
  async withLogo(db: Db, workspaceIds: readonly string[]): Promise<Set<string>> {
    if (workspaceIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('workspace_logos')
      .select('workspace_id')
      .where('workspace_id', 'in', [...workspaceIds])
      .execute();
    return new Set(rows.map((r) => r.workspace_id));
  },

  /** Sets the workspace's logo, replacing the one before. */
  async saveLogo(
    db: Db,
    input: {
      workspaceId: string;
      contentType: 'image/png' | 'image/jpeg';
      width: number;
      height: number;
      data: Buffer;
      userId: string;
    },
  ): Promise<void> {
    const row = {
      content_type: input.contentType,
      width: input.width,
      height: input.height,
      data: input.data,
      updated_by_user_id: input.userId,
      updated_at: new Date(),
    };
    await db
      .insertInto('workspace_logos')
      .values({ workspace_id: input.workspaceId, ...row })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(row))
      .execute();
  },

  /** Removes the workspace's logo; whether there was one. */
  async deleteLogo(db: Db, workspaceId: string): Promise<boolean> {
    const result = await db.deleteFrom('workspace_logos').where('workspace_id', '=', workspaceId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};

/** A uuid no workspace has: the membership join of a request without a workspace finds nothing. */
const NO_WORKSPACE = '00000000-0000-0000-0000-000000000000';

/** The one query that authenticates a request, built and compiled once (`prepared`). */
const signedInQuery = prepared(
  ['idHash', 'now', 'workspaceId'],
  (db, v: { idHash: string; now: Date; workspaceId: string }) =>
    liveSessions(db, v.idHash, v.now)
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('memberships as m', (join) =>
        join
          .onRef('m.user_id', '=', 's.user_id')
          .on('m.workspace_id', '=', v.workspaceId)
          .on('m.status', '=', 'active'),
      )
      .leftJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .selectAll('u')
      .select([
        's.remember as session_remember',
        's.last_seen_at as session_last_seen_at',
        's.expires_at as session_expires_at',
        's.enrolment_only as session_enrolment_only',
        'm.role as member_role',
        'm.status as member_status',
        customRoleColumns.ownRole.as('member_custom_role'),
        customRoleColumns.groupPermissions.as('member_group_role_permissions'),
        ssoUnprovedColumn.as('member_sso_unproved'),
        'w.id as workspace_id',
        'w.name as workspace_name',
        'w.plan as workspace_plan',
        'w.trial_ends_at as workspace_trial_ends_at',
        'w.licenses as workspace_licenses',
        'w.hide_disabled_users as workspace_hide_disabled_users',
        'w.created_at as workspace_created_at',
        'w.updated_at as workspace_updated_at',
      ]),
);

/** The user's memberships joined with their workspaces: the one select every lookup above shares. */
function membershipsOf(db: Db, userId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select([
      'm.role',
      'm.status',
      'w.id',
      'w.name',
      'w.plan',
      'w.trial_ends_at',
      'w.licenses',
      'w.hide_disabled_users',
      'w.created_at',
      'w.updated_at',
      customRoleColumns.ownRole.as('custom_role'),
      customRoleColumns.groupPermissions.as('group_role_permissions'),
    ])
    .where('m.user_id', '=', userId);
}

function toMembership(
  row: Workspace & { role: Role; status: Membership['status']; custom_role: unknown; group_role_permissions: unknown },
): StoredMembership {
  const { role, status, custom_role, group_role_permissions, ...workspace } = row;
  return { role, status, ...customRoleFields(custom_role, group_role_permissions), workspace };
}
