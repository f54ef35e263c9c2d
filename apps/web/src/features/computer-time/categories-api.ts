import type { ActivityCategoryBody, UpdateActivityCategoryBody } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

/** The query key of a workspace's Computer time categories (issue 35). */
export const categoryKeys = { list: (workspaceId: string) => ['computer-time', workspaceId, 'categories'] as const };

/** The categories activity is read by (the starter set until an admin changes it). */
export function useCategories(workspaceId: string) {
  return useQuery({
    queryKey: categoryKeys.list(workspaceId),
    queryFn: () => api('GET /workspaces/:workspaceId/computer-time/categories', { params: { workspaceId } }),
  });
}

function useCategoryChange<T>(workspaceId: string, call: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: categoryKeys.list(workspaceId) }),
  });
}

export const useCreateCategory = (workspaceId: string) =>
  useCategoryChange(workspaceId, (body: ActivityCategoryBody) =>
    api('POST /workspaces/:workspaceId/computer-time/categories', { params: { workspaceId }, body }),
  );

export const useUpdateCategory = (workspaceId: string) =>
  useCategoryChange(workspaceId, ({ id, body }: { id: string; body: UpdateActivityCategoryBody }) =>
    api('PATCH /workspaces/:workspaceId/computer-time/categories/:categoryId', {
      params: { workspaceId, categoryId: id },
      body,
    }),
  );

export const useDeleteCategory = (workspaceId: string) =>
  useCategoryChange(workspaceId, (id: string) =>
    api('DELETE /workspaces/:workspaceId/computer-time/categories/:categoryId', {
      params: { workspaceId, categoryId: id },
    }),
  );
