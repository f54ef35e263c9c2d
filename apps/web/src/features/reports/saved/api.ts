import {
  type CreatedReportLinkView,
  type CreateReportLinkBody,
  type CreateSavedReportBody,
  type ReportLinkView,
  type SavedReportView,
  SHARE_SECRET_HEADER,
  type SharedReportView,
  type UpdateSavedReportBody,
} from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

const base = (w: string) => `/workspaces/${w}/saved-reports`;

export const savedReportKeys = {
  all: (w: string) => ['saved-reports', w] as const,
  links: (w: string, id: string) => ['saved-reports', w, id, 'links'] as const,
};

export function useSavedReports(w: string) {
  return useQuery({
    queryKey: savedReportKeys.all(w),
    queryFn: () => api<{ items: SavedReportView[] }>('GET', base(w)),
  });
}

export function useSaveReport(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSavedReportBody) => api<SavedReportView>('POST', base(w), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.all(w) }),
  });
}

export function useUpdateSavedReport(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateSavedReportBody & { id: string }) =>
      api<SavedReportView>('PATCH', `${base(w)}/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.all(w) }),
  });
}

export function useDeleteSavedReport(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>('DELETE', `${base(w)}/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.all(w) }),
  });
}

export function useReportLinks(w: string, id: string | null) {
  return useQuery({
    queryKey: savedReportKeys.links(w, id ?? ''),
    queryFn: () => api<{ items: ReportLinkView[] }>('GET', `${base(w)}/${id}/links`),
    enabled: id !== null,
  });
}

export function useCreateReportLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReportLinkBody) => api<CreatedReportLinkView>('POST', `${base(w)}/${id}/links`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.links(w, id) }),
  });
}

export function useRevokeReportLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => api<ReportLinkView>('POST', `${base(w)}/${id}/links/${linkId}/revoke`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.links(w, id) }),
  });
}

/** A public link's report: the secret goes in a header, so it never sits in a URL a log keeps. */
export const fetchSharedReport = (linkId: string, secret: string) =>
  api<SharedReportView>('GET', `/shared-reports/${encodeURIComponent(linkId)}`, undefined, {
    headers: { [SHARE_SECRET_HEADER]: secret },
  });

/** Where a saved report opens: its page with its query string. */
export const savedReportPath = (report: Pick<SavedReportView, 'kind' | 'query'>) =>
  `/homepage/reports/${report.kind}${report.query ? `?${report.query}` : ''}`;
