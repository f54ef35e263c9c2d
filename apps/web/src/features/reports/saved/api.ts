import {
  type CreatedReportCsvLinkView,
  type CreatedReportLinkView,
  type CreateReportCsvLinkBody,
  type CreateReportLinkBody,
  type CreateSavedReportBody,
  type ReportCsvLinkStateView,
  type ReportLinkView,
  type ReportScheduleBody,
  type ReportScheduleEnvelope,
  type ReportScheduleView,
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
  csvLink: (w: string, id: string) => ['saved-reports', w, id, 'csv-link'] as const,
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

/** The report's CSV link for Google Sheets (its state; the token is shown only when made). */
export function useCsvLink(w: string, id: string, enabled = true) {
  return useQuery({
    queryKey: savedReportKeys.csvLink(w, id),
    queryFn: () => api<ReportCsvLinkStateView>('GET', `${base(w)}/${id}/csv-link`),
    enabled,
  });
}

export function useCreateCsvLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReportCsvLinkBody) =>
      api<CreatedReportCsvLinkView>('POST', `${base(w)}/${id}/csv-link`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.csvLink(w, id) }),
  });
}

export function useRevokeCsvLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<ReportCsvLinkStateView>('POST', `${base(w)}/${id}/csv-link/revoke`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.csvLink(w, id) }),
  });
}

/** A public link's report: the secret goes in a header, so it never sits in a URL a log keeps. */
/** A public link's report; `cursor` asks for a shared Detailed report's next page. */
export const fetchSharedReport = (linkId: string, secret: string, cursor?: string) =>
  api<SharedReportView>(
    'GET',
    `/shared-reports/${encodeURIComponent(linkId)}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    undefined,
    {
      headers: { [SHARE_SECRET_HEADER]: secret },
    },
  );

/** Where a saved report opens: its page with its query string. */
export const savedReportPath = (report: Pick<SavedReportView, 'kind' | 'query'>) =>
  `/homepage/reports/${report.kind}${report.query ? `?${report.query}` : ''}`;

// ---- e-mail schedules

const scheduleUrl = (w: string, id: string) => `${base(w)}/${id}/schedule`;
export const scheduleKey = (w: string, id: string) => ['saved-reports', w, id, 'schedule'] as const;

export function useReportSchedule(w: string, id: string) {
  return useQuery({
    queryKey: scheduleKey(w, id),
    queryFn: () => api<ReportScheduleEnvelope>('GET', scheduleUrl(w, id)),
  });
}

/** Save, pause, resume, delete or send now: each answers the schedule's new state (or nothing). */
export function useScheduleAction(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      action: { kind: 'save'; body: ReportScheduleBody } | { kind: 'pause' | 'resume' | 'send' | 'delete' },
    ): Promise<unknown> => {
      if (action.kind === 'save') return api<ReportScheduleView>('PUT', scheduleUrl(w, id), action.body);
      if (action.kind === 'delete') return api<void>('DELETE', scheduleUrl(w, id));
      return api<unknown>('POST', `${scheduleUrl(w, id)}/${action.kind}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKey(w, id) }),
  });
}
