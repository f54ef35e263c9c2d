import type { TagListRulesInput, TagListView, TagView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tagKeys, useTagLists } from '../../api/catalog';
import { api } from '../../api/client';

export type Tag = TagView;
export type TagList = TagListView;
export { tagKeys, useTagLists };

const _ws = (w: string) => `/workspaces/${w}`;

/** One tag with how many time entries carry it (null for those who may not manage tags). */
export const useTagDetail = (w: string, id: string, enabled: boolean) =>
  useQuery({
    queryKey: tagKeys.one(w, id),
    queryFn: () => api('GET /workspaces/:workspaceId/tags/:tagId', { params: { workspaceId: w, tagId: id } }),
    enabled,
    // The count must be the current one when the confirmation opens.
    staleTime: 0,
    gcTime: 0,
  });

export const useTagSettings = (w: string) =>
  useQuery({
    queryKey: tagKeys.settings(w),
    queryFn: () => api('GET /workspaces/:workspaceId/tag-settings', { params: { workspaceId: w } }),
  });

function useTagsMutation<TVars, TResult>(w: string, fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: tagKeys.all(w) }) });
}

export const useCreateTagList = (w: string) =>
  useTagsMutation(w, (name: string) =>
    api('POST /workspaces/:workspaceId/tag-lists', { params: { workspaceId: w }, body: { name } }),
  );
export const useRenameTagList = (w: string) =>
  useTagsMutation(w, ({ id, name }: { id: string; name: string }) =>
    api('PATCH /workspaces/:workspaceId/tag-lists/:tagListId', {
      params: { workspaceId: w, tagListId: id },
      body: { name },
    }),
  );
export const useArchiveTagList = (w: string) =>
  useTagsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api(`POST /workspaces/:workspaceId/tag-lists/:tagListId/${archived ? 'archive' : 'restore'}`, {
      params: { workspaceId: w, tagListId: id },
    }),
  );
export const useDeleteTagList = (w: string) =>
  useTagsMutation(w, (id: string) =>
    api('DELETE /workspaces/:workspaceId/tag-lists/:tagListId', { params: { workspaceId: w, tagListId: id } }),
  );
export const useCreateTag = (w: string) =>
  useTagsMutation(w, ({ listId, name }: { listId: string; name: string }) =>
    api('POST /workspaces/:workspaceId/tag-lists/:tagListId/tags', {
      params: { workspaceId: w, tagListId: listId },
      body: { name },
    }),
  );
export const useRenameTag = (w: string) =>
  useTagsMutation(w, ({ id, name }: { id: string; name: string }) =>
    api('PATCH /workspaces/:workspaceId/tags/:tagId', { params: { workspaceId: w, tagId: id }, body: { name } }),
  );
export const useArchiveTag = (w: string) =>
  useTagsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api(`POST /workspaces/:workspaceId/tags/:tagId/${archived ? 'archive' : 'restore'}`, {
      params: { workspaceId: w, tagId: id },
    }),
  );
export const useDeleteTag = (w: string) =>
  useTagsMutation(w, (id: string) =>
    api('DELETE /workspaces/:workspaceId/tags/:tagId', { params: { workspaceId: w, tagId: id } }),
  );
export const useMergeTag = (w: string) =>
  useTagsMutation(w, ({ id, intoTagId }: { id: string; intoTagId: string }) =>
    api('POST /workspaces/:workspaceId/tags/:tagId/merge', {
      params: { workspaceId: w, tagId: id },
      body: { intoTagId },
    }),
  );
export const useSaveTagSettings = (w: string) =>
  useTagsMutation(w, (tagsRequired: boolean) =>
    api('PUT /workspaces/:workspaceId/tag-settings', { params: { workspaceId: w }, body: { tagsRequired } }),
  );
/** Advanced tags: a list's rules (pick one, only on some projects, required on some projects). */
export const useSaveTagListRules = (w: string) =>
  useTagsMutation(w, ({ id, ...rules }: TagListRulesInput & { id: string }) =>
    api('PUT /workspaces/:workspaceId/tag-lists/:tagListId/rules', {
      params: { workspaceId: w, tagListId: id },
      body: rules,
    }),
  );
