import type { NotificationListView, NotificationSetting, NotificationSettingsView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const notificationKeys = { all: (w: string) => ['notifications', w] as const };
const base = (w: string) => `/workspaces/${w}/notifications`;

/** My newest notifications and the unread count; asked again every minute (alerts come from a job). */
export const useNotifications = (w: string) =>
  useQuery({
    queryKey: notificationKeys.all(w),
    queryFn: () => api<NotificationListView>('GET', base(w)),
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
  useNotificationsMutation(w, (id: string) => api<void>('POST', `${base(w)}/${id}/read`));
export const useMarkAllRead = (w: string) => useNotificationsMutation(w, () => api<void>('POST', `${base(w)}/read`));

/** Which kinds of notification reach me, in the bell and by e-mail. */
export const useNotificationSettings = (w: string, enabled: boolean) =>
  useQuery({
    queryKey: [...notificationKeys.all(w), 'settings'],
    queryFn: () => api<NotificationSettingsView>('GET', `${base(w)}/settings`),
    enabled,
  });

export const useSaveNotificationSettings = (w: string) =>
  useNotificationsMutation(w, (items: NotificationSetting[]) =>
    api<NotificationSettingsView>('PUT', `${base(w)}/settings`, { items }),
  );
