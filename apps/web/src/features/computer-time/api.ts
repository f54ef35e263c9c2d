import { type ComputerTimeSettingsBody, type CreateTimeEntryBody, dayBounds } from '@sundial/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { entriesQuery, timeKeys } from '../../api/time';

/** Computer time's queries (issue 35): the workspace's settings, a person's spans of a day, activities per day. */
export const computerTimeKeys = {
  all: (w: string) => ['computer-time', w] as const,
  settings: (w: string) => ['computer-time', w, 'settings'] as const,
  spans: (w: string, userId: string, from: string, to: string) =>
    ['computer-time', w, 'spans', userId, from, to] as const,
  activities: (w: string, from: string, to: string, userIds: string[]) =>
    ['computer-time', w, 'activities', from, to, userIds] as const,
};

/** The instants of a local day, as the API reads a range: [start, end). */
export function dayRange(day: string, timeZone: string): { from: string; to: string } {
  const { startMs, endMs } = dayBounds(day, timeZone);
  return { from: new Date(startMs).toISOString(), to: new Date(endMs).toISOString() };
}

export const useComputerTimeSettings = (w: string) =>
  useQuery({
    queryKey: computerTimeKeys.settings(w),
    queryFn: () => api('GET /workspaces/:workspaceId/computer-time/settings', { params: { workspaceId: w } }),
    staleTime: 60_000,
  });

/** A person's spans over one local day. */
export function useDaySpans(w: string, userId: string, day: string, timeZone: string) {
  const { from, to } = dayRange(day, timeZone);
  return useQuery({
    queryKey: computerTimeKeys.spans(w, userId, from, to),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/computer-time/spans', {
        params: { workspaceId: w },
        query: { userId, from, to },
      }),
  });
}

/**
 * A person's time entries touching one local day, read as the Timesheet reads them and under the
 * same keys, so a new entry shows in both.
 */
export const useDayEntries = (w: string, userId: string, day: string, timeZone: string) =>
  useQuery(entriesQuery(w, userId, day, day, timeZone));

/**
 * Seconds per day and application over the days from..to (inclusive), of the people given (else
 * everyone the viewer sees) added up: the server adds them, so a month of a large team stays small.
 */
export const useActivities = (w: string, from: string, to: string, userIds: string[]) =>
  useQuery({
    queryKey: computerTimeKeys.activities(w, from, to, userIds),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/computer-time/activities', {
        params: { workspaceId: w },
        query: { from, to, userIds: userIds.length > 0 ? userIds.join(',') : undefined, together: 'true' },
      }),
    placeholderData: keepPreviousData,
  });

/** A time entry made of activity, through the one write path of time (locks, required tags, approvals apply). */
export function useCreateEntryFromActivity(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTimeEntryBody) =>
      api('POST /workspaces/:workspaceId/time-entries', { params: { workspaceId: w }, body, idempotencyKey: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: timeKeys.all(w) }),
  });
}

/** Replaces the workspace's computer time settings (owners and admins). */
export function useSaveComputerTimeSettings(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ComputerTimeSettingsBody) =>
      api('PUT /workspaces/:workspaceId/computer-time/settings', { params: { workspaceId: w }, body }),
    onSuccess: (saved) => queryClient.setQueryData(computerTimeKeys.settings(w), saved),
  });
}
