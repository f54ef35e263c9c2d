import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/**
 * Two-factor authentication and sessions of the signed-in user (issue 18): the keys, and setting it
 * up, which the profile and the sign-in (a workspace that requires it) both do.
 */
export const securityKeys = {
  twoFactor: ['two-factor'] as const,
  sessions: ['sessions'] as const,
  identities: ['identities'] as const,
  /** The user's personal API keys (issue 34). */
  apiKeys: ['api-keys'] as const,
  /** The computers the user paired with the desktop agent (issue 35). */
  devices: ['devices'] as const,
  policy: (workspaceId: string) => ['two-factor-policy', workspaceId] as const,
};

export const useTwoFactorSetup = () => useMutation({ mutationFn: () => api('POST /me/two-factor/setup') });

/** Mutations that change where the user stands: the status is read again after each. */
export function useTwoFactorChange<TBody, TResult>(call: (body: TBody) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.twoFactor }),
  });
}

export const useEnableTwoFactor = () =>
  useTwoFactorChange((code: string) => api('POST /me/two-factor/enable', { body: { code } }));
