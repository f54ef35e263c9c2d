import type {
  BillingDetailsBody,
  BillingDetailsView,
  BillingQuoteView,
  BillingView,
  CardChangeView,
  CheckoutBody,
  CheckoutView,
  InvoiceView,
  MemberView,
  PageView,
  QuoteBody,
} from '@sundial/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { sessionKeys } from '../../api/session';

const base = (w: string) => `/workspaces/${w}/billing`;

export const billingKeys = {
  overview: (w: string) => ['billing', w] as const,
  quote: (w: string, terms: QuoteBody | null) => ['billing', w, 'quote', terms] as const,
  invoices: (w: string) => ['billing', w, 'invoices'] as const,
};

/** The card as the sandbox gateway tokenised it (the number never reaches our API). */
export interface CardToken {
  id: string;
  brand: string;
  last4: string;
}

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name: string;
}

export function useBilling(w: string, enabled = true) {
  return useQuery({ queryKey: billingKeys.overview(w), queryFn: () => api<BillingView>('GET', base(w)), enabled });
}

/**
 * The price of the terms now (by `billingAddress` when given, else the saved details); nothing is
 * asked while `terms` is null (an invalid license count).
 */
export function useQuote(w: string, terms: QuoteBody | null) {
  return useQuery({
    queryKey: billingKeys.quote(w, terms),
    queryFn: () => api<BillingQuoteView>('POST', `${base(w)}/quote`, terms),
    enabled: terms !== null,
    placeholderData: keepPreviousData,
  });
}

export function useInvoices(w: string) {
  return useQuery({
    queryKey: billingKeys.invoices(w),
    queryFn: () => api<{ items: InvoiceView[] }>('GET', `${base(w)}/invoices`),
  });
}

export function useSaveDetails(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetailsBody) => api<BillingDetailsView>('PUT', `${base(w)}/details`, body),
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
      api<BillingView>('POST', `${base(w)}/${action}`),
    onSuccess: refresh,
  });
}

export const tokenizeCard = (card: CardDetails) => api<CardToken>('POST', '/payments/sandbox/tokens', card);

export function useCheckout(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: ({ body, key }: { body: CheckoutBody; key: string }) =>
      api<CheckoutView>('POST', `${base(w)}/checkout`, body, { idempotencyKey: key }),
    onSuccess: refresh,
  });
}

export function useConfirmCheckout(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: (checkoutId: string) => api<CheckoutView>('POST', `${base(w)}/checkout/${checkoutId}/confirm`),
    onSuccess: refresh,
  });
}

/** Replaces the saved card with the card of `paymentToken` (a past-due renewal is charged on it at once). */
export function useReplaceCard(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: (paymentToken: string) => api<CardChangeView>('PUT', `${base(w)}/payment-method`, { paymentToken }),
    onSuccess: refresh,
  });
}

/** Back from the card's second step: saves it if the bank said yes. */
export function useConfirmCard(w: string) {
  const refresh = useRefresh(w);
  return useMutation({
    mutationFn: (changeId: string) => api<CardChangeView>('POST', `${base(w)}/payment-method/${changeId}/confirm`),
    onSuccess: refresh,
  });
}

export const invoicePdfPath = (w: string, id: string) => `/api/v1${base(w)}/invoices/${id}/pdf`;

/** The owners and admins to ask, for people who cannot buy (only asked where the role may list members). */
export function useBillingManagers(w: string, enabled: boolean) {
  return useQuery({
    queryKey: ['billing', w, 'managers'],
    queryFn: async () => {
      const page = await api<PageView<MemberView>>('GET', `/workspaces/${w}/members?limit=100&offset=0`);
      return page.items.filter((m) => m.status === 'active' && (m.role === 'owner' || m.role === 'admin'));
    },
    enabled,
  });
}
