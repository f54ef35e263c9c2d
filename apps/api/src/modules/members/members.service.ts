import {
  ASSIGNABLE_ROLES,
  type BillingMode,
  type BulkMembersBody,
  type MemberUpdateBody,
  type Role,
  teamMessages,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan, assertFeature, assertSeatsAfterChange, seatUsage } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, type ConstraintTable, constraintViolation, forbidden, notFound } from '../../platform/errors.js';
import { groupRecords } from '../groups/groups.service.js';
import { projectMemberRecords } from '../projects/projects.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { type MemberView, presentMember } from './members.presenter.js';
import { type MemberRow, membersRepository } from './members.repository.js';

export const memberNotFound = () => notFound('Member not found.');

/**
 * The memberships table's operations for other modules (groups, invites, scim, sso), inside the
 * caller's transaction: they never write memberships themselves.
 */
/**
 * Takes a member out of the workspace: the membership stays, as removed, so the time they tracked
 * stays attributed to them; their group and project assignments go (through their owners).
 */
async function removeMember(tx: Db, workspaceId: string, userId: string): Promise<void> {
  await membersRepository.remove(tx, workspaceId, userId);
  await groupRecords.removeFromAll(tx, workspaceId, userId);
  await projectMemberRecords.removeFromAll(tx, workspaceId, userId);
}

export const memberRecords = {
  find: (db: Db, workspaceId: string, userId: string): Promise<MemberRow | undefined> =>
    membersRepository.find(db, workspaceId, userId),
  findByEmail: (db: Db, workspaceId: string, email: string): Promise<MemberRow | undefined> =>
    membersRepository.findByEmail(db, workspaceId, email),
  /** Makes the user a member with the role (joining by invite), or brings back a removed one. */
  add: (db: Db, input: { workspaceId: string; userId: string; role: Role }): Promise<void> =>
    membersRepository.add(db, input),
  /** Makes the user a member with the role unless they have a membership (even a removed one); true when added (SSO's just-in-time join). */
  join: (db: Db, input: { workspaceId: string; userId: string; role: Role }): Promise<boolean> =>
    membersRepository.join(db, input),
  /** Makes the user a Regular member with the identity provider's id, active or disabled (SCIM). */
  provision: (
    db: Db,
    input: { workspaceId: string; userId: string; externalId: string | null; active: boolean },
  ): Promise<void> => membersRepository.provision(db, input),
  /** Changes a member's status or external id (SCIM); removing goes through `remove`. */
  update: (
    db: Db,
    workspaceId: string,
    userId: string,
    changes: { status?: 'active' | 'disabled'; external_id?: string | null },
  ): Promise<void> => membersRepository.update(db, workspaceId, userId, changes),
  /** Takes the member out of the workspace, their groups and projects (the row stays, as removed). */
  remove: (db: Db, workspaceId: string, userId: string): Promise<void> => removeMember(db, workspaceId, userId),
  /** Gives the member a custom role and its base role (modules/roles), or takes the custom role away. */
  setCustomRole: (
    db: Db,
    workspaceId: string,
    userId: string,
    role: { id: string; baseRole: Role } | null,
  ): Promise<void> => membersRepository.setCustomRole(db, workspaceId, userId, role),
  /** The holders of a custom role whose base role changed take the new one. */
  rebaseCustomRole: (db: Db, workspaceId: string, customRoleId: string, baseRole: Role): Promise<void> =>
    membersRepository.rebaseCustomRole(db, workspaceId, customRoleId, baseRole),
};

const MEMBER_CONSTRAINTS: ConstraintTable = {
  memberships_external_id_key: {
    code: 'external_id_taken',
    message: teamMessages.externalIdTaken,
    field: 'externalId',
  },
};

