import type { CreateWebhookBody, UpdateWebhookBody, WebhookDeliveryPage } from '@sundial/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client';

/** The query keys of the webhooks page (issue 34). */
export const webhookKeys = {
  list: (workspaceId: string) => ['webhooks', workspaceId] as const,
  deliveries: (workspaceId: string, webhookId: string) => ['webhooks', workspaceId, webhookId, 'deliveries'] as const,
};

const PAGE = 20;

/** The workspace's webhooks. */
export const useWebhooks = (workspaceId: string) =>
  useQuery({
    queryKey: webhookKeys.list(workspaceId),
    queryFn: () => api('GET /workspaces/:workspaceId/webhooks', { params: { workspaceId } }),
  });

/** A mutation of one workspace's webhooks, after which their list is read again. */
function useWebhookChange<TArg, TResult>(workspaceId: string, call: (arg: TArg) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(workspaceId) }),
  });
}

/** A new webhook: challenged at once; the answer holds its signing secret, this once. */
export const useCreateWebhook = (workspaceId: string) =>
  useWebhookChange(workspaceId, (body: CreateWebhookBody) =>
    api('POST /workspaces/:workspaceId/webhooks', { params: { workspaceId }, body }),
  );

export const useUpdateWebhook = (workspaceId: string) =>
  useWebhookChange(workspaceId, ({ webhookId, body }: { webhookId: string; body: UpdateWebhookBody }) =>
    api('PATCH /workspaces/:workspaceId/webhooks/:webhookId', { params: { workspaceId, webhookId }, body }),
  );

export const useDeleteWebhook = (workspaceId: string) =>
  useWebhookChange(workspaceId, (webhookId: string) =>
    api('DELETE /workspaces/:workspaceId/webhooks/:webhookId', { params: { workspaceId, webhookId } }),
  );

/** Sends the endpoint a signed challenge again. */
export const useValidateWebhook = (workspaceId: string) =>
  useWebhookChange(workspaceId, (webhookId: string) =>
    api('POST /workspaces/:workspaceId/webhooks/:webhookId/validate', { params: { workspaceId, webhookId } }),
  );

export const useRevealSecret = (workspaceId: string) =>
  useMutation({
    mutationFn: (webhookId: string) =>
      api('GET /workspaces/:workspaceId/webhooks/:webhookId/secret', { params: { workspaceId, webhookId } }),
  });

export const useRotateSecret = (workspaceId: string) =>
  useMutation({
    mutationFn: (webhookId: string) =>
      api('POST /workspaces/:workspaceId/webhooks/:webhookId/secret/rotate', { params: { workspaceId, webhookId } }),
  });

/** A webhook's deliveries of the last 7 days, newest first, a page at a time by cursor. */
export function useDeliveries(workspaceId: string, webhookId: string | null) {
  const query = useInfiniteQuery({
    queryKey: webhookKeys.deliveries(workspaceId, webhookId ?? ''),
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (pageParam) query.set('cursor', pageParam);
      return api('GET /workspaces/:workspaceId/webhooks/:webhookId/deliveries', {
        params: { workspaceId, webhookId: webhookId ?? '' },
        query,
      });
    },
    initialPageParam: '',
    getNextPageParam: (last: WebhookDeliveryPage) => last.nextCursor ?? undefined,
    enabled: webhookId !== null,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { ...query, items };
}

/** Sends a delivery's event again, as a new delivery; the deliveries are read again. */
export function useRedeliver(workspaceId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api('POST /workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/redeliver', {
        params: { workspaceId, webhookId, deliveryId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(workspaceId, webhookId) }),
  });
}
