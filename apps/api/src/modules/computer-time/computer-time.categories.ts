import {
  type ActivityCategoryBody,
  type ActivityCategoryView,
  activityCategoryBody,
  CATEGORY_MAX_DEPTH,
  categoryPath,
  starterCategories,
  type UpdateActivityCategoryBody,
  updateActivityCategoryBody,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { notFound, validationError } from '../../platform/errors.js';
import { nameId, newId } from '../../platform/ids.js';
import { type CategoryRow, computerTimeRepository as repo } from './computer-time.repository.js';

const view = (row: CategoryRow): ActivityCategoryView => ({
  id: row.id,
  parentId: row.parent_id,
  name: row.name,
  productivity: row.productivity,
  rules: row.rules,
});

function starterRows(workspaceId: string): CategoryRow[] {
  let place = 0;
  return starterCategories(() => nameId(`starter-category:${workspaceId}:${place++}`)).map((c) => ({
    id: c.id,
    parent_id: c.parentId,
    name: c.name,
    productivity: c.productivity,
    rules: [...c.rules],
  }));
}

/** The categories from the top down to `id` (itself last), by core's one walk up a tree. */
const pathTo = (rows: readonly CategoryRow[], id: string | null) =>
  categoryPath(new Map(rows.map((row) => [row.id, { id: row.id, parentId: row.parent_id }])), id).map((c) => c.id);

/** How deep the tree under `id` goes (1: no children). */
function height(rows: readonly CategoryRow[], id: string): number {
  const children = rows.filter((row) => row.parent_id === id);
  return 1 + Math.max(0, ...children.map((child) => height(rows, child.id)));
}

/**
 * Computer time's categories (issue 35): every member reads the workspace's tree (their activity
 * is categorised by it), owners and admins (`computer_time:settings`) change it, audited. A
 * workspace starts with core's `STARTER_CATEGORIES`, stored by its first change.
 */
export function createCategories(deps: { db: Db; now: () => Date }) {
  const { db, now: clock } = deps;

  /**
   * The workspace's categories. Until an admin first changes them they are the starter set, read
   * but not stored (a read writes nothing), with ids made from the workspace and their place in
   * the set, so the same ids are stored by the first change.
   */
  async function rowsOf(workspaceId: string): Promise<{ rows: CategoryRow[]; stored: boolean }> {
    const rows = await repo.categories(db, workspaceId);
    if (rows.length > 0 || (await repo.categoriesStored(db, workspaceId))) return { rows, stored: true };
    return { rows: starterRows(workspaceId), stored: false };
  }

  /** Stores the starter set (in the change's transaction) when it was only read until now. */
  async function storeStarter(tx: Db, workspaceId: string, stored: boolean): Promise<void> {
    if (stored || !(await repo.claimStarterCategories(tx, workspaceId, clock()))) return;
    await repo.insertCategories(tx, workspaceId, starterRows(workspaceId), clock());
  }

  /** Where a category may sit: an existing category of the workspace, not itself or inside itself, not too deep. */
  function checkPlace(rows: readonly CategoryRow[], id: string | null, parentId: string | null) {
    if (parentId === null) return;
    if (!rows.some((row) => row.id === parentId)) throw validationError({ parentId: 'That category does not exist.' });
    const above = pathTo(rows, parentId);
    if (id !== null && above.includes(id)) {
      throw validationError({ parentId: 'A category cannot sit inside itself or one of its own categories.' });
    }
    const below = id === null ? 1 : height(rows, id);
    if (above.length + below > CATEGORY_MAX_DEPTH) {
      throw validationError({ parentId: `Categories nest at most ${CATEGORY_MAX_DEPTH} deep.` });
    }
  }

  function checkName(rows: readonly CategoryRow[], id: string | null, parentId: string | null, name: string) {
    const taken = rows.some(
      (row) => row.id !== id && row.parent_id === parentId && row.name.toLowerCase() === name.toLowerCase(),
    );
    if (taken) throw validationError({ name: 'A category beside it already has this name.' });
  }

  return {
    async categories(actor: Actor): Promise<{ items: ActivityCategoryView[] }> {
      return { items: (await rowsOf(actor.membership.workspace.id)).rows.map(view) };
    },

    async createCategory(actor: Actor, input: ActivityCategoryBody): Promise<ActivityCategoryView> {
      assertCan(actor, 'computer_time:settings');
      const body = activityCategoryBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      const { rows, stored } = await rowsOf(workspaceId);
      checkPlace(rows, null, body.parentId);
      checkName(rows, null, body.parentId, body.name);
      const row: CategoryRow = {
        id: newId(),
        parent_id: body.parentId,
        name: body.name,
        productivity: body.productivity,
        rules: body.rules,
      };
      await db.transaction().execute(async (tx) => {
        await storeStarter(tx, workspaceId, stored);
        await repo.insertCategories(tx, workspaceId, [row], clock());
        await audit(tx, {
          action: 'activity_category.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: row.id,
          detail: { name: row.name, parentId: row.parent_id, productivity: row.productivity, rules: row.rules },
        });
      });
      return view(row);
    },

    async updateCategory(actor: Actor, id: string, input: UpdateActivityCategoryBody): Promise<ActivityCategoryView> {
      assertCan(actor, 'computer_time:settings');
      const body = updateActivityCategoryBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      const { rows, stored } = await rowsOf(workspaceId);
      const before = rows.find((row) => row.id === id);
      if (!before) throw notFound('Category not found.');
      const after: CategoryRow = {
        id,
        parent_id: body.parentId === undefined ? before.parent_id : body.parentId,
        name: body.name ?? before.name,
        productivity: body.productivity === undefined ? before.productivity : body.productivity,
        rules: body.rules ?? before.rules,
      };
      if (after.parent_id !== before.parent_id) checkPlace(rows, id, after.parent_id);
      checkName(rows, id, after.parent_id, after.name);
      const { id: _, ...written } = after;
      const changes = changesOf(before, written);
      if (Object.keys(changes).length === 0) return view(before);
      await db.transaction().execute(async (tx) => {
        await storeStarter(tx, workspaceId, stored);
        await repo.updateCategory(tx, workspaceId, id, written, clock());
        await audit(tx, {
          action: 'activity_category.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: after.name, changes },
        });
      });
      return view(after);
    },

    /** Deletes a category with the categories inside it; their activity becomes Uncategorized or a parent's. */
    async deleteCategory(actor: Actor, id: string): Promise<void> {
      assertCan(actor, 'computer_time:settings');
      const workspaceId = actor.membership.workspace.id;
      const { rows, stored } = await rowsOf(workspaceId);
      const row = rows.find((c) => c.id === id);
      if (!row) throw notFound('Category not found.');
      await db.transaction().execute(async (tx) => {
        await storeStarter(tx, workspaceId, stored);
        const deleted = await repo.deleteCategory(tx, workspaceId, id);
        await audit(tx, {
          action: 'activity_category.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: row.name, withInside: deleted - 1 },
        });
      });
    },
  };
}
