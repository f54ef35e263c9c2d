import type { TagListView, TagView } from '@sundial/core';
import type { Tag, TagList } from '../../db/tables/projects.js';
import type { ListRules } from './tags.repository.js';

export { tagDetailView, tagListView, tagSettingsView, tagView } from '@sundial/core';

export const presentTag = (t: Tag): TagView => ({
  id: t.id,
  tagListId: t.tag_list_id,
  name: t.name,
  archived: t.archived_at !== null,
});

const projectsOf = (rows: ListRules['allowed'], listId: string) =>
  rows.filter((r) => r.tag_list_id === listId).map((r) => r.project_id);

export const presentTagList = (l: TagList, tags: Tag[], rules: ListRules): TagListView => ({
  id: l.id,
  name: l.name,
  archived: l.archived_at !== null,
  tags: tags.filter((t) => t.tag_list_id === l.id).map(presentTag),
  exclusive: l.exclusive,
  projectIds: projectsOf(rules.allowed, l.id),
  requiredProjectIds: projectsOf(rules.required, l.id),
});
