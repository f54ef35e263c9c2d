import { z } from 'zod';
import type { Tag, TagList } from '../../db/tables/projects.js';

export const tagView = z.object({ id: z.uuid(), tagListId: z.uuid(), name: z.string(), archived: z.boolean() });
/** entryCount: time entries carrying the tag (what deleting it touches); null for those who may not manage tags. */
export const tagDetailView = tagView.extend({ entryCount: z.number().int().nullable() });
export const tagListView = z.object({
  id: z.uuid(),
  name: z.string(),
  archived: z.boolean(),
  tags: z.array(tagView),
});
export const tagSettingsView = z.object({ tagsRequired: z.boolean() });

export const presentTag = (t: Tag): z.infer<typeof tagView> => ({
  id: t.id,
  tagListId: t.tag_list_id,
  name: t.name,
  archived: t.archived_at !== null,
});

export const presentTagList = (l: TagList, tags: Tag[]): z.infer<typeof tagListView> => ({
  id: l.id,
  name: l.name,
  archived: l.archived_at !== null,
  tags: tags.filter((t) => t.tag_list_id === l.id).map(presentTag),
});
