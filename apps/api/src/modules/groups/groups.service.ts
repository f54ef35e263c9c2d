import { type CreateGroupBody, teamMessages, type UpdateGroupBody } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { Group } from '../../db/tables/team.js';
import { allows, assertCan, assertManagesGroup, movesGroupMember } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { AppError, type ConstraintTable, forbidden, mapConstraints, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { memberNotFound, memberRecords } from '../members/members.service.js';
import { type GroupView, presentGroup } from './groups.presenter.js';
import { groupsRepository } from './groups.repository.js';

export const groupNotFound = () => notFound('Group not found.');

/**
 * The groups and group members tables' operations for other modules (invites put the new member in
 * a group, SCIM keeps the identity provider's groups), inside the caller's transaction.
 */
export const groupRecords = {
  find: (db: Db, workspaceId: string, id: string): Promise<Group | undefined> =>
    groupsRepository.find(db, workspaceId, id),
  addMember: (db: Db, input: { workspaceId: string; groupId: string; userId: string }): Promise<boolean> =>
    groupsRepository.addMember(db, input),
  removeMember: (db: Db, input: { workspaceId: string; groupId: string; userId: string }): Promise<boolean> =>
    groupsRepository.removeMember(db, input),
  /** Takes the user out of all the workspace's groups (a member removed). */
  removeFromAll: (db: Db, workspaceId: string, userId: string): Promise<void> =>
    groupsRepository.removeFromAll(db, workspaceId, userId),
  /** The custom role the group gives its members (modules/roles), or none. */
  setCustomRole: (db: Db, workspaceId: string, groupId: string, roleId: string | null): Promise<void> =>
    groupsRepository.setCustomRole(db, workspaceId, groupId, roleId),
  /** A top-level group (SCIM's groups are flat). */
  create: (db: Db, input: { id: string; workspaceId: string; name: string }): Promise<Group> =>
    groupsRepository.insert(db, { ...input, parentId: null }),
  rename: (db: Db, workspaceId: string, id: string, name: string): Promise<Group> =>
    groupsRepository.update(db, workspaceId, id, { name }),
  /** Deletes the group with the groups under it (an identity provider deleting its group). */
  deleteWithChildren: (db: Db, workspaceId: string, id: string): Promise<void> =>
    groupsRepository.deleteWithChildren(db, workspaceId, id),
  addMembers: (db: Db, input: { workspaceId: string; groupId: string; userIds: string[] }): Promise<void> =>
    groupsRepository.addMembers(db, input),
  removeMembers: (db: Db, input: { workspaceId: string; groupId: string; userIds: string[] | 'all' }): Promise<void> =>
    groupsRepository.removeMembers(db, input),
};

/** A sibling group already has the name. */
const GROUP_CONSTRAINTS: ConstraintTable = {
  groups_sibling_name_key: { code: 'group_name_taken', message: teamMessages.groupNameTaken, field: 'name' },
};
const mapNameConflict = <T>(run: () => Promise<T>) => mapConstraints(GROUP_CONSTRAINTS, run);

async function getGroup(db: Db, workspaceId: string, id: string): Promise<Group> {
  const group = await groupsRepository.find(db, workspaceId, id);
  if (!group) throw groupNotFound();
  return group;
}

export function createGroupsService({ db }: { db: Db }) {
  async function view(workspaceId: string, group: Group): Promise<GroupView> {
    const members = await groupsRepository.memberIdsByGroup(db, workspaceId);
    return presentGroup(group, members.get(group.id));
  }

  /** Puts the user in the group (add) or takes them out, with its audit entry; answers the group. */
  async function changeMembership(actor: Actor, groupId: string, userId: string, add: boolean): Promise<GroupView> {
    assertCan(actor, 'groups:view');
    const workspaceId = actor.membership.workspace.id;
    const group = await db.transaction().execute(async (tx) => {
      const found = await getGroup(tx, workspaceId, groupId);
      await assertManagesGroup(tx, actor, groupId);
      // A group that carries a custom role gives it to whoever joins: only those who assign roles move people there.
      if (found.custom_role_id && !allows(actor.membership, 'roles:manage')) throw forbidden();
      const target = await memberRecords.find(tx, workspaceId, userId);
      if (target && !movesGroupMember(actor, target)) throw forbidden();
      let changed: boolean;
      if (add) {
        if (!target) throw memberNotFound();
        changed = await groupsRepository.addMember(tx, { workspaceId, groupId, userId });
      } else {
        changed = await groupsRepository.removeMember(tx, { workspaceId, groupId, userId });
        if (!changed) throw notFound('This person is not in the group.');
      }
      // Adding someone who is in the group already changes nothing, so nothing is recorded.
      if (!changed) return found;
      await audit(tx, {
        action: add ? 'group.member_added' : 'group.member_removed',
        actorUserId: actor.userId,
        workspaceId,
        subjectId: groupId,
        detail: { userId },
      });
      return found;
    });
    return view(workspaceId, group);
  }

  return {
    /** Every group of the workspace, flat with parent ids (the client builds the tree). */
    async list(actor: Actor): Promise<GroupView[]> {
      assertCan(actor, 'groups:view');
      const workspaceId = actor.membership.workspace.id;
      const groups = await groupsRepository.list(db, workspaceId);
      const members = await groupsRepository.memberIdsByGroup(db, workspaceId);
      return groups.map((g) => presentGroup(g, members.get(g.id)));
    },

    /** Creates a group, at the top or inside a parent group. 409 when a sibling has the name. */
    async create(actor: Actor, body: CreateGroupBody): Promise<GroupView> {
      assertCan(actor, 'groups:manage');
      const workspaceId = actor.membership.workspace.id;
      const group = await mapNameConflict(() =>
        db.transaction().execute(async (tx) => {
          if (body.parentId) await getGroup(tx, workspaceId, body.parentId);
          const created = await groupsRepository.insert(tx, {
            id: newId(),
            workspaceId,
            parentId: body.parentId ?? null,
            name: body.name.trim(),
          });
          await audit(tx, { action: 'group.created', actorUserId: actor.userId, workspaceId, subjectId: created.id });
          return created;
        }),
      );
      return view(workspaceId, group);
    },

    /** Renames or moves a group; 422 when it would move inside itself or its subgroups. */
    async update(actor: Actor, groupId: string, body: UpdateGroupBody): Promise<GroupView> {
      assertCan(actor, 'groups:manage');
      const workspaceId = actor.membership.workspace.id;
      const group = await mapNameConflict(() =>
        db.transaction().execute(async (tx) => {
          const before = await getGroup(tx, workspaceId, groupId);
          if (body.parentId) {
            const all = new Map((await groupsRepository.list(tx, workspaceId)).map((g) => [g.id, g]));
            if (!all.has(body.parentId)) throw groupNotFound();
            for (let id: string | null = body.parentId; id; id = all.get(id)?.parent_id ?? null) {
              if (id === groupId) throw new AppError('group_cycle', teamMessages.groupCycle, { status: 422 });
            }
          }
          const values = { name: body.name?.trim(), parent_id: body.parentId };
          const updated = await groupsRepository.update(tx, workspaceId, groupId, values);
          await audit(tx, {
            action: 'group.updated',
            actorUserId: actor.userId,
            workspaceId,
            subjectId: groupId,
            detail: { name: before.name, changes: changesOf(before, values) },
          });
          return updated;
        }),
      );
      return view(workspaceId, group);
    },

    /** Deletes a group; its subgroups move up one level, its members stay in the workspace. */
    async remove(actor: Actor, groupId: string): Promise<void> {
      assertCan(actor, 'groups:manage');
      const workspaceId = actor.membership.workspace.id;
      await mapNameConflict(() =>
        db.transaction().execute(async (tx) => {
          const group = await getGroup(tx, workspaceId, groupId);
          await groupsRepository.deleteKeepingChildren(tx, group);
          await audit(tx, {
            action: 'group.deleted',
            actorUserId: actor.userId,
            workspaceId,
            subjectId: groupId,
            detail: { name: group.name },
          });
        }),
      );
    },

    /** Puts a member in the group (they must be a member of the workspace). */
    addMember(actor: Actor, groupId: string, userId: string): Promise<GroupView> {
      return changeMembership(actor, groupId, userId, true);
    },

    /** Takes a member out of the group. */
    removeMember(actor: Actor, groupId: string, userId: string): Promise<GroupView> {
      return changeMembership(actor, groupId, userId, false);
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
