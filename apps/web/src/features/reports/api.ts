import {
  applyRowEdit,
  type DetailedEntryView,
  type DetailedReportView,
  MONEY_MEASURES,
  type ReportMeasure,
  toReportParams,
  type UpdateTimeEntryBody,
} from '@sundial/core';
import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiError, api } from '../../api/client';
import { type ParamPatch, reportKeys } from '../../api/reports';
import { patchTimeEntry, timeKeys } from '../../api/time';

const _base = (w: string) => `/workspaces/${w}/reports`;

/** A report's answer, and whether its amounts were left out because the viewer may not see them all. */
export type WithMoney<T> = T & { moneyHidden: boolean };

/**
 * Asks with the money measures wanted; when the API refuses them (money_forbidden: some people's
 * amounts are out of the viewer's reach; plan_limit_reached: the plan has no billing rates) asks
 * again without them. The API decides who sees money;
 * the page only shows what came back.
 */
async function withMoneyFallback<T extends object>(
  measures: readonly ReportMeasure[],
  ask: (measures: readonly ReportMeasure[]) => Promise<T>,
): Promise<WithMoney<T>> {
  try {
    return { ...(await ask(measures)), moneyHidden: false };
  } catch (error) {
    const without = measures.filter((m) => !MONEY_MEASURES.includes(m));
    const refused = error instanceof ApiError && ['money_forbidden', 'plan_limit_reached'].includes(error.code);
    if (!refused || without.length === measures.length) throw error;
    return { ...(await ask(without.length ? without : ['trackedSeconds'])), moneyHidden: true };
  }
}

const keyOf = (query: ParamPatch, measures: readonly ReportMeasure[]) =>
  toReportParams({ ...query, measures }).toString();

/** A Summary's or a matrix's request: the workspace, and the query with these measures. */
const measured = (w: string, query: ParamPatch, measures: readonly ReportMeasure[]) => ({
  params: { workspaceId: w },
  query: toReportParams({ ...query, measures }),
});

export function useSummary(w: string, query: ParamPatch, measures: readonly ReportMeasure[], enabled = true) {
  return useQuery({
    queryKey: reportKeys.one(w, 'summary', keyOf(query, measures)),
    queryFn: () =>
      withMoneyFallback(measures, (m) => api('GET /workspaces/:workspaceId/reports/summary', measured(w, query, m))),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * A folded Summary's subgroups: the groups beneath the one named by `path` (its keys), asked for
 * when it is opened, with the measures the Summary itself came with (money left out likewise).
 */
export function summarySubgroups(w: string, query: ParamPatch, measures: readonly ReportMeasure[]) {
  const ask = (path: (string | null)[]) => ({ ...query, within: JSON.stringify(path) });
  return {
    key: (path: (string | null)[]) => reportKeys.one(w, 'summary', keyOf(ask(path), measures)),
    fetch: (path: (string | null)[]) =>
      api('GET /workspaces/:workspaceId/reports/summary', measured(w, ask(path), measures)),
  };
}

export function useMatrix(w: string, query: ParamPatch, measures: readonly ReportMeasure[], enabled = true) {
  return useQuery({
    queryKey: reportKeys.one(w, 'matrix', keyOf(query, measures)),
    queryFn: () =>
      withMoneyFallback(measures, (m) => api('GET /workspaces/:workspaceId/reports/matrix', measured(w, query, m))),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The Detailed report, one keyset page after another (each page's nextCursor asks for the next). */
export function useDetailed(w: string, query: ParamPatch) {
  return useInfiniteQuery({
    queryKey: reportKeys.one(w, 'detailed', toReportParams(query).toString()),
    queryFn: ({ pageParam }) =>
      api('GET /workspaces/:workspaceId/reports/detailed', {
        params: { workspaceId: w },
        query: toReportParams({ ...query, cursor: pageParam }),
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** Marks entries invoiced or not; every report shows the change. */
export function useMarkInvoiced(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: string[]; invoiced: boolean }) =>
      api('POST /workspaces/:workspaceId/reports/invoiced', { params: { workspaceId: w }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all(w) }),
  });
}

/** Names a changed project or task shows under before the report answers (from the pickers). */
export type RowNames = Partial<Pick<DetailedEntryView, 'projectName' | 'projectColor' | 'clientName' | 'taskName'>>;
type DetailedPages = InfiniteData<DetailedReportView>;

/**
 * Edits an entry from the Detailed report through the timesheet's write (PATCH /time-entries/:id),
 * shown at once (optimistic): every loaded Detailed page shows the row as the server will store it
 * (`applyRowEdit`); a refusal puts back what was shown (the caller says why, see `notSaved`). Once
 * answered, every report (rows, amounts, totals) and the timesheet read it again.
 */
export function useEditDetailedEntry(w: string) {
  const queryClient = useQueryClient();
  const detailedKey = [...reportKeys.all(w), 'detailed'];
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateTimeEntryBody; names?: RowNames }) =>
      patchTimeEntry(w, id, body),
    onMutate: async ({ id, body, names }) => {
      // A reload already on its way would bring back the old row over the change.
      await queryClient.cancelQueries({ queryKey: detailedKey });
      const snapshot = queryClient.getQueriesData<DetailedPages>({ queryKey: detailedKey });
      queryClient.setQueriesData<DetailedPages>({ queryKey: detailedKey }, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((e) => (e.id === id ? { ...applyRowEdit(e, body), ...names } : e)),
              })),
            }
          : data,
      );
      return snapshot;
    },
    onError: (_error, _variables, snapshot) => {
      for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reportKeys.all(w) }),
        queryClient.invalidateQueries({ queryKey: timeKeys.all(w) }),
      ]),
  });
}
