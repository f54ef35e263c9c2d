import type { CreateExportJobBody, ExportJobView } from '@sundial/core';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download } from '../../../api/client';

const _base = (w: string) => `/workspaces/${w}/reports/export-jobs`;

export const exportJobKeys = {
  all: (w: string) => ['export-jobs', w] as const,
  one: (w: string, id: string) => ['export-jobs', w, id] as const,
};

/** How often a queued or running export is asked about. */
const POLL_MS = 1000;
const isActive = (job: ExportJobView) => job.status === 'queued' || job.status === 'running';

/** The viewer's recent exports; polled while one of them is under way. */
export function useExportJobs(w: string) {
  return useQuery({
    queryKey: exportJobKeys.all(w),
    queryFn: () => api('GET /workspaces/:workspaceId/reports/export-jobs', { params: { workspaceId: w } }),
    refetchInterval: (query) => (query.state.data?.items.some(isActive) ? POLL_MS : false),
  });
}

/** One export, polled until it is done or failed. */
export function useExportJob(w: string, id: string | null) {
  return useQuery({
    queryKey: exportJobKeys.one(w, id ?? ''),
    queryFn:
      id === null
        ? skipToken
        : () =>
            api('GET /workspaces/:workspaceId/reports/export-jobs/:jobId', { params: { workspaceId: w, jobId: id } }),
    refetchInterval: (query) => (!query.state.data || isActive(query.state.data) ? POLL_MS : false),
  });
}

/** Starts an export job; a double click or a retried request answers the same job. */
export function useStartExportJob(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateExportJobBody & { key: string }) =>
      api('POST /workspaces/:workspaceId/reports/export-jobs', {
        params: { workspaceId: w },
        body: { query: body.query, format: body.format },
        idempotencyKey: body.key,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exportJobKeys.all(w) }),
  });
}

/** Saves a finished export's file. */
export const downloadExportJob = (w: string, job: ExportJobView) =>
  download(
    'GET /workspaces/:workspaceId/reports/export-jobs/:jobId/file',
    { params: { workspaceId: w, jobId: job.id } },
    job.fileName ?? `export.${job.format}`,
  );

/** "1.4 MB": a file size for people. */
export function fileSize(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
