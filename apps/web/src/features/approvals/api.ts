import type { ApprovalSettings, ApprovalStatus, ApprovalView, PeriodStateView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalKeys } from '../../api/approvals';
import { api } from '../../api/client';

export type { ApprovalView, PeriodStateView };

const ws = (w: string) => `/workspaces/${w}/approvals`;

export const useApprovals = (w: string, status: ApprovalStatus) =>
  useQuery({
    queryKey: approvalKeys.list(w, status),
    queryFn: () => api<{ items: ApprovalView[] }>('GET', `${ws(w)}?status=${status}`),
  });

export const useApprovalSettings = (w: string) =>
  useQuery({ queryKey: approvalKeys.settings(w), queryFn: () => api<ApprovalSettings>('GET', `${ws(w)}/settings`) });

export function useSaveApprovalSettings(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApprovalSettings) => api<ApprovalSettings>('PUT', `${ws(w)}/settings`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: approvalKeys.all(w) }),
  });
}
