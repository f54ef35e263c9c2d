import {
  type CreateReportCsvLinkBody,
  type CreateReportLinkBody,
  type CreateSavedReportBody,
  type ReportScheduleBody,
  type SavedReportView,
  SHARE_SECRET_HEADER,
  type UpdateSavedReportBody,
} from '@sundial/core';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';

const _base = (w: string) => `/workspaces/${w}/saved-reports`;

export const savedReportKeys = {
  all: (w: string) => ['saved-reports', w] as const,
  links: (w: string, id: string) => ['saved-reports', w, id, 'links'] as const,
  csvLink: (w: string, id: string) => ['saved-reports', w, id, 'csv-link'] as const,
};

export function useSavedReports(w: string) {
  return useQuery({
    queryKey: savedReportKeys.all(w),
    queryFn: () => api('GET /workspaces/:workspaceId/saved-reports', { params: { workspaceId: w } }),
  });
}

export function useSaveReport(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateSavedReportBody) =>
      api('POST /workspaces/:workspaceId/saved-reports', { params: { workspaceId: w }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.all(w) }),
  });
}

export function useUpdateSavedReport(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateSavedReportBody & { id: string }) =>
      api('PATCH /workspaces/:workspaceId/saved-reports/:savedReportId', {
        params: { workspaceId: w, savedReportId: id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.all(w) }),
  });
}

export function useDeleteSavedReport(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api('DELETE /workspaces/:workspaceId/saved-reports/:savedReportId', {
        params: { workspaceId: w, savedReportId: id },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.all(w) }),
  });
}

export function useReportLinks(w: string, id: string | null) {
  return useQuery({
    queryKey: savedReportKeys.links(w, id ?? ''),
    queryFn:
      id === null
        ? skipToken
        : () =>
            api('GET /workspaces/:workspaceId/saved-reports/:savedReportId/links', {
              params: { workspaceId: w, savedReportId: id },
            }),
  });
}

export function useCreateReportLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReportLinkBody) =>
      api('POST /workspaces/:workspaceId/saved-reports/:savedReportId/links', {
        params: { workspaceId: w, savedReportId: id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.links(w, id) }),
  });
}

export function useRevokeReportLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) =>
      api('POST /workspaces/:workspaceId/saved-reports/:savedReportId/links/:linkId/revoke', {
        params: { workspaceId: w, savedReportId: id, linkId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.links(w, id) }),
  });
}

/** The report's CSV link for Google Sheets (its state; the token is shown only when made). */
export function useCsvLink(w: string, id: string, enabled = true) {
  return useQuery({
    queryKey: savedReportKeys.csvLink(w, id),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/saved-reports/:savedReportId/csv-link', {
        params: { workspaceId: w, savedReportId: id },
      }),
    enabled,
  });
}

export function useCreateCsvLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReportCsvLinkBody) =>
      api('POST /workspaces/:workspaceId/saved-reports/:savedReportId/csv-link', {
        params: { workspaceId: w, savedReportId: id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.csvLink(w, id) }),
  });
}

export function useRevokeCsvLink(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api('POST /workspaces/:workspaceId/saved-reports/:savedReportId/csv-link/revoke', {
        params: { workspaceId: w, savedReportId: id },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReportKeys.csvLink(w, id) }),
  });
}

/** A public link's report: the secret goes in a header, so it never sits in a URL a log keeps. */
/** A public link's report; `cursor` asks for a shared Detailed report's next page. */
export const fetchSharedReport = (
  linkId: string,
  secret: string,
  asked: { cursor?: string | undefined; within?: string | undefined } = {},
) =>
  api('GET /shared-reports/:linkId', {
    params: { linkId },
    query: asked.cursor || asked.within ? asked : undefined,
    headers: { [SHARE_SECRET_HEADER]: secret },
  });

/**
 * A folded shared Summary's subgroups: the groups beneath the one named by `path`, asked for
 * when it is opened (the link's own measures and shape; the secret never leaves the header).
 */
export function sharedSubgroups(linkId: string, secret: string) {
  return {
    key: (path: (string | null)[]) => ['shared-report', linkId, secret, 'within', path] as const,
    fetch: async (path: (string | null)[]) => {
      const answer = await fetchSharedReport(linkId, secret, { within: JSON.stringify(path) });
      if (answer.report.engine !== 'summary') throw new Error('The shared report changed: reload the page.');
      return answer.report.view;
    },
  };
}

/** Where a saved report opens: its page with its query string. */
export const savedReportPath = (report: Pick<SavedReportView, 'kind' | 'query'>) =>
  `/homepage/reports/${report.kind}${report.query ? `?${report.query}` : ''}`;

// ---- e-mail schedules

export const scheduleKey = (w: string, id: string) => ['saved-reports', w, id, 'schedule'] as const;

export function useReportSchedule(w: string, id: string) {
  return useQuery({
    queryKey: scheduleKey(w, id),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/saved-reports/:savedReportId/schedule', {
        params: { workspaceId: w, savedReportId: id },
      }),
  });
}

/** Save, pause, resume, delete or send now: each answers the schedule's new state (or nothing). */
export function useScheduleAction(w: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      action: { kind: 'save'; body: ReportScheduleBody } | { kind: 'pause' | 'resume' | 'send' | 'delete' },
    ): Promise<unknown> => {
      const params = { workspaceId: w, savedReportId: id };
      if (action.kind === 'save')
        return api('PUT /workspaces/:workspaceId/saved-reports/:savedReportId/schedule', { params, body: action.body });
      if (action.kind === 'delete')
        return api('DELETE /workspaces/:workspaceId/saved-reports/:savedReportId/schedule', { params });
      return api(`POST /workspaces/:workspaceId/saved-reports/:savedReportId/schedule/${action.kind}`, { params });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKey(w, id) }),
  });
}
