import type { ApiKeyRole, CreateApiKeyBody } from '@sundial/core';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useListChange } from './list-change';
import { securityKeys } from './two-factor';

/**
 * API keys (issue 34): a person's own (no workspace), or a workspace's for its integrations
 * (owners and admins): listed, made (the answer holds the token, this once), revoked.
 */
const keysOf = (workspaceId?: string) =>
  workspaceId ? (['workspace-api-keys', workspaceId] as const) : securityKeys.apiKeys;

export const useApiKeys = (workspaceId?: string) =>
  useQuery({
    queryKey: keysOf(workspaceId),
    queryFn: () =>
      workspaceId ? api('GET /workspaces/:workspaceId/api-keys', { params: { workspaceId } }) : api('GET /me/api-keys'),
  });

/** A new key; a workspace's acts with `actsAs` (a member's role when not said). */
export const useCreateApiKey = (workspaceId?: string) =>
  useListChange(keysOf(workspaceId), (body: CreateApiKeyBody & { actsAs?: ApiKeyRole }) =>
    workspaceId
      ? api('POST /workspaces/:workspaceId/api-keys', {
          params: { workspaceId },
          body: { ...body, actsAs: body.actsAs ?? 'member' },
        })
      : api('POST /me/api-keys', { body }),
  );

export const useRevokeApiKey = (workspaceId?: string) =>
  useListChange(keysOf(workspaceId), (keyId: string) =>
    workspaceId
      ? api('DELETE /workspaces/:workspaceId/api-keys/:keyId', { params: { workspaceId, keyId } })
      : api('DELETE /me/api-keys/:keyId', { params: { keyId } }),
  );
