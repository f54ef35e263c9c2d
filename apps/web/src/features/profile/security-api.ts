import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useListChange } from '../../api/list-change';
import { securityKeys, useTwoFactorChange } from '../../api/two-factor';

export const useTwoFactorStatus = () =>
  useQuery({ queryKey: securityKeys.twoFactor, queryFn: () => api('GET /me/two-factor') });

export const useRegenerateRecoveryCodes = () =>
  useTwoFactorChange((code: string) => api('POST /me/two-factor/recovery-codes', { body: { code } }));
export const useDisableTwoFactor = () =>
  useTwoFactorChange((code: string) => api('POST /me/two-factor/disable', { body: { code } }));

export const useSessions = () => useQuery({ queryKey: securityKeys.sessions, queryFn: () => api('GET /me/sessions') });

export const useRevokeSession = () =>
  useListChange(securityKeys.sessions, (id: string) =>
    api('DELETE /me/sessions/:sessionId', { params: { sessionId: id } }),
  );
export const useRevokeOtherSessions = () =>
  useListChange(securityKeys.sessions, (_: undefined) => api('POST /me/sessions/sign-out-others'));

/** The identity provider accounts linked to the user (docs/decisions/0014). */
export const useLinkedIdentities = () =>
  useQuery({ queryKey: securityKeys.identities, queryFn: () => api('GET /me/identities') });

export const useRemoveIdentity = () =>
  useListChange(securityKeys.identities, (id: string) =>
    api('DELETE /me/identities/:identityId', { params: { identityId: id } }),
  );

export const useTwoFactorPolicy = (workspaceId: string) =>
  useQuery({
    queryKey: securityKeys.policy(workspaceId),
    queryFn: () => api('GET /workspaces/:workspaceId/two-factor-policy', { params: { workspaceId } }),
  });

export function useSetTwoFactorPolicy(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) =>
      api('PUT /workspaces/:workspaceId/two-factor-policy', { params: { workspaceId }, body: { required } }),
    onSuccess: (data) => queryClient.setQueryData(securityKeys.policy(workspaceId), data),
  });
}

/** The computers the user paired with the desktop agent (issue 35). */
export const useDevices = () => useQuery({ queryKey: securityKeys.devices, queryFn: () => api('GET /me/devices') });

export const useRevokeDevice = () =>
  useListChange(securityKeys.devices, (deviceId: string) =>
    api('DELETE /me/devices/:deviceId', { params: { deviceId } }),
  );
