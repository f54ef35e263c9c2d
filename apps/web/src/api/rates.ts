import {
  type CreateRateBody,
  DEFAULT_RATE_SETTINGS,
  type RateSettings,
  type RateTarget,
  type RateView,
  type ReapplyPreview,
  type ReapplyRatesBody,
  type UpdateRateSettingsBody,
} from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/**
 * The rates: the workspace's rate settings (read by the timesheet, reports, invoices and Team) and the
 * rate histories the rates panels (components/rates/) edit from Team and a project's edit panel.
 */

export type { RateSettings, RateTarget, RateView, ReapplyPreview };

export const rateKeys = {
  all: (ws: string) => ['rates', ws] as const,
  settings: (ws: string) => ['rates', ws, 'settings'] as const,
  history: (ws: string, t: RateTarget) => ['rates', ws, 'history', t] as const,
};

/** The workspace's currency and money visibility (every member reads the currency). */
export function useRateSettings(ws: string) {
  return useQuery({
    queryKey: rateKeys.settings(ws),
    queryFn: () => api('GET /workspaces/:workspaceId/rates/settings', { params: { workspaceId: ws } }),
    placeholderData: DEFAULT_RATE_SETTINGS,
  });
}

/** The workspace's currency, from its rate settings (USD until they are read). */
export function useCurrency(w: string): string {
  return useRateSettings(w).data?.currency ?? 'USD';
}

const _base = (ws: string) => `/workspaces/${ws}/rates`;

function targetQuery(t: RateTarget): string {
  const q = new URLSearchParams({ level: t.level });
  if (t.userId) q.set('userId', t.userId);
  if (t.projectId) q.set('projectId', t.projectId);
  if (t.taskId) q.set('taskId', t.taskId);
  return q.toString();
}

export function useUpdateRateSettings(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRateSettingsBody) =>
      api('PATCH /workspaces/:workspaceId/rates/settings', { params: { workspaceId: ws }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: rateKeys.all(ws) }),
  });
}

/** One level's rate history, newest first, as far as the reader may see it (costs only for some). */
export function useRateHistory(ws: string, target: RateTarget) {
  return useQuery({
    queryKey: rateKeys.history(ws, target),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/rates', { params: { workspaceId: ws }, query: targetQuery(target) }),
  });
}

export function useCreateRate(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRateBody) =>
      api('POST /workspaces/:workspaceId/rates', { params: { workspaceId: ws }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: rateKeys.all(ws) }),
  });
}

export function useDeleteRate(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api('DELETE /workspaces/:workspaceId/rates/:rateId', { params: { workspaceId: ws, rateId: id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: rateKeys.all(ws) }),
  });
}

export function useReapplyPreview(ws: string) {
  return useMutation({
    mutationFn: (body: ReapplyRatesBody) =>
      api('POST /workspaces/:workspaceId/rates/reapply/preview', { params: { workspaceId: ws }, body }),
  });
}

export function useReapply(ws: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReapplyRatesBody) =>
      api('POST /workspaces/:workspaceId/rates/reapply', { params: { workspaceId: ws }, body }),
    // Entries' copied rates changed: every screen showing entries reads them again.
    onSuccess: () => client.invalidateQueries(),
  });
}
