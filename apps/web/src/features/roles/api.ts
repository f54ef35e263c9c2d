import type { CustomRoleBody, CustomRoleView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { sessionKeys } from '../../api/session';

export type { CustomRoleView };
export interface ScimTokenStatus {
  active: boolean;
  createdAt: string | null;
  lastUsedAt: string | null;
  baseUrl: string;
}

const base = (ws: string) => `/workspaces/${ws}`;
export const rolesKeys = {
  all: (ws: string) => ['roles', ws] as const,
  scim: (ws: string) => ['roles', ws, 'scim'] as const,
};

export const useCustomRoles = (ws: string, enabled: boolean) =>
  useQuery({
    queryKey: rolesKeys.all(ws),
    queryFn: async () => (await api<{ items: CustomRoleView[] }>('GET', `${base(ws)}/roles`)).items,
    enabled,
  });

export const useScimToken = (ws: string, enabled: boolean) =>
  useQuery({
    queryKey: rolesKeys.scim(ws),
    queryFn: () => api<ScimTokenStatus>('GET', `${base(ws)}/scim-token`),
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
    api<CustomRoleView>(id ? 'PUT' : 'POST', id ? `${base(ws)}/roles/${id}` : `${base(ws)}/roles`, body),
  );
export const useDeleteRole = (ws: string) =>
  useRolesMutation(ws, (id: string) => api<null>('DELETE', `${base(ws)}/roles/${id}`));
export const useAssignRole = (ws: string) =>
  useRolesMutation(
    ws,
    ({ kind, id, customRoleId }: { kind: 'members' | 'groups'; id: string; customRoleId: string | null }) =>
      api<null>('PUT', `${base(ws)}/${kind}/${id}/custom-role`, { customRoleId }),
  );
export const useIssueScimToken = (ws: string) =>
  useRolesMutation(ws, () => api<{ token: string; baseUrl: string }>('POST', `${base(ws)}/scim-token`));
export const useRevokeScimToken = (ws: string) =>
  useRolesMutation(ws, () => api<null>('DELETE', `${base(ws)}/scim-token`));
