import type { RequiredTagList, RuledTag } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';

/** What the tag rules of a write read: the lists' rules of the tags written, the lists the projects require. */
export const tagRulesRepository = {
  async ruledTags(tx: Db, workspaceId: string, tagIds: string[]): Promise<RuledTag[]> {
    if (tagIds.length === 0) return [];
    const rows = await tx
      .selectFrom('tags as t')
      .innerJoin('tag_lists as l', (j) =>
        j.onRef('l.workspace_id', '=', 't.workspace_id').onRef('l.id', '=', 't.tag_list_id'),
      )
      .select([
        't.id',
        't.name',
        'l.id as listId',
        'l.name as listName',
        'l.exclusive',
        sql<
          string[]
        >`coalesce((select array_agg(p.project_id) from tag_list_projects p where p.tag_list_id = l.id), '{}')`.as(
          'listProjectIds',
        ),
      ])
      .where('t.workspace_id', '=', workspaceId)
      .where('t.id', 'in', tagIds)
      .execute();
    return rows;
  },

  async requiredLists(tx: Db, workspaceId: string, projectIds: string[]): Promise<RequiredTagList[]> {
    if (projectIds.length === 0) return [];
    return tx
      .selectFrom('project_required_tag_lists as r')
      .innerJoin('tag_lists as l', (j) =>
        j.onRef('l.workspace_id', '=', 'r.workspace_id').onRef('l.id', '=', 'r.tag_list_id'),
      )
      .select(['r.project_id as projectId', 'l.id as listId', 'l.name as listName'])
      .where('r.workspace_id', '=', workspaceId)
      .where('r.project_id', 'in', projectIds)
      .where('l.archived_at', 'is', null)
      .orderBy(sql`lower(l.name)`)
      .execute();
  },
};
