import type { MembersBody, ProjectPeopleBody } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { validationError } from '../../platform/errors.js';
import { projectsRepository as repo } from './projects.repository.js';
import { detail, loadProject, loadTask, taskDetail } from './projects.shared.js';

/** Who is assigned to a project (`taskId` null) or task, and who of them manage it: members and groups of the workspace only. */
async function replacePeople(
  tx: Db,
  actor: Actor,
  projectId: string,
  taskId: string | null,
  body: MembersBody & Pick<ProjectPeopleBody, 'managerUserIds' | 'managerGroupIds'>,
) {
  const workspaceId = actor.membership.workspace.id;
  const assignable = await repo.assignable(tx, workspaceId);
  const roles = new Map(assignable.users.map((u) => [u.id, u.role]));
  const groupIds = new Set(assignable.groups.map((g) => g.id));
  if (body.userIds.some((id) => !roles.has(id))) throw validationError({ userIds: 'Unknown member.' });
  if (body.groupIds.some((id) => !groupIds.has(id))) throw validationError({ groupIds: 'Unknown group.' });
  const managerUserIds = body.managerUserIds ?? [];
  const managerGroupIds = body.managerGroupIds ?? [];
  if (managerUserIds.some((id) => !body.userIds.includes(id))) {
    throw validationError({ managerUserIds: 'Only people assigned to the project can manage it.' });
  }
  if (managerUserIds.some((id) => roles.get(id) === 'guest')) {
    throw validationError({ managerUserIds: 'Guests cannot manage projects.' });
  }
  if (managerGroupIds.some((id) => !body.groupIds.includes(id))) {
    throw validationError({ managerGroupIds: 'Only groups assigned to the project can manage it.' });
  }
  await repo.replaceMembers(tx, {
    workspaceId,
    projectId,
    taskId,
    userIds: body.userIds,
    groupIds: body.groupIds,
    managers: new Set([...managerUserIds, ...managerGroupIds]),
  });
}

/** Who works on a project or task, and who manages it: the people and groups assigned. */
export function createProjectPeople(db: Db) {
  return {
    async setPeople(actor: Actor, id: string, body: ProjectPeopleBody) {
      assertCan(actor, 'projects:view');
      return db.transaction().execute(async (tx) => {
        await loadProject(tx, actor, id);
        assertCan(actor, 'projects:manage');
        await replacePeople(tx, actor, id, null, body);
        const workspaceId = actor.membership.workspace.id;
        await audit(tx, { action: 'project.people_updated', actorUserId: actor.userId, workspaceId, subjectId: id });
        return detail(tx, actor, id);
      });
    },

    async assignable(actor: Actor) {
      assertCan(actor, 'projects:manage');
      return repo.assignable(db, actor.membership.workspace.id);
    },

    async setTaskPeople(actor: Actor, id: string, body: MembersBody) {
      assertCan(actor, 'projects:view');
      return db.transaction().execute(async (tx) => {
        const task = await loadTask(tx, actor, id);
        assertCan(actor, 'projects:manage');
        await replacePeople(tx, actor, task.project_id, id, body);
        const workspaceId = actor.membership.workspace.id;
        await audit(tx, { action: 'task.people_updated', actorUserId: actor.userId, workspaceId, subjectId: id });
        return taskDetail(tx, actor, id);
      });
    },
  };
}
