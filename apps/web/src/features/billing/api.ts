import type { BillingDetailsBody, CheckoutBody, QuoteBody } from '@sundial/core';
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiUrl } from '../../api/client';
import { sessionKeys } from '../../api/session';

export const billingKeys = {
  overview: (w: string) => ['billing', w] as const,
  quote: (w: string, terms: QuoteBody | null) => ['billing', w, 'quote', terms] as const,
  invoices: (w: string) => ['billing', w, 'invoices'] as const,
};

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name: string;
}

export function useBilling(w: string, enabled = true) {
  return useQuery({
    queryKey: billingKeys.overview(w),
    queryFn: () => api('GET /workspaces/:workspaceId/billing', { params: { workspaceId: w } }),
    enabled,
  });
}

/**
 * The price of the terms now (by `billingAddress` when given, else the saved details); nothing is
 * asked while `terms` is null (an invalid license count).
 */
export function useQuote(w: string, terms: QuoteBody | null) {
  return useQuery({
    queryKey: billingKeys.quote(w, terms),
    queryFn:
      terms === null
        ? skipToken
        : () => api('POST /workspaces/:workspaceId/billing/quote', { params: { workspaceId: w }, body: terms }),
    placeholderData: keepPreviousData,
  });
}

export function useInvoices(w: string) {
  return useQuery({
    queryKey: billingKeys.invoices(w),
    queryFn: () => api('GET /workspaces/:workspaceId/billing/invoices', { params: { workspaceId: w } }),
  });
}

export function useSaveDetails(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetailsBody) =>
      api('PUT /workspaces/:workspaceId/billing/details', { params: { workspaceId: w }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['billing', w] }),
  });
}

/** Billing changed: the page, the invoices and the workspace's plan in /me. */
function useRefresh(w: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['billing', w] }),
      queryClient.invalidateQueries({ queryKey: sessionKeys.me }),
    ]);
}

/** Cancel, change to Free (the same at the period's end) or reactivate: each answers the billing page. */
export function useSubscriptionAction(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: (action: 'cancel' | 'change-to-free' | 'reactivate') =>
      api(`POST /workspaces/:workspaceId/billing/${action}`, { params: { workspaceId: w } }),
    onSuccess: refresh,
  });
}

export const tokenizeCard = (card: CardDetails) => api('POST /payments/sandbox/tokens', { body: card });

export function useCheckout(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: ({ body, key }: { body: CheckoutBody; key: string }) =>
      api('POST /workspaces/:workspaceId/billing/checkout', { params: { workspaceId: w }, body, idempotencyKey: key }),
    onSuccess: refresh,
  });
}

export function useConfirmCheckout(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: (checkoutId: string) =>
      api('POST /workspaces/:workspaceId/billing/checkout/:checkoutId/confirm', {
        params: { workspaceId: w, checkoutId },
      }),
    onSuccess: refresh,
  });
}

/** Replaces the saved card with the card of `paymentToken` (a past-due renewal is charged on it at once). */
export function useReplaceCard(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: (paymentToken: string) =>
      api('PUT /workspaces/:workspaceId/billing/payment-method', {
        params: { workspaceId: w },
        body: { paymentToken },
      }),
    onSuccess: refresh,
  });
}

/** Back from the card's second step: saves it if the bank said yes. */
export function useConfirmCard(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: (changeId: string) =>
      api('POST /workspaces/:workspaceId/billing/payment-method/:changeId/confirm', {
        params: { workspaceId: w, changeId },
      }),
    onSuccess: refresh,
  });
}

export const invoicePdfPath = (w: string, id: string) =>
  apiUrl('GET /workspaces/:workspaceId/billing/invoices/:invoiceId/pdf', { params: { workspaceId: w, invoiceId: id } });

/** The owners and admins to ask, for people who cannot buy (only asked where the role may list members). */
export function useBillingManagers(w: string, enabled: boolean) {
  return useQuery({
    queryKey: ['billing', w, 'managers'],
    queryFn: async () => {
      const page = await api('GET /workspaces/:workspaceId/members', {
        params: { workspaceId: w },
        query: 'limit=100&offset=0',
      });
      return page.items.filter((m) => m.status === 'active' && (m.role === 'owner' || m.role === 'admin'));
    },
    enabled,
  });
}
