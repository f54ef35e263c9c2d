import { type ReportMeasure, toReportParams } from '@sundial/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiUrl } from '../../api/client';
import { type ParamPatch, reportKeys } from '../../api/reports';

export const dashboardKeys = {
  timers: (w: string) => ['dashboard', w, 'timers'] as const,
};

/**
 * A Summary of the report engine under the reports' keys (so whatever refreshes reports refreshes
 * the dashboard). Tracked and billable time only: the dashboard shows no money.
 */
export function useDashboardSummary(
  w: string,
  query: ParamPatch,
  measures: ReportMeasure[] = ['trackedSeconds'],
  enabled = true,
  refetchInterval: number | false = false,
) {
  const params = toReportParams({ ...query, measures }).toString();
  return useQuery({
    queryKey: reportKeys.one(w, 'summary', params),
    queryFn: () => api('GET /workspaces/:workspaceId/reports/summary', { params: { workspaceId: w }, query: params }),
    enabled,
    refetchInterval,
  });
}

/** The newest entries of a report's range (one page of the Detailed report, newest first). */
export function useLatestEntries(w: string, query: ParamPatch, limit: number) {
  const params = toReportParams({ ...query, sort: 'start', order: 'desc', limit }).toString();
  return useQuery({
    queryKey: reportKeys.one(w, 'detailed', params),
    queryFn: () => api('GET /workspaces/:workspaceId/reports/detailed', { params: { workspaceId: w }, query: params }),
  });
}

/** The running timers the viewer may see: their own, a manager's people's, or everyone's. */
export function useRunningTimers(w: string, enabled = true) {
  return useQuery({
    queryKey: dashboardKeys.timers(w),
    queryFn: async () => (await api('GET /workspaces/:workspaceId/timers', { params: { workspaceId: w } })).items,
    enabled,
  });
}

/**
 * Keeps the page live: every change to the time the viewer follows (their own, or with `everyone`
 * all the time they reach), from any person, tab or device, refreshes the figures and the running
 * timers. The same stream as the timesheet's.
 */
export function useLiveTime(w: string, userId: string, everyone: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(
      apiUrl('GET /workspaces/:workspaceId/time-entries/events', {
        params: { workspaceId: w },
        query: { userId: everyone ? 'all' : userId },
      }),
    );
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: reportKeys.all(w) });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.timers(w) });
    };
    source.addEventListener('change', refresh);
    // After a dropped connection, catch up on what was missed.
    source.addEventListener('ready', refresh);
    return () => source.close();
  }, [w, userId, everyone, queryClient]);
}

/** The desktop agent this server offers for download (no sign-in needed; changes only with a deploy). */
export function useAgentRelease() {
  return useQuery({
    queryKey: ['agent', 'release'],
    queryFn: () => api('GET /agent/release', {}),
    staleTime: 10 * 60_000,
  });
}
