import { dayBounds, type UpdateTimeEntryBody } from '@sundial/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

/**
 * Time entries' keys, the workspace's time settings and the one write of an entry, read and made by
 * the timesheet, the reports and the dashboards alike.
 */

const _ws = (w: string) => `/workspaces/${w}`;

export const timeKeys = {
  all: (w: string) => ['time', w] as const,
  entries: (w: string, userId: string, from: string, to: string) => ['time', w, 'entries', userId, from, to] as const,
  timer: (w: string, userId: string) => ['time', w, 'timer', userId] as const,
  settings: (w: string) => ['time', w, 'settings'] as const,
};

export const timeSettingsQuery = (w: string) =>
  queryOptions({
    queryKey: timeKeys.settings(w),
    queryFn: () => api('GET /workspaces/:workspaceId/time-settings', { params: { workspaceId: w } }),
  });
export const useTimeSettings = (w: string) => useQuery(timeSettingsQuery(w));

export const patchTimeEntry = (w: string, id: string, body: UpdateTimeEntryBody) =>
  api('PATCH /workspaces/:workspaceId/time-entries/:entryId', { params: { workspaceId: w, entryId: id }, body });

/** Every entry of the user touching the local days first..last (inclusive). */
export function entriesQuery(w: string, userId: string, firstDay: string, lastDay: string, timeZone: string) {
  const from = new Date(dayBounds(firstDay, timeZone).startMs).toISOString();
  const to = new Date(dayBounds(lastDay, timeZone).endMs).toISOString();
  return queryOptions({
    queryKey: timeKeys.entries(w, userId, from, to),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/time-entries', {
        params: { workspaceId: w },
        query: new URLSearchParams({ from, to, userId, limit: '1000' }),
      }),
  });
}
