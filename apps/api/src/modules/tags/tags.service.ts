import { type TagListRulesInput, tagRulesTurnOn } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { allows, assertCan, assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { type ConstraintTable, mapConstraints, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { presentTag, presentTagList } from './tags.presenter.js';
import { tagsRepository as repo } from './tags.repository.js';

type Archived = 'true' | 'false' | 'all';
const LIST_TAKEN = 'A tag list with this name already exists.';
const TAG_TAKEN = 'A tag with this name already exists in this list.';
const LIST_CONSTRAINTS: ConstraintTable = { tag_lists_name_key: { message: LIST_TAKEN, field: 'name' } };
const TAG_CONSTRAINTS: ConstraintTable = { tags_name_key: { message: TAG_TAKEN, field: 'name' } };

/** The tag lists and tags tables' operations for other modules, inside the caller's transaction. */
export const tagRecords = {
  /** The tag list and tags an import creates (ids chosen by its plan). */
  insertImported: (
    tx: Db,
    workspaceId: string,
    list: { id: string; name: string },
    tags: readonly { id: string; name: string }[],
  ): Promise<void> => repo.insertImported(tx, workspaceId, list, tags),
};

export function createTagsService(db: Db, timeEntries: TimeEntriesService) {
  async function loadList(tx: Db, actor: Actor, id: string) {
    const list = await repo.findList(tx, actor.membership.workspace.id, id);
    if (!list) throw notFound('Tag list not found.');
    const { rows } = await repo.tags(tx, actor.membership.workspace.id, { archived: 'all', tagListIds: [id] });
    return presentTagList(list, rows, await repo.rulesOf(tx, actor.membership.workspace.id, [id]));
  }

  async function loadTag(tx: Db, actor: Actor, id: string) {
    const tag = await repo.findTag(tx, actor.membership.workspace.id, id);
    if (!tag) throw notFound('Tag not found.');
    return tag;
  }

  /** Reads run on db, writes in one transaction that checks the caller may manage tags. */
  function write<T>(actor: Actor, run: (tx: Db, workspaceId: string) => Promise<T>): Promise<T> {
    assertCan(actor, 'tags:view');
    return db.transaction().execute((tx) => run(tx, actor.membership.workspace.id));
  }
  const manage = (actor: Actor) => assertCan(actor, 'tags:manage');

  return {
    async lists(actor: Actor, f: { archived: Archived; limit: number; offset: number }) {
      assertCan(actor, 'tags:view');
      const workspaceId = actor.membership.workspace.id;
      const all = await repo.lists(db, workspaceId, f.archived);
      const page = all.slice(f.offset, f.offset + f.limit);
      const ids = page.map((l) => l.id);
      const { rows } = await repo.tags(db, workspaceId, { archived: 'all', tagListIds: ids });
      const rules = await repo.rulesOf(db, workspaceId, ids);
      return { items: page.map((l) => presentTagList(l, rows, rules)), total: all.length };
    },

    getList(actor: Actor, id: string) {
      assertCan(actor, 'tags:view');
      return loadList(db, actor, id);
    },

    createList(actor: Actor, name: string) {
      manage(actor);
      const id = newId();
      return write(actor, async (tx, workspaceId) => {
        await mapConstraints(LIST_CONSTRAINTS, () =>
          repo.insertList(tx, { id, workspace_id: workspaceId, name: name.trim() }),
        );
        await audit(tx, { action: 'tag_list.created', actorUserId: actor.userId, workspaceId, subjectId: id });
        return loadList(tx, actor, id);
      });
    },

    updateList(actor: Actor, id: string, patch: { name?: string; archived?: boolean }) {
      return write(actor, async (tx, workspaceId) => {
        await loadList(tx, actor, id);
        manage(actor);
        await mapConstraints(LIST_CONSTRAINTS, () =>
          repo.updateList(tx, workspaceId, id, {
            ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
            ...(patch.archived !== undefined ? { archived_at: patch.archived ? new Date() : null } : {}),
          }),
        );
        await audit(tx, {
          action: 'tag_list.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: patch,
        });
        return loadList(tx, actor, id);
      });
    },

    removeList(actor: Actor, id: string) {
      return write(actor, async (tx, workspaceId) => {
        const list = await loadList(tx, actor, id);
        manage(actor);
        const tagIds = await repo.tagIdsOfList(tx, workspaceId, id);
        await timeEntries.removeTags(tx, timeEntries.writerOf(actor), tagIds);
        await repo.deleteList(tx, workspaceId, id);
        await audit(tx, {
          action: 'tag_list.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: list.name },
        });
      });
    },

    /**
     * Sets a list's advanced-tags rules (exclusive, restricted to projects, required on projects).
     * Turning any on needs the advanced_tags feature; turning them all off never does. 422 for a
     * project not in the workspace.
     */
    setRules(actor: Actor, id: string, rules: TagListRulesInput) {
      return write(actor, async (tx, workspaceId) => {
        await loadList(tx, actor, id);
        manage(actor);
        const projectIds = [...new Set(rules.projectIds)];
        const requiredProjectIds = [...new Set(rules.requiredProjectIds)];
        if (tagRulesTurnOn(rules, requiredProjectIds.length)) assertFeature(actor, 'advanced_tags');
        for (const [field, ids] of [
          ['projectIds', projectIds],
          ['requiredProjectIds', requiredProjectIds],
        ] as const) {
          if ((await repo.countProjects(tx, workspaceId, ids)) !== ids.length)
            throw validationError({ [field]: 'A project does not exist in the workspace.' });
        }
        await repo.setRules(tx, workspaceId, id, { exclusive: rules.exclusive, projectIds, requiredProjectIds });
        await audit(tx, {
          action: 'tag_list.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { exclusive: rules.exclusive, projectIds, requiredProjectIds },
        });
        return loadList(tx, actor, id);
      });
    },

    /**
     * The tag lists a project requires (each stopped entry of it carries a tag of every one), set
     * from the project's side. Adding any needs advanced_tags; 404 for a project not in the workspace.
     */
    setRequiredLists(actor: Actor, projectId: string, tagListIds: string[]) {
      return write(actor, async (tx, workspaceId) => {
        manage(actor);
        if ((await repo.countProjects(tx, workspaceId, [projectId])) !== 1) throw notFound('Project not found.');
        const ids = [...new Set(tagListIds)];
        if (ids.length > 0) assertFeature(actor, 'advanced_tags');
        if ((await repo.countLists(tx, workspaceId, ids)) !== ids.length)
          throw validationError({ tagListIds: 'A tag list does not exist in the workspace.' });
        await repo.setRequiredLists(tx, workspaceId, projectId, ids);
        await audit(tx, {
          action: 'project.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: projectId,
          detail: { requiredTagListIds: ids },
        });
        return { tagListIds: ids };
      });
    },

    async tags(
      actor: Actor,
      f: { archived: Archived; search?: string; limit: number; offset: number; cursor?: string },
    ) {
      assertCan(actor, 'tags:view');
      const { rows, total, nextCursor } = await repo.tags(db, actor.membership.workspace.id, f);
      return { items: rows.map(presentTag), total, nextCursor };
    },

    async getTag(actor: Actor, id: string) {
      assertCan(actor, 'tags:view');
      const tag = await loadTag(db, actor, id);
      const entryCount = allows(actor.membership, 'tags:manage')
        ? await repo.countEntries(db, actor.membership.workspace.id, id)
        : null;
      return { ...presentTag(tag), entryCount };
    },

    createTag(actor: Actor, listId: string, name: string) {
      const id = newId();
      return write(actor, async (tx, workspaceId) => {
        await loadList(tx, actor, listId);
        manage(actor);
        await mapConstraints(TAG_CONSTRAINTS, () =>
          repo.insertTag(tx, { id, workspace_id: workspaceId, tag_list_id: listId, name: name.trim() }),
        );
        await audit(tx, { action: 'tag.created', actorUserId: actor.userId, workspaceId, subjectId: id });
        return presentTag(await loadTag(tx, actor, id));
      });
    },

    updateTag(actor: Actor, id: string, patch: { name?: string; tagListId?: string; archived?: boolean }) {
      return write(actor, async (tx, workspaceId) => {
        const before = await loadTag(tx, actor, id);
        manage(actor);
        if (patch.tagListId && !(await repo.findList(tx, workspaceId, patch.tagListId))) {
          throw validationError({ tagListId: 'Tag list not found.' });
        }
        const values = {
          ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
          ...(patch.tagListId !== undefined ? { tag_list_id: patch.tagListId } : {}),
          ...(patch.archived !== undefined ? { archived_at: patch.archived ? new Date() : null } : {}),
        };
        await mapConstraints(TAG_CONSTRAINTS, () => repo.updateTag(tx, workspaceId, id, values));
        // Archiving is a yes/no change, not a new timestamp.
        const { archived_at: _at, ...compared } = values;
        const changes = changesOf(before, compared);
        if (patch.archived !== undefined && patch.archived !== (before.archived_at !== null)) {
          changes.archived = { from: before.archived_at !== null, to: patch.archived };
        }
        await audit(tx, {
          action: 'tag.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: before.name, changes },
        });
        return presentTag(await loadTag(tx, actor, id));
      });
    },

    removeTag(actor: Actor, id: string) {
      return write(actor, async (tx, workspaceId) => {
        const tag = await loadTag(tx, actor, id);
        manage(actor);
        await timeEntries.removeTags(tx, timeEntries.writerOf(actor), [id]);
        await repo.deleteTag(tx, workspaceId, id);
        await audit(tx, {
          action: 'tag.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: tag.name },
        });
      });
    },

    /** Merges a tag into another: its time entries get the other tag, and it is deleted. */
    merge(actor: Actor, id: string, intoId: string) {
      return write(actor, async (tx, workspaceId) => {
        await loadTag(tx, actor, id);
        manage(actor);
        if (id === intoId) throw validationError({ intoTagId: 'Choose another tag to merge into.' });
        const into = await repo.findTag(tx, workspaceId, intoId);
        if (!into) throw validationError({ intoTagId: 'Tag not found.' });
        const moved = await timeEntries.retag(tx, timeEntries.writerOf(actor), id, intoId);
        await repo.deleteTag(tx, workspaceId, id);
        await audit(tx, {
          action: 'tag.merged',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: intoId,
          detail: { from: id, entries: moved },
        });
        return presentTag(into);
      });
    },

    async settings(actor: Actor) {
      assertCan(actor, 'tags:view');
      return { tagsRequired: await repo.requireTag(db, actor.membership.workspace.id) };
    },

    /** "Tags required" is a workspace time setting: the same right and audit as the time settings. */
    saveSettings(actor: Actor, tagsRequired: boolean) {
      assertCan(actor, 'time:settings');
      return write(actor, async (tx, workspaceId) => {
        await timeEntries.setRequireTag(tx, workspaceId, tagsRequired);
        await audit(tx, { action: 'time_settings.updated', actorUserId: actor.userId, workspaceId });
        return { tagsRequired };
      });
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
