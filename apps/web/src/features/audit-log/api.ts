import type { AuditLogPage } from '@sundial/core';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client';

/** What the audit log is filtered by; empty strings are no filter. */
export interface AuditFilter {
  actorUserId: string;
  action: string;
  subjectId: string;
  /** Days (YYYY-MM-DD) in the person's zone, both included. */
  from: string;
  to: string;
}

export const NO_FILTER: AuditFilter = { actorUserId: '', action: '', subjectId: '', from: '', to: '' };
const PAGE = 50;

/** A day's start in the browser's zone, as the API's instant. */
const dayStart = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + plusDays).toISOString();
};

/** The filters as the API reads them. */
function filterParams(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.actorUserId) params.set('actorUserId', filter.actorUserId);
  if (filter.action) params.set('action', filter.action);
  if (filter.subjectId) params.set('subjectId', filter.subjectId);
  if (filter.from) params.set('from', dayStart(filter.from));
  if (filter.to) params.set('to', dayStart(filter.to, 1));
  return params;
}

/** The CSV of every record the filters match, for a download link. */
export const auditCsvUrl = (workspaceId: string, filter: AuditFilter) =>
  `/api/v1/workspaces/${workspaceId}/audit-log/export?${filterParams(filter)}`;

/** The workspace's audit log, newest first, a page at a time by cursor. */
export function useAuditLog(workspaceId: string, filter: AuditFilter) {
  const query = useInfiniteQuery({
    queryKey: ['audit-log', workspaceId, filter],
    queryFn: ({ pageParam }) => {
      const params = filterParams(filter);
      params.set('limit', String(PAGE));
      if (pageParam) params.set('cursor', pageParam);
      return api('GET /workspaces/:workspaceId/audit-log', { params: { workspaceId }, query: params });
    },
    initialPageParam: '',
    getNextPageParam: (last: AuditLogPage) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { ...query, items };
}

/** Seals the newest records and walks the chain. */
export const useVerifyAuditLog = (workspaceId: string) =>
  useMutation({
    mutationFn: () => api('POST /workspaces/:workspaceId/audit-log/verify', { params: { workspaceId } }),
  });

/** How long the workspace keeps its records (null: forever). */
export const useAuditSettings = (workspaceId: string) =>
  useQuery({
    queryKey: ['audit-log-settings', workspaceId],
    queryFn: () => api('GET /workspaces/:workspaceId/audit-log/settings', { params: { workspaceId } }),
  });

/** Sets the retention (the owner's); the log is read again, as the change is in it. */
export function useSaveAuditSettings(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (retentionDays: number | null) =>
      api('PUT /workspaces/:workspaceId/audit-log/settings', { params: { workspaceId }, body: { retentionDays } }),
    onSuccess: (saved) => {
      client.setQueryData(['audit-log-settings', workspaceId], saved);
      return client.invalidateQueries({ queryKey: ['audit-log', workspaceId] });
    },
  });
}
