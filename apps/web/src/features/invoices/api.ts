import type {
  ClientInvoiceListView,
  ClientInvoicePreviewView,
  ClientInvoiceSettingsBody,
  ClientInvoiceSettingsView,
  ClientInvoiceStatus,
  ClientInvoiceView,
  CreateClientInvoiceBody,
  PreviewClientInvoiceBody,
  SendClientInvoiceBody,
  UpdateClientInvoiceBody,
} from '@sundial/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

const base = (w: string) => `/workspaces/${w}/client-invoices`;

export const invoiceKeys = {
  all: (w: string) => ['client-invoices', w] as const,
  list: (w: string, status: ClientInvoiceStatus | null) => ['client-invoices', w, 'list', status] as const,
  one: (w: string, id: string) => ['client-invoices', w, 'one', id] as const,
  settings: (w: string) => ['client-invoices', w, 'settings'] as const,
};

export const invoicePdfPath = (w: string, id: string) => `${base(w)}/${id}/pdf`;

export const useClientInvoices = (w: string, status: ClientInvoiceStatus | null) =>
  useQuery({
    queryKey: invoiceKeys.list(w, status),
    queryFn: () => api<ClientInvoiceListView>('GET', `${base(w)}${status ? `?status=${status}` : ''}`),
    placeholderData: keepPreviousData,
  });

export const useClientInvoice = (w: string, id: string | null) =>
  useQuery({
    queryKey: invoiceKeys.one(w, id ?? ''),
    queryFn: () => api<ClientInvoiceView>('GET', `${base(w)}/${id}`),
    enabled: id !== null,
  });

export const useInvoiceSettings = (w: string) =>
  useQuery({
    queryKey: invoiceKeys.settings(w),
    queryFn: () => api<ClientInvoiceSettingsView>('GET', `/workspaces/${w}/client-invoice-settings`),
  });

export const usePreviewInvoice = (w: string) =>
  useMutation({
    mutationFn: (body: PreviewClientInvoiceBody) => api<ClientInvoicePreviewView>('POST', `${base(w)}/preview`, body),
  });

/** Every change of an invoice: the list, its totals and the open invoice read again. */
function useInvoiceMutation<B>(w: string, run: (body: B) => Promise<ClientInvoiceView>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (invoice) => {
      client.setQueryData(invoiceKeys.one(w, invoice.id), invoice);
      return client.invalidateQueries({ queryKey: invoiceKeys.all(w) });
    },
  });
}

export const useCreateInvoice = (w: string) =>
  useInvoiceMutation(w, (body: CreateClientInvoiceBody) => api<ClientInvoiceView>('POST', base(w), body));

export const useUpdateInvoice = (w: string, id: string) =>
  useInvoiceMutation(w, (body: UpdateClientInvoiceBody) => api<ClientInvoiceView>('PATCH', `${base(w)}/${id}`, body));

export type InvoiceStep = 'issue' | 'mark-sent' | 'void';
export const useInvoiceStep = (w: string, id: string) =>
  useInvoiceMutation(w, (step: InvoiceStep) => api<ClientInvoiceView>('POST', `${base(w)}/${id}/${step}`));

export const useMarkPaid = (w: string, id: string) =>
  useInvoiceMutation(w, (paidOn: string) => api<ClientInvoiceView>('POST', `${base(w)}/${id}/mark-paid`, { paidOn }));

export const useSendInvoice = (w: string, id: string) =>
  useInvoiceMutation(w, (body: SendClientInvoiceBody) => api<ClientInvoiceView>('POST', `${base(w)}/${id}/send`, body));

export function useDeleteInvoice(w: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<null>('DELETE', `${base(w)}/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: invoiceKeys.all(w) }),
  });
}

export function useSaveInvoiceSettings(w: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientInvoiceSettingsBody) =>
      api<ClientInvoiceSettingsView>('PUT', `/workspaces/${w}/client-invoice-settings`, body),
    onSuccess: (settings) => client.setQueryData(invoiceKeys.settings(w), settings),
  });
}
