import type { CustomRoleBody, CustomRoleView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { sessionKeys } from '../../api/session';

export type { CustomRoleView };

const _base = (ws: string) => `/workspaces/${ws}`;
export const rolesKeys = {
  all: (ws: string) => ['roles', ws] as const,
  scim: (ws: string) => ['roles', ws, 'scim'] as const,
};

export const useCustomRoles = (ws: string, enabled: boolean) =>
  useQuery({
    queryKey: rolesKeys.all(ws),
    queryFn: async () => (await api('GET /workspaces/:workspaceId/roles', { params: { workspaceId: ws } })).items,
    enabled,
  });

export const useScimToken = (ws: string, enabled: boolean) =>
  useQuery({
    queryKey: rolesKeys.scim(ws),
    queryFn: () => api('GET /workspaces/:workspaceId/scim-token', { params: { workspaceId: ws } }),
    enabled,
  });

/** A change to roles: refreshes them, the people screens and who may do what (`/me`). */
function useRolesMutation<TArgs, TResult>(ws: string, call: (args: TArgs) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['roles', ws] }),
        queryClient.invalidateQueries({ queryKey: ['team', ws] }),
        queryClient.invalidateQueries({ queryKey: sessionKeys.me }),
      ]),
  });
}

export const useSaveRole = (ws: string) =>
  useRolesMutation(ws, ({ id, body }: { id?: string; body: CustomRoleBody }) =>
    id
      ? api('PUT /workspaces/:workspaceId/roles/:roleId', { params: { workspaceId: ws, roleId: id }, body })
      : api('POST /workspaces/:workspaceId/roles', { params: { workspaceId: ws }, body }),
  );
export const useDeleteRole = (ws: string) =>
  useRolesMutation(ws, (id: string) =>
    api('DELETE /workspaces/:workspaceId/roles/:roleId', { params: { workspaceId: ws, roleId: id } }),
  );
export const useAssignRole = (ws: string) =>
  useRolesMutation(
    ws,
    ({ kind, id, customRoleId }: { kind: 'members' | 'groups'; id: string; customRoleId: string | null }) =>
      kind === 'members'
        ? api('PUT /workspaces/:workspaceId/members/:userId/custom-role', {
            params: { workspaceId: ws, userId: id },
            body: { customRoleId },
          })
        : api('PUT /workspaces/:workspaceId/groups/:groupId/custom-role', {
            params: { workspaceId: ws, groupId: id },
            body: { customRoleId },
          }),
  );
export const useIssueScimToken = (ws: string) =>
  useRolesMutation(ws, () => api('POST /workspaces/:workspaceId/scim-token', { params: { workspaceId: ws } }));
export const useRevokeScimToken = (ws: string) =>
  useRolesMutation(ws, () => api('DELETE /workspaces/:workspaceId/scim-token', { params: { workspaceId: ws } }));
