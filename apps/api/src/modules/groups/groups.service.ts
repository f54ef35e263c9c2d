import { type CreateGroupBody, can, type Role, teamMessages, type UpdateGroupBody } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { Group } from '../../db/tables/team.js';
import { audit } from '../../platform/audit.js';
import { AppError, forbidden, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from '../members/members.repository.js';
import type { Actor } from '../members/members.service.js';
import { memberNotFound } from '../members/members.service.js';
import type { MembershipWithWorkspace } from '../workspaces/workspaces.repository.js';
import { assertCan } from '../workspaces/workspaces.service.js';
import { type GroupView, presentGroup } from './groups.presenter.js';
import { groupsRepository } from './groups.repository.js';

export const groupNotFound = () => notFound('Group not found.');

/** Roles whose group membership a manager (without groups:manage) may change. */
const MANAGER_MOVES = new Set<Role>(['member', 'guest']);

const nameTaken = () =>
  new AppError('group_name_taken', teamMessages.groupNameTaken, {
    status: 409,
    fields: { name: teamMessages.groupNameTaken },
  });

/** Runs a write; a unique violation means a sibling group already has the name. */
async function mapNameConflict<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw nameTaken();
    throw error;
  }
}

async function getGroup(db: Db, workspaceId: string, id: string): Promise<Group> {
  const group = await groupsRepository.find(db, workspaceId, id);
  if (!group) throw groupNotFound();
  return group;
}

/**
 * Owners and admins manage every group; a manager manages the membership of the groups they
 * belong to and of the groups below those. Everyone else gets 403.
 */
async function assertCanManageMembersOf(db: Db, actor: Actor, groupId: string): Promise<void> {
  if (can(actor.membership.role, 'groups:manage')) return;
  if (can(actor.membership.role, 'groups:manage_own')) {
    const managed = await groupsRepository.managedGroupIds(db, actor.membership.workspace.id, actor.userId);
    if (managed.has(groupId)) return;
  }
  throw forbidden();
}

export function createGroupsService({ db }: { db: Db }) {
  async function view(workspaceId: string, group: Group): Promise<GroupView> {
    const members = await groupsRepository.memberIdsByGroup(db, workspaceId);
    return presentGroup(group, members.get(group.id));
  }

  /** Puts the user in the group (add) or takes them out, with its audit entry; answers the group. */
  async function changeMembership(actor: Actor, groupId: string, userId: string, add: boolean): Promise<GroupView> {
    assertCan(actor.membership, 'groups:view');
    const workspaceId = actor.membership.workspace.id;
    const group = await db.transaction().execute(async (tx) => {
      const found = await getGroup(tx, workspaceId, groupId);
      await assertCanManageMembersOf(tx, actor, groupId);
      const target = await membersRepository.find(tx, workspaceId, userId);
      // A manager's groups are their reach over others' time: they move regular users and guests
      // only, never the owner, an admin or another manager into (or out of) them.
      if (
        target &&
        target.user_id !== actor.userId &&
        !can(actor.membership.role, 'groups:manage') &&
        !MANAGER_MOVES.has(target.role)
      ) {
        throw forbidden();
      }
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
    async list(membership: MembershipWithWorkspace): Promise<GroupView[]> {
      assertCan(membership, 'groups:view');
      const workspaceId = membership.workspace.id;
      const groups = await groupsRepository.list(db, workspaceId);
      const members = await groupsRepository.memberIdsByGroup(db, workspaceId);
      return groups.map((g) => presentGroup(g, members.get(g.id)));
    },

    /** Creates a group, at the top or inside a parent group. 409 when a sibling has the name. */
    async create(actor: Actor, body: CreateGroupBody): Promise<GroupView> {
      assertCan(actor.membership, 'groups:manage');
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
      assertCan(actor.membership, 'groups:manage');
      const workspaceId = actor.membership.workspace.id;
      const group = await mapNameConflict(() =>
        db.transaction().execute(async (tx) => {
          await getGroup(tx, workspaceId, groupId);
          if (body.parentId) {
            const all = new Map((await groupsRepository.list(tx, workspaceId)).map((g) => [g.id, g]));
            if (!all.has(body.parentId)) throw groupNotFound();
            for (let id: string | null = body.parentId; id; id = all.get(id)?.parent_id ?? null) {
              if (id === groupId) throw new AppError('group_cycle', teamMessages.groupCycle, { status: 422 });
            }
          }
          const updated = await groupsRepository.update(tx, workspaceId, groupId, {
            name: body.name?.trim(),
            parent_id: body.parentId,
          });
          await audit(tx, {
            action: 'group.updated',
            actorUserId: actor.userId,
            workspaceId,
            subjectId: groupId,
            detail: { ...body },
          });
          return updated;
        }),
      );
      return view(workspaceId, group);
    },

    /** Deletes a group; its subgroups move up one level, its members stay in the workspace. */
    async remove(actor: Actor, groupId: string): Promise<void> {
      assertCan(actor.membership, 'groups:manage');
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
