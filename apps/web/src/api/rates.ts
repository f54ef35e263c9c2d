import { DEFAULT_RATE_SETTINGS, type RateSettings, type RateTarget } from '@sundial/core';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/** The rates' keys and the workspace's rate settings, read by the timesheet, reports, invoices and Team. */

export const rateKeys = {
  all: (ws: string) => ['rates', ws] as const,
  settings: (ws: string) => ['rates', ws, 'settings'] as const,
  history: (ws: string, t: RateTarget) => ['rates', ws, 'history', t] as const,
};

/** The workspace's currency and money visibility (every member reads the currency). */
export function useRateSettings(ws: string) {
  return useQuery({
    queryKey: rateKeys.settings(ws),
    queryFn: () => api<RateSettings>('GET', `/workspaces/${ws}/rates/settings`),
    placeholderData: DEFAULT_RATE_SETTINGS,
  });
}

/** The workspace's currency, from its rate settings (USD until they are read). */
export function useCurrency(w: string): string {
  return useRateSettings(w).data?.currency ?? 'USD';
}
