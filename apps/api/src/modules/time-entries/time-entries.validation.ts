import { formatDuration, type RequiredTagList, type TimeSettings } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { memberReachesProject } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { validationError } from '../../platform/errors.js';
import { timeEntriesRepository as repo } from './time-entries.repository.js';
import { SKEW_MS } from './time-entries.shared.js';

/** The rules an entry's input must keep: its project, task and tags, its times, the required fields. */

/** Fields of an entry after the body's text (durations, ids) has been read. */
export interface EntryInput {
  start?: string;
  end?: string;
  duration?: number;
  note?: string;
  projectId?: string | null;
  taskId?: string | null;
  tagIds?: string[];
  billable?: boolean;
}

/**
 * Checks project, task and tags belong to the workspace and fit together; fills project from task.
 * A new project must be one that every owner of the time (`ownerIds`) may book on.
 */
/** The project and task a write will carry, and what was read with its project. */
export interface ResolvedRefs {
  project_id?: string | null;
  task_id?: string | null;
  billableDefault?: boolean;
  /** The lists the project requires, when the project was read (`assertTagRules` takes them as known). */
  requiredTagLists?: RequiredTagList[];
}

export async function resolveRefs(
  tx: Db,
  actor: Actor,
  input: { projectId?: string | null; taskId?: string | null; tagIds?: string[] },
  current: { project_id: string | null; task_id: string | null } | undefined,
  ownerIds: string[],
): Promise<ResolvedRefs> {
  const workspaceId = actor.membership.workspace.id;
  const out: ResolvedRefs = {};
  // An edit that keeps project and task has nothing of theirs to check again (the default billable
  // is for new entries only).
  const keepsRefs = current !== undefined && input.projectId === undefined && input.taskId === undefined;
  if (keepsRefs) {
    await assertTagsExist(tx, workspaceId, input.tagIds);
    return out;
  }
  let projectId = input.projectId === undefined ? (current?.project_id ?? null) : input.projectId;
  let taskId = input.taskId === undefined ? (current?.task_id ?? null) : input.taskId;
  // A new project without a new task drops the old task.
  if (
    input.projectId !== undefined &&
    input.taskId === undefined &&
    current &&
    input.projectId !== current.project_id
  ) {
    taskId = null;
  }
  if (taskId) {
    const task = await repo.findTask(tx, workspaceId, taskId);
    if (!task) throw validationError({ taskId: 'This task does not exist in the workspace.' });
    if (projectId && task.project_id !== projectId)
      throw validationError({ taskId: 'This task belongs to another project.' });
    projectId = task.project_id;
  }
  if (projectId) {
    const project = await repo.findProject(tx, workspaceId, projectId);
    if (!project) throw validationError({ projectId: 'This project does not exist in the workspace.' });
    if (project.archived_at && projectId !== current?.project_id) {
      throw validationError({ projectId: 'This project is archived.' });
    }
    if (projectId !== current?.project_id) {
      for (const ownerId of new Set(ownerIds)) {
        // The actor's own role is known: no need to read it again.
        const role = ownerId === actor.userId ? actor.membership.permissions : undefined;
        const reach = {
          workspaceId,
          userId: ownerId,
          projectId,
          role,
          features: actor.membership.features,
          projectExists: true,
        };
        if (await memberReachesProject(tx, reach)) continue;
        throw validationError({
          projectId:
            ownerId === actor.userId
              ? 'You are not on this project: choose one of your projects, or ask a manager to add you.'
              : 'The person this time belongs to is not on this project: add them to it first.',
        });
      }
    }
    out.billableDefault = project.billable_default;
    out.requiredTagLists = project.required_tag_lists.map((l) => ({ projectId: project.id, ...l }));
  }
  await assertTagsExist(tx, workspaceId, input.tagIds);
  out.project_id = projectId;
  out.task_id = taskId;
  return out;
}

async function assertTagsExist(tx: Db, workspaceId: string, tagIds: string[] | undefined): Promise<void> {
  if (!tagIds || tagIds.length === 0) return;
  const found = await repo.countTags(tx, workspaceId, tagIds);
  if (found !== new Set(tagIds).size) throw validationError({ tagIds: 'A tag does not exist in the workspace.' });
}

export function assertRequired(
  s: TimeSettings,
  e: { project_id: string | null; task_id: string | null; note: string; tagCount: number },
  when = '',
): void {
  const fields: Record<string, string> = {};
  if (s.requireProject && !e.project_id) fields.projectId = `Choose a project${when}.`;
  if (s.requireTask && !e.task_id) fields.taskId = `Choose a task${when}.`;
  if (s.requireTag && e.tagCount === 0) fields.tagIds = `Choose at least one tag${when}.`;
  if (s.requireNote && e.note.trim() === '') fields.note = `Write a note${when}.`;
  if (Object.keys(fields).length > 0) throw validationError(fields);
}

export function assertTimes(s: TimeSettings, start: Date, end: Date | null, now: Date): void {
  if (end && end.getTime() < start.getTime()) throw validationError({ end: 'The end must be after the start.' });
  if (end && end.getTime() - start.getTime() > s.maxEntryMinutes * 60_000) {
    throw validationError({
      end: `An entry can be at most ${formatDuration(s.maxEntryMinutes * 60, 'h:mm')} hours long.`,
    });
  }
  const limit = now.getTime() + s.futureLimitMinutes * 60_000 + SKEW_MS;
  if ((end ?? start).getTime() > limit) {
    throw validationError({
      [end ? 'end' : 'start']:
        s.futureLimitMinutes === 0
          ? 'Entries cannot be in the future.'
          : `Entries may end at most ${formatDuration(s.futureLimitMinutes * 60, 'h:mm')} hours from now.`,
    });
  }
}
