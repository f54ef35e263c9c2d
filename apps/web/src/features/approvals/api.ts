import type { ApprovalSettings, ApprovalStatus, ApprovalView, PeriodStateView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalKeys } from '../../api/approvals';
import { api } from '../../api/client';

export type { ApprovalView, PeriodStateView };

const _ws = (w: string) => `/workspaces/${w}/approvals`;

export const useApprovals = (w: string, status: ApprovalStatus) =>
  useQuery({
    queryKey: approvalKeys.list(w, status),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/approvals', { params: { workspaceId: w }, query: `status=${status}` }),
  });

export const useApprovalSettings = (w: string) =>
  useQuery({
    queryKey: approvalKeys.settings(w),
    queryFn: () => api('GET /workspaces/:workspaceId/approvals/settings', { params: { workspaceId: w } }),
  });

export function useSaveApprovalSettings(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApprovalSettings) =>
      api('PUT /workspaces/:workspaceId/approvals/settings', { params: { workspaceId: w }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: approvalKeys.all(w) }),
  });
}
