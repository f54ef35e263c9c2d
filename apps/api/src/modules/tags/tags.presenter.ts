import type { TagListView, TagView } from '@sundial/core';
import type { Tag, TagList } from '../../db/tables/projects.js';

export { tagDetailView, tagListView, tagSettingsView, tagView } from '@sundial/core';

export const presentTag = (t: Tag): TagView => ({
  id: t.id,
  tagListId: t.tag_list_id,
  name: t.name,
  archived: t.archived_at !== null,
});

export const presentTagList = (l: TagList, tags: Tag[]): TagListView => ({
  id: l.id,
  name: l.name,
  archived: l.archived_at !== null,
  tags: tags.filter((t) => t.tag_list_id === l.id).map(presentTag),
});
