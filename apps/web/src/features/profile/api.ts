import type { ProfileUpdateBody } from '@sundial/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { type Me, sessionKeys, type WorkspaceView } from '../../api/session';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileUpdateBody) => api<Me>('PATCH', '/me', changes),
    onSuccess: (data) => queryClient.setQueryData(sessionKeys.me, data),
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => api<void>('POST', '/me/password', body),
  });

export function useRenameWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api<WorkspaceView>('PATCH', `/workspaces/${id}`, { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.me }),
  });
}

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const workspace = await api<WorkspaceView>('POST', '/workspaces', { name });
      return api<Me>('PATCH', '/me', { currentWorkspaceId: workspace.id });
    },
    onSuccess: (data) => {
      queryClient.setQueryData(sessionKeys.me, data);
    },
  });
}
