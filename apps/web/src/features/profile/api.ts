import type { ProfileUpdateBody } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../api/client';
import { sessionKeys, type WorkspaceView } from '../../api/session';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileUpdateBody) => api('PATCH /me', { body: changes }),
    onSuccess: (data) => queryClient.setQueryData(sessionKeys.me, data),
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => api('POST /me/password', { body }),
  });

export function useRenameWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api('PATCH /workspaces/:workspaceId', { params: { workspaceId: id }, body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.me }),
  });
}

export const workspaceKeys = { detail: (id: string) => ['workspace', id] as const };

/** One workspace with its settings (its allowed e-mail domains). */
export const useWorkspaceDetail = (id: string) =>
  useQuery({
    queryKey: workspaceKeys.detail(id),
    queryFn: () => api('GET /workspaces/:workspaceId', { params: { workspaceId: id } }),
  });

/** Sets the workspace's allowed e-mail domains (owner or admin); an empty list allows any address. */
export function useSetAllowedEmailDomains(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (allowedEmailDomains: string[]) =>
      api('PATCH /workspaces/:workspaceId', { params: { workspaceId: id }, body: { allowedEmailDomains } }),
    onSuccess: (data) => queryClient.setQueryData(workspaceKeys.detail(id), data),
  });
}

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const workspace = await api('POST /workspaces', { body: { name } });
      return api('PATCH /me', { body: { currentWorkspaceId: workspace.id } });
    },
    onSuccess: (data) => {
      queryClient.setQueryData(sessionKeys.me, data);
    },
  });
}

const logoKey = (workspaceId: string) => ['workspace-logo', workspaceId] as const;

/**
 * The workspace's logo as a data: URL for an <img> (the page's CSP allows data: images), or null when
 * it has none. Asked for only when the workspace view says there is one (`hasLogo`): a 404 for a
 * logo never set was an error in every console.
 */
export function useWorkspaceLogo(workspace: Pick<WorkspaceView, 'id' | 'hasLogo'>) {
  const workspaceId = workspace.id;
  return useQuery({
    queryKey: logoKey(workspaceId),
    enabled: workspace.hasLogo,
    queryFn: async () => {
      const response = await fetch(`/api/v1/workspaces/${workspaceId}/logo`, { credentials: 'same-origin' });
      if (response.status === 404) {
        // Read to its end: an unread answer stays open in the browser (the page never goes quiet).
        await response.arrayBuffer();
        return null;
      }
      if (!response.ok) throw new ApiError(response.status, 'unknown_error', 'The logo could not be loaded.');
      return dataUrlOf(await response.blob());
    },
  });
}

const dataUrlOf = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** Reads a file as base64 (what the logo route takes). */
const base64Of = async (file: Blob) => (await dataUrlOf(file)).replace(/^data:[^,]*,/, '');

export function useSetWorkspaceLogo(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: Blob) =>
      api('PUT /workspaces/:workspaceId/logo', {
        params: { workspaceId },
        body: {
          data: await base64Of(file),
        },
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: logoKey(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: sessionKeys.me }),
      ]),
  });
}

export function useRemoveWorkspaceLogo(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('DELETE /workspaces/:workspaceId/logo', { params: { workspaceId } }),
    onSuccess: () => {
      queryClient.setQueryData(logoKey(workspaceId), null);
      return queryClient.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
}
