import {
  type DetailedReportView,
  type MatrixReportView,
  MONEY_MEASURES,
  type ReportMeasure,
  type SummaryReportView,
  toReportParams,
} from '@sundial/core';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../api/client';
import { useRateSettings } from '../rates/api';
import type { ParamPatch } from './url';

const base = (w: string) => `/workspaces/${w}/reports`;

export const reportKeys = {
  all: (w: string) => ['reports', w] as const,
  one: (w: string, kind: string, query: string) => ['reports', w, kind, query] as const,
};

/** A report's answer, and whether its amounts were left out because the viewer may not see them all. */
export type WithMoney<T> = T & { moneyHidden: boolean };

/**
 * Asks with the money measures wanted; when the API refuses them (money_forbidden: some people's
 * amounts are out of the viewer's reach) asks again without them. The API decides who sees money;
 * the page only shows what came back.
 */
async function withMoneyFallback<T>(
  w: string,
  kind: 'summary' | 'matrix',
  query: ParamPatch,
  measures: readonly ReportMeasure[],
): Promise<WithMoney<T>> {
  const ask = (m: readonly ReportMeasure[]) =>
    api<T>('GET', `${base(w)}/${kind}?${toReportParams({ ...query, measures: m })}`);
  try {
    return { ...(await ask(measures)), moneyHidden: false };
  } catch (error) {
    const without = measures.filter((m) => !MONEY_MEASURES.includes(m));
    if (!(error instanceof ApiError && error.code === 'money_forbidden') || without.length === measures.length)
      throw error;
    return { ...(await ask(without.length ? without : ['trackedSeconds'])), moneyHidden: true };
  }
}

const keyOf = (query: ParamPatch, measures: readonly ReportMeasure[]) =>
  toReportParams({ ...query, measures }).toString();

export function useSummary(w: string, query: ParamPatch, measures: readonly ReportMeasure[], enabled = true) {
  return useQuery({
    queryKey: reportKeys.one(w, 'summary', keyOf(query, measures)),
    queryFn: () => withMoneyFallback<SummaryReportView>(w, 'summary', query, measures),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useMatrix(w: string, query: ParamPatch, measures: readonly ReportMeasure[], enabled = true) {
  return useQuery({
    queryKey: reportKeys.one(w, 'matrix', keyOf(query, measures)),
    queryFn: () => withMoneyFallback<MatrixReportView>(w, 'matrix', query, measures),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The Detailed report, one keyset page after another (each page's nextCursor asks for the next). */
export function useDetailed(w: string, query: ParamPatch) {
  return useInfiniteQuery({
    queryKey: reportKeys.one(w, 'detailed', toReportParams(query).toString()),
    queryFn: ({ pageParam }) =>
      api<DetailedReportView>('GET', `${base(w)}/detailed?${toReportParams({ ...query, cursor: pageParam })}`),
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
      api<{ updated: number }>('POST', `${base(w)}/invoiced`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.all(w) }),
  });
}

/** The workspace's currency, from its rate settings (USD until they are read). */
export function useCurrency(w: string): string {
  return useRateSettings(w).data?.currency ?? 'USD';
}
