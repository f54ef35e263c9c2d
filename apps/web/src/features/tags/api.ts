import type { TagDetailView, TagListRulesInput, TagListView, TagSettingsView, TagView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tagKeys, useTagLists } from '../../api/catalog';
import { api } from '../../api/client';

export type Tag = TagView;
export type TagList = TagListView;
export { tagKeys, useTagLists };

const ws = (w: string) => `/workspaces/${w}`;

/** One tag with how many time entries carry it (null for those who may not manage tags). */
export const useTagDetail = (w: string, id: string, enabled: boolean) =>
  useQuery({
    queryKey: tagKeys.one(w, id),
    queryFn: () => api<TagDetailView>('GET', `${ws(w)}/tags/${id}`),
    enabled,
    // The count must be the current one when the confirmation opens.
    staleTime: 0,
    gcTime: 0,
  });

export const useTagSettings = (w: string) =>
  useQuery({
    queryKey: tagKeys.settings(w),
    queryFn: () => api<TagSettingsView>('GET', `${ws(w)}/tag-settings`),
  });

function useTagsMutation<TVars, TResult>(w: string, fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: tagKeys.all(w) }) });
}

export const useCreateTagList = (w: string) =>
  useTagsMutation(w, (name: string) => api<TagList>('POST', `${ws(w)}/tag-lists`, { name }));
export const useRenameTagList = (w: string) =>
  useTagsMutation(w, ({ id, name }: { id: string; name: string }) =>
    api<TagList>('PATCH', `${ws(w)}/tag-lists/${id}`, { name }),
  );
export const useArchiveTagList = (w: string) =>
  useTagsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api<TagList>('POST', `${ws(w)}/tag-lists/${id}/${archived ? 'archive' : 'restore'}`),
  );
export const useDeleteTagList = (w: string) =>
  useTagsMutation(w, (id: string) => api<void>('DELETE', `${ws(w)}/tag-lists/${id}`));
export const useCreateTag = (w: string) =>
  useTagsMutation(w, ({ listId, name }: { listId: string; name: string }) =>
    api<Tag>('POST', `${ws(w)}/tag-lists/${listId}/tags`, { name }),
  );
export const useRenameTag = (w: string) =>
  useTagsMutation(w, ({ id, name }: { id: string; name: string }) =>
    api<Tag>('PATCH', `${ws(w)}/tags/${id}`, { name }),
  );
export const useArchiveTag = (w: string) =>
  useTagsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api<Tag>('POST', `${ws(w)}/tags/${id}/${archived ? 'archive' : 'restore'}`),
  );
export const useDeleteTag = (w: string) =>
  useTagsMutation(w, (id: string) => api<void>('DELETE', `${ws(w)}/tags/${id}`));
export const useMergeTag = (w: string) =>
  useTagsMutation(w, ({ id, intoTagId }: { id: string; intoTagId: string }) =>
    api<Tag>('POST', `${ws(w)}/tags/${id}/merge`, { intoTagId }),
  );
export const useSaveTagSettings = (w: string) =>
  useTagsMutation(w, (tagsRequired: boolean) => api<TagSettingsView>('PUT', `${ws(w)}/tag-settings`, { tagsRequired }));
/** Advanced tags: a list's rules (pick one, only on some projects, required on some projects). */
export const useSaveTagListRules = (w: string) =>
  useTagsMutation(w, ({ id, ...rules }: TagListRulesInput & { id: string }) =>
    api<TagList>('PUT', `${ws(w)}/tag-lists/${id}/rules`, rules),
  );
