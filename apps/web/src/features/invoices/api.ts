import type {
  ClientInvoiceSettingsBody,
  ClientInvoiceStatus,
  ClientInvoiceView,
  CreateClientInvoiceBody,
  PreviewClientInvoiceBody,
  SendClientInvoiceBody,
  UpdateClientInvoiceBody,
} from '@sundial/core';
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

const _base = (w: string) => `/workspaces/${w}/client-invoices`;

export const invoiceKeys = {
  all: (w: string) => ['client-invoices', w] as const,
  list: (w: string, status: ClientInvoiceStatus | null) => ['client-invoices', w, 'list', status] as const,
  one: (w: string, id: string) => ['client-invoices', w, 'one', id] as const,
  settings: (w: string) => ['client-invoices', w, 'settings'] as const,
};

export const useClientInvoices = (w: string, status: ClientInvoiceStatus | null) =>
  useQuery({
    queryKey: invoiceKeys.list(w, status),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/client-invoices', { params: { workspaceId: w }, query: { status } }),
    placeholderData: keepPreviousData,
  });

export const useClientInvoice = (w: string, id: string | null) =>
  useQuery({
    queryKey: invoiceKeys.one(w, id ?? ''),
    queryFn:
      id === null
        ? skipToken
        : () =>
            api('GET /workspaces/:workspaceId/client-invoices/:invoiceId', {
              params: { workspaceId: w, invoiceId: id },
            }),
  });

export const useInvoiceSettings = (w: string) =>
  useQuery({
    queryKey: invoiceKeys.settings(w),
    queryFn: () => api('GET /workspaces/:workspaceId/client-invoice-settings', { params: { workspaceId: w } }),
  });

export const usePreviewInvoice = (w: string) =>
  useMutation({
    mutationFn: (body: PreviewClientInvoiceBody) =>
      api('POST /workspaces/:workspaceId/client-invoices/preview', { params: { workspaceId: w }, body }),
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
  useInvoiceMutation(w, (body: CreateClientInvoiceBody) =>
    api('POST /workspaces/:workspaceId/client-invoices', { params: { workspaceId: w }, body }),
  );

export const useUpdateInvoice = (w: string, id: string) =>
  useInvoiceMutation(w, (body: UpdateClientInvoiceBody) =>
    api('PATCH /workspaces/:workspaceId/client-invoices/:invoiceId', {
      params: { workspaceId: w, invoiceId: id },
      body,
    }),
  );

export type InvoiceStep = 'issue' | 'mark-sent' | 'void';
export const useInvoiceStep = (w: string, id: string) =>
  useInvoiceMutation(w, (step: InvoiceStep) =>
    api(`POST /workspaces/:workspaceId/client-invoices/:invoiceId/${step}`, {
      params: { workspaceId: w, invoiceId: id },
    }),
  );

export const useMarkPaid = (w: string, id: string) =>
  useInvoiceMutation(w, (paidOn: string) =>
    api('POST /workspaces/:workspaceId/client-invoices/:invoiceId/mark-paid', {
      params: { workspaceId: w, invoiceId: id },
      body: { paidOn },
    }),
  );

export const useSendInvoice = (w: string, id: string) =>
  useInvoiceMutation(w, (body: SendClientInvoiceBody) =>
    api('POST /workspaces/:workspaceId/client-invoices/:invoiceId/send', {
      params: { workspaceId: w, invoiceId: id },
      body,
    }),
  );

export function useDeleteInvoice(w: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api('DELETE /workspaces/:workspaceId/client-invoices/:invoiceId', { params: { workspaceId: w, invoiceId: id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: invoiceKeys.all(w) }),
  });
}

export function useSaveInvoiceSettings(w: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientInvoiceSettingsBody) =>
      api('PUT /workspaces/:workspaceId/client-invoice-settings', { params: { workspaceId: w }, body }),
    onSuccess: (settings) => client.setQueryData(invoiceKeys.settings(w), settings),
  });
}
