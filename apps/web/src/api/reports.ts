import { toReportParams } from '@sundial/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';

/**
 * What the reports share with the screens that show report figures (the dashboards): the query keys,
 * so whatever refreshes reports refreshes them too, and the Estimates the budget watch list reads.
 */
export const reportKeys = {
  all: (w: string) => ['reports', w] as const,
  one: (w: string, kind: string, query: string) => ['reports', w, kind, query] as const,
};

type ParamValue = string | number | boolean | readonly string[] | undefined;
/** A report's query as its URL holds it (filters and the page's own choices), or a change to it. */
export type ParamPatch = Partial<Record<string, ParamValue>>;

/** Estimates: each budget of the projects and tasks the viewer sees against what was tracked. */
export function useEstimates(w: string, query: ParamPatch, enabled = true) {
  const params = toReportParams(query).toString();
  return useQuery({
    queryKey: reportKeys.one(w, 'estimates', params),
    queryFn: () => api('GET /workspaces/:workspaceId/reports/estimates', { params: { workspaceId: w }, query: params }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
