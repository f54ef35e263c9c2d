import type { RequiredTagList, RuledTag } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';

interface RuleRow {
  kind: 'tag' | 'required';
  id: string | null;
  name: string | null;
  listId: string;
  listName: string;
  exclusive: boolean;
  listProjectIds: string[];
  projectId: string | null;
}

/**
 * What the tag rules of a write read, in one statement: the rules of the lists of the tags
 * written, and the (unarchived) lists the projects require.
 */
export const tagRulesRepository = {
  async rulesFor(
    tx: Db,
    workspaceId: string,
    tagIds: string[],
    projectIds: string[],
  ): Promise<{ tags: RuledTag[]; required: RequiredTagList[] }> {
    const parts = [];
    if (tagIds.length > 0) {
      parts.push(sql<RuleRow>`select 'tag' as kind, t.id, t.name, l.id as "listId", l.name as "listName", l.exclusive,
          coalesce((select array_agg(p.project_id) from tag_list_projects p where p.tag_list_id = l.id), '{}') as "listProjectIds",
          null::uuid as "projectId"
        from tags t join tag_lists l on l.workspace_id = t.workspace_id and l.id = t.tag_list_id
        where t.workspace_id = ${workspaceId} and t.id in (${sql.join(tagIds)})`);
    }
    if (projectIds.length > 0) {
      parts.push(sql<RuleRow>`select 'required' as kind, null::uuid as id, null::text as name, l.id as "listId",
          l.name as "listName", false as exclusive, '{}'::uuid[] as "listProjectIds", r.project_id as "projectId"
        from project_required_tag_lists r join tag_lists l on l.workspace_id = r.workspace_id and l.id = r.tag_list_id
        where r.workspace_id = ${workspaceId} and r.project_id in (${sql.join(projectIds)}) and l.archived_at is null`);
    }
    if (parts.length === 0) return { tags: [], required: [] };
    const { rows } = await sql<RuleRow>`${sql.join(parts, sql` union all `)} order by "listName"`.execute(tx);
    return {
      tags: rows.flatMap((r) =>
        r.kind === 'tag' && r.id && r.name
          ? [{ ...r, id: r.id, name: r.name, listProjectIds: r.listProjectIds ?? [] }]
          : [],
      ),
      required: rows.flatMap((r) =>
        r.kind === 'required' && r.projectId
          ? [{ projectId: r.projectId, listId: r.listId, listName: r.listName }]
          : [],
      ),
    };
  },
};
