import { type CustomRoleView, type customRoleBody, customRoleMessages, teamMessages } from '@sundial/core';
import type { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertCan, assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { type ConstraintTable, mapConstraints, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { groupRecords } from '../groups/groups.service.js';
import { memberRecords } from '../members/members.service.js';
import { type CustomRoleRow, rolesRepository as repo } from './roles.repository.js';

type RoleInput = z.output<typeof customRoleBody>;

const ROLE_CONSTRAINTS: ConstraintTable = {
  custom_roles_name_key: { code: 'role_name_taken', message: customRoleMessages.nameTaken, field: 'name' },
};
export const roleNotFound = () => notFound('Role not found.');

function present(row: CustomRoleRow, holders: Awaited<ReturnType<typeof repo.holders>>): CustomRoleView {
  return {
    id: row.id,
    name: row.name,
    baseRole: row.base_role,
    permissions: row.permissions as CustomRoleView['permissions'],
    memberIds: holders.members.get(row.id) ?? [],
    groupIds: holders.groups.get(row.id) ?? [],
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Custom roles (Pro): owners and admins (`roles:manage`, which no custom role can hold) define
 * them and give them to members and groups. Reading and deleting stay open without the plan (the
 * data is kept, and acts as the base role); creating, changing and assigning need `custom_roles`.
 */
export function createRolesService({ db }: { db: Db }) {
  async function load(tx: Db, workspaceId: string, id: string): Promise<CustomRoleView> {
    const row = await repo.find(tx, workspaceId, id);
    if (!row) throw roleNotFound();
    return present(row, await repo.holders(tx, workspaceId));
  }

  function write<T>(actor: Actor, run: (tx: Db, workspaceId: string) => Promise<T>): Promise<T> {
    assertCan(actor, 'roles:manage');
    return db.transaction().execute((tx) => run(tx, actor.membership.workspace.id));
  }

  /** The role to give (null: none), of this workspace. */
  async function roleToGive(tx: Db, workspaceId: string, id: string | null) {
    if (id === null) return null;
    const row = await repo.find(tx, workspaceId, id);
    if (!row) throw validationError({ customRoleId: 'This role does not exist in the workspace.' });
    return row;
  }

  return {
    async list(actor: Actor): Promise<CustomRoleView[]> {
      assertCan(actor, 'roles:manage');
      const workspaceId = actor.membership.workspace.id;
      const [rows, holders] = await Promise.all([repo.list(db, workspaceId), repo.holders(db, workspaceId)]);
      return rows.map((row) => present(row, holders));
    },

    get(actor: Actor, id: string): Promise<CustomRoleView> {
      assertCan(actor, 'roles:manage');
      return load(db, actor.membership.workspace.id, id);
    },

    create(actor: Actor, input: RoleInput): Promise<CustomRoleView> {
      assertCan(actor, 'roles:manage');
      assertFeature(actor, 'custom_roles');
      const id = newId();
      return write(actor, async (tx, workspaceId) => {
        await mapConstraints(ROLE_CONSTRAINTS, () => repo.insert(tx, { id, workspaceId, ...input }));
        await audit(tx, {
          action: 'custom_role.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: input.name, baseRole: input.baseRole, permissions: input.permissions },
        });
        return load(tx, workspaceId, id);
      });
    },

    update(actor: Actor, id: string, input: RoleInput): Promise<CustomRoleView> {
      return write(actor, async (tx, workspaceId) => {
        const before = await load(tx, workspaceId, id);
        assertFeature(actor, 'custom_roles');
        await mapConstraints(ROLE_CONSTRAINTS, () => repo.update(tx, workspaceId, id, input));
        // The members holding it fall back to its (new) base role.
        await memberRecords.rebaseCustomRole(tx, workspaceId, id, input.baseRole);
        await audit(tx, {
          action: 'custom_role.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: {
            before: { name: before.name, baseRole: before.baseRole, permissions: before.permissions },
            after: input,
          },
        });
        return load(tx, workspaceId, id);
      });
    },

    remove(actor: Actor, id: string): Promise<void> {
      return write(actor, async (tx, workspaceId) => {
        const role = await load(tx, workspaceId, id);
        await repo.remove(tx, workspaceId, id);
        await audit(tx, {
          action: 'custom_role.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: role.name, memberIds: role.memberIds, groupIds: role.groupIds },
        });
      });
    },

    /** Gives a member the role (their built-in role becomes its base, the fallback) or takes it away. */
    assignToMember(actor: Actor, userId: string, customRoleId: string | null): Promise<void> {
      return write(actor, async (tx, workspaceId) => {
        const member = await repo.findMember(tx, workspaceId, userId);
        if (!member) throw notFound('Member not found.');
        if (customRoleId !== null) assertFeature(actor, 'custom_roles');
        if (member.role === 'owner') throw validationError({ userId: customRoleMessages.notForOwner });
        if (userId === actor.userId) throw validationError({ userId: teamMessages.notYourself });
        const role = await roleToGive(tx, workspaceId, customRoleId);
        await memberRecords.setCustomRole(tx, workspaceId, userId, role && { id: role.id, baseRole: role.base_role });
        await audit(tx, {
          action: 'custom_role.member_assigned',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: userId,
          detail: { from: member.custom_role_id, to: customRoleId },
        });
      });
    },

    /** Makes every member of the group hold the role too (a union with their own), or none. */
    assignToGroup(actor: Actor, groupId: string, customRoleId: string | null): Promise<void> {
      return write(actor, async (tx, workspaceId) => {
        const group = await repo.findGroup(tx, workspaceId, groupId);
        if (!group) throw notFound('Group not found.');
        if (customRoleId !== null) assertFeature(actor, 'custom_roles');
        await roleToGive(tx, workspaceId, customRoleId);
        await groupRecords.setCustomRole(tx, workspaceId, groupId, customRoleId);
        await audit(tx, {
          action: 'custom_role.group_assigned',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: groupId,
          detail: { from: group.custom_role_id, to: customRoleId },
        });
      });
    },
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
