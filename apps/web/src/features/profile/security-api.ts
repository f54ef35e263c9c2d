import type { LinkedIdentitiesView, RecoveryCodesView, SessionView, TwoFactorStatusView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { securityKeys, useTwoFactorChange } from '../../api/two-factor';

export const useTwoFactorStatus = () =>
  useQuery({ queryKey: securityKeys.twoFactor, queryFn: () => api<TwoFactorStatusView>('GET', '/me/two-factor') });

export const useRegenerateRecoveryCodes = () =>
  useTwoFactorChange((code: string) => api<RecoveryCodesView>('POST', '/me/two-factor/recovery-codes', { code }));
export const useDisableTwoFactor = () =>
  useTwoFactorChange((code: string) => api<void>('POST', '/me/two-factor/disable', { code }));

export const useSessions = () =>
  useQuery({ queryKey: securityKeys.sessions, queryFn: () => api<{ items: SessionView[] }>('GET', '/me/sessions') });

function useSessionsChange<TBody>(call: (body: TBody) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.sessions }),
  });
}
export const useRevokeSession = () => useSessionsChange((id: string) => api<void>('DELETE', `/me/sessions/${id}`));
export const useRevokeOtherSessions = () =>
  useSessionsChange((_: undefined) => api<void>('POST', '/me/sessions/sign-out-others'));

/** The identity provider accounts linked to the user (docs/decisions/0014). */
export const useLinkedIdentities = () =>
  useQuery({ queryKey: securityKeys.identities, queryFn: () => api<LinkedIdentitiesView>('GET', '/me/identities') });

export function useRemoveIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', `/me/identities/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.identities }),
  });
}

export const useTwoFactorPolicy = (workspaceId: string) =>
  useQuery({
    queryKey: securityKeys.policy(workspaceId),
    queryFn: () => api<{ required: boolean }>('GET', `/workspaces/${workspaceId}/two-factor-policy`),
  });

export function useSetTwoFactorPolicy(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) =>
      api<{ required: boolean }>('PUT', `/workspaces/${workspaceId}/two-factor-policy`, { required }),
    onSuccess: (data) => queryClient.setQueryData(securityKeys.policy(workspaceId), data),
  });
}
