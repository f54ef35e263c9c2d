import type { AwayActivitiesBody, ResolveAwayBody } from '@sundial/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { timeKeys } from '../../api/time';

/** Away time's queries (issue 35): a person's away periods, the workspace's away activities, one's computers. */
export const awayKeys = {
  periods: (w: string) => ['computer-time', w, 'away'] as const,
  range: (w: string, userId: string, from: string, to: string) =>
    ['computer-time', w, 'away', userId, from, to] as const,
  activities: (w: string) => ['computer-time', w, 'away-activities'] as const,
  devices: ['computer-time', 'my-devices'] as const,
};

/** A person's away periods over [from, to) (instants), each with what it became. */
export const useAwayPeriods = (w: string, userId: string, from: string, to: string) =>
  useQuery({
    queryKey: awayKeys.range(w, userId, from, to),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/computer-time/away', {
        params: { workspaceId: w },
        query: { userId, from, to },
      }),
    placeholderData: keepPreviousData,
  });

export const useAwayActivities = (w: string) =>
  useQuery({
    queryKey: awayKeys.activities(w),
    queryFn: () => api('GET /workspaces/:workspaceId/computer-time/away-activities', { params: { workspaceId: w } }),
    staleTime: 60_000,
  });

/** The person's paired computers (every workspace's): none in this one shows how to install the app. */
export const useMyDevices = () => useQuery({ queryKey: awayKeys.devices, queryFn: () => api('GET /me/devices') });

/** Replaces the away activities (owners and admins). */
export function useSaveAwayActivities(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AwayActivitiesBody) =>
      api('PUT /workspaces/:workspaceId/computer-time/away-activities', { params: { workspaceId: w }, body }),
    onSuccess: (saved) => queryClient.setQueryData(awayKeys.activities(w), saved),
  });
}

/** Periods and time both change when a period becomes an entry or a break. */
function useAwayChange<T, R>(w: string, call: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: awayKeys.periods(w) }),
        queryClient.invalidateQueries({ queryKey: timeKeys.all(w) }),
      ]);
    },
  });
}

/** Says what one of one's away periods was (an entry, a break, dismissed); a retry is the same request. */
export const useResolveAway = (w: string) =>
  useAwayChange(w, (body: ResolveAwayBody) =>
    api('POST /workspaces/:workspaceId/computer-time/away/resolve', {
      params: { workspaceId: w },
      body,
      idempotencyKey: true,
    }),
  );

/** Undoes what one said of a period (an entry it made stays). */
export const useReopenAway = (w: string) =>
  useAwayChange(w, (start: string) =>
    api('DELETE /workspaces/:workspaceId/computer-time/away/resolutions', {
      params: { workspaceId: w },
      query: { start },
    }),
  );