export function createMembersService({
  db,
  billing = { billing: true },
  workspaces,
}: {
  db: Db;
  /** The operator's BILLING switch: seat limits apply only when plans are sold. */
  billing?: BillingMode;
  /** The workspace's own row is the workspaces module's to write. */
  workspaces: Pick<WorkspacesService, 'setHideDisabledUsers'>;
}) {
  const workspaceOf = (actor: Actor) => actor.membership.workspace.id;

  /** Making someone a Manager needs management roles (Basic); other roles are on every plan. */
  const assertRoleOnPlan = (actor: Actor, role: Role | undefined) => {
    if (role === 'manager') assertFeature(actor, 'management_roles');
  };

  async function present(workspaceId: string, rows: MemberRow[]): Promise<MemberView[]> {
    const groups = await membersRepository.groupIdsByUser(db, workspaceId);
    const projects = await membersRepository.projectsByUser(db, workspaceId);
    return rows.map((row) =>
      presentMember(
        row,
        groups.get(row.user_id),
        projects.filter((p) => p.userId === row.user_id),
      ),
    );
  }

  /** Nobody changes the owner's role, status or membership (ownership moves by transfer), nor their own. */
  function assertAccessChangeable(target: MemberRow, actor: Actor): void {
    if (target.role === 'owner') throw new AppError('owner_protected', teamMessages.ownerUntouchable, { status: 422 });
    if (target.user_id === actor.userId) throw new AppError('not_yourself', teamMessages.notYourself, { status: 422 });
  }

  /** Applies one member's changes inside a transaction, with the rules every change obeys. */
  async function applyChange(tx: Db, actor: Actor, userId: string, changes: MemberUpdateBody): Promise<void> {
    const workspaceId = workspaceOf(actor);
    const target = await membersRepository.findForUpdate(tx, workspaceId, userId);
    if (!target) throw memberNotFound();
    if (changes.role !== undefined || changes.status !== undefined) assertAccessChangeable(target, actor);
    const externalId = changes.externalId === undefined ? undefined : (changes.externalId?.trim() ?? null) || null;
    await membersRepository.update(tx, workspaceId, userId, {
      role: changes.role,
      status: changes.status,
      external_id: externalId,
    });
    // A disabled member loses access to this workspace at once (authentication joins only an active
    // membership, and an open live stream checks it), and nothing else: their sessions belong to their
    // account, which this workspace's admins do not own (issue 29; decision 0012).
    const detail: Record<string, unknown> = {};
    if (changes.role && changes.role !== target.role) detail.role = { from: target.role, to: changes.role };
    if (changes.status && changes.status !== target.status) detail.status = { from: target.status, to: changes.status };
    if (externalId !== undefined && externalId !== target.external_id) detail.externalId = externalId;
    if (Object.keys(detail).length > 0) {
      await audit(tx, { action: 'member.updated', actorUserId: actor.userId, workspaceId, subjectId: userId, detail });
    }
  }

  const mapUniqueViolation = (error: unknown): never => {
    throw constraintViolation(error, MEMBER_CONSTRAINTS) ?? error;
  };

  return {
    /**
     * Members of the workspace with their groups and projects. `forReports` leaves out
     * disabled members when the workspace hides them from lists in reports.
     */
    async list(
      actor: Actor,
      options: {
        search?: string;
        status?: 'active' | 'disabled';
        forReports?: boolean;
        limit?: number;
        offset?: number;
        cursor?: string;
      } = {},
    ): Promise<{ items: MemberView[]; total: number; nextCursor: string | null }> {
      assertCan(actor, 'members:view');
      const { membership } = actor;
      const workspaceId = membership.workspace.id;
      const status = options.forReports && membership.workspace.hide_disabled_users ? 'active' : options.status;
      const { rows, total, nextCursor } = await membersRepository.list(db, workspaceId, {
        search: options.search?.trim(),
        status,
        limit: options.limit,
        offset: options.offset,
        cursor: options.cursor,
      });
      return { items: await present(workspaceId, rows), total, nextCursor };
    },

    async get(actor: Actor, userId: string): Promise<MemberView> {
      assertCan(actor, 'members:view');
      const { membership } = actor;
      const row = await membersRepository.find(db, membership.workspace.id, userId);
      if (!row) throw memberNotFound();
      const [view] = await present(membership.workspace.id, [row]);
      if (!view) throw memberNotFound();
      return view;
    },

    /**
     * Changes a member's role, status or external id. The owner's role and status and one's own
     * only change by ownership transfer; disabling ends the member's access to this workspace; giving a guest a
     * seat (role or re-enable) is refused beyond the licenses with 402 seat_limit_reached.
     */
    async update(actor: Actor, userId: string, changes: MemberUpdateBody): Promise<MemberView> {
      assertCan(actor, 'members:manage');
      assertRoleOnPlan(actor, changes.role);
      const workspaceId = workspaceOf(actor);
      await db
        .transaction()
        .execute((tx) =>
          assertSeatsAfterChange(tx, workspaceId, billing, () => applyChange(tx, actor, userId, changes)),
        )
        .catch(mapUniqueViolation);
      return this.get(actor, userId);
    },

    /** Bulk edit: the same role, status or group change for many members, all or nothing. */
    async bulkUpdate(actor: Actor, body: BulkMembersBody): Promise<MemberView[]> {
      assertCan(actor, 'members:manage');
      assertRoleOnPlan(actor, body.role);
      const workspaceId = workspaceOf(actor);
      const groupChange = body.addToGroupId ?? body.removeFromGroupId;
      if (groupChange) assertCan(actor, 'groups:manage');
      await db.transaction().execute(async (tx) => {
        for (const groupId of [body.addToGroupId, body.removeFromGroupId]) {
          if (
            groupId &&
            !(await tx
              .selectFrom('groups')
              .select('id')
              .where('workspace_id', '=', workspaceId)
              .where('id', '=', groupId)
              .executeTakeFirst())
          ) {
            throw notFound('Group not found.');
          }
        }
        await assertSeatsAfterChange(tx, workspaceId, billing, async () => {
          for (const userId of new Set(body.userIds)) {
            if (body.role !== undefined || body.status !== undefined) {
              await applyChange(tx, actor, userId, { role: body.role, status: body.status });
            } else if (!(await membersRepository.find(tx, workspaceId, userId))) {
              throw memberNotFound();
            }
            if (body.addToGroupId) {
              await groupRecords.addMember(tx, { workspaceId, groupId: body.addToGroupId, userId });
            }
            if (body.removeFromGroupId) {
              await groupRecords.removeMember(tx, { workspaceId, groupId: body.removeFromGroupId, userId });
            }
          }
        });
      });
      const rows = await Promise.all(
        [...new Set(body.userIds)].map((id) => membersRepository.find(db, workspaceId, id)),
      );
      return present(
        workspaceId,
        rows.flatMap((r) => (r ? [r] : [])),
      );
    },

    /**
     * Removes a member from the workspace (not the owner, not oneself). Their account and past
     * entries stay, still attributed to them; their group memberships go.
     */
    async remove(actor: Actor, userId: string): Promise<void> {
      assertCan(actor, 'members:manage');
      const workspaceId = workspaceOf(actor);
      await db.transaction().execute(async (tx) => {
        const target = await membersRepository.findForUpdate(tx, workspaceId, userId);
        if (!target) throw memberNotFound();
        assertAccessChangeable(target, actor);
        await removeMember(tx, workspaceId, userId);
        await audit(tx, {
          action: 'member.removed',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: userId,
          detail: { email: target.email, role: target.role },
        });
      });
    },

    /**
     * The actor leaves the workspace (their membership is removed, their past entries stay
     * theirs). Any member may, whatever the workspace requires of sign-ins (issue 29); the owner
     * hands the workspace over first (403).
     */
    async leave(actor: Actor): Promise<void> {
      const workspaceId = workspaceOf(actor);
      await db.transaction().execute(async (tx) => {
        const self = await membersRepository.findForUpdate(tx, workspaceId, actor.userId);
        if (self?.status !== 'active') throw memberNotFound();
        if (self.role === 'owner') {
          throw new AppError(
            'forbidden',
            'The owner cannot leave the workspace: transfer the ownership to another member first.',
            { status: 403 },
          );
        }
        await removeMember(tx, workspaceId, actor.userId);
        await audit(tx, { action: 'member.left', actorUserId: actor.userId, workspaceId, subjectId: actor.userId });
      });
    },

    /** Hands the workspace to another active, non-guest member; the old owner becomes an admin. */
    async transferOwnership(actor: Actor, userId: string): Promise<MemberView> {
      assertCan(actor, 'members:transfer_ownership');
      const workspaceId = workspaceOf(actor);
      await db.transaction().execute(async (tx) => {
        // The actor's row first, locked: of two transfers sent at once, the second finds that
        // its sender is no longer the owner (rather than tripping the one-owner index).
        const self = await membersRepository.findForUpdate(tx, workspaceId, actor.userId);
        if (self?.role !== 'owner' || self.status !== 'active') throw forbidden();
        const target = await membersRepository.findForUpdate(tx, workspaceId, userId);
        if (!target) throw memberNotFound();
        if (target.user_id === actor.userId) return;
        if (target.status !== 'active' || target.role === 'guest') {
          throw new AppError('invalid_new_owner', teamMessages.transferTarget, { status: 422 });
        }
        await membersRepository.update(tx, workspaceId, actor.userId, { role: 'admin' });
        await membersRepository.update(tx, workspaceId, userId, { role: 'owner' });
        await audit(tx, {
          action: 'workspace.ownership_transferred',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: userId,
          detail: { from: actor.userId, to: userId, previousRole: target.role },
        });
      });
      return this.get({ ...actor, membership: { ...actor.membership, role: 'admin' } }, userId);
    },

    /** Seats in use against the licenses, and the team settings of the workspace. */
    async settings(actor: Actor) {
      assertCan(actor, 'members:view');
      const { workspace } = actor.membership;
      return {
        hideDisabledUsers: workspace.hide_disabled_users,
        seats: await seatUsage(db, workspace, billing),
        assignableRoles: [...ASSIGNABLE_ROLES],
      };
    },

    async updateSettings(actor: Actor, changes: { hideDisabledUsers: boolean }) {
      assertCan(actor, 'workspace:update');
      const workspaceId = workspaceOf(actor);
      await db.transaction().execute(async (tx) => {
        await workspaces.setHideDisabledUsers(tx, workspaceId, changes.hideDisabledUsers);
        await audit(tx, {
          action: 'workspace.team_settings_updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: changes,
        });
      });
      return this.settings({
        ...actor,
        membership: {
          ...actor.membership,
          workspace: { ...actor.membership.workspace, hide_disabled_users: changes.hideDisabledUsers },
        },
      });
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
