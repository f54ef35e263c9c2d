import type { NotificationSetting } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const notificationKeys = { all: (w: string) => ['notifications', w] as const };
const _base = (w: string) => `/workspaces/${w}/notifications`;

/** My newest notifications and the unread count; asked again every minute (alerts come from a job). */
export const useNotifications = (w: string) =>
  useQuery({
    queryKey: notificationKeys.all(w),
    queryFn: () => api('GET /workspaces/:workspaceId/notifications', { params: { workspaceId: w } }),
    refetchInterval: 60_000,
  });

function useNotificationsMutation<T>(w: string, fn: (vars: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all(w) }),
  });
}

export const useMarkRead = (w: string) =>
  useNotificationsMutation(w, (id: string) =>
    api('POST /workspaces/:workspaceId/notifications/:notificationId/read', {
      params: { workspaceId: w, notificationId: id },
    }),
  );
export const useMarkAllRead = (w: string) =>
  useNotificationsMutation(w, () =>
    api('POST /workspaces/:workspaceId/notifications/read', { params: { workspaceId: w } }),
  );

/** Which kinds of notification reach me, in the bell and by e-mail. */
export const useNotificationSettings = (w: string, enabled: boolean) =>
  useQuery({
    queryKey: [...notificationKeys.all(w), 'settings'],
    queryFn: () => api('GET /workspaces/:workspaceId/notifications/settings', { params: { workspaceId: w } }),
    enabled,
  });

export const useSaveNotificationSettings = (w: string) =>
  useNotificationsMutation(w, (items: NotificationSetting[]) =>
    api('PUT /workspaces/:workspaceId/notifications/settings', { params: { workspaceId: w }, body: { items } }),
  );
