import type { ApprovalStatus } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/**
 * What the timesheet shares with the approvals screens: the keys (an action on either refreshes
 * both), the state of a person's period and the actions on it.
 */

const _ws = (w: string) => `/workspaces/${w}/approvals`;

export const approvalKeys = {
  all: (w: string) => ['approvals', w] as const,
  list: (w: string, status: ApprovalStatus) => ['approvals', w, 'list', status] as const,
  period: (w: string, userId: string, day: string) => ['approvals', w, 'period', userId, day] as const,
  settings: (w: string) => ['approvals', w, 'settings'] as const,
};

/** The state of the period holding `day` of a person, as the timesheet shows it. */
export const usePeriodState = (w: string, userId: string, day: string) =>
  useQuery({
    queryKey: approvalKeys.period(w, userId, day),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/approvals/period', {
        params: { workspaceId: w },
        query: new URLSearchParams({ day, userId }),
      }),
  });

type Action =
  | { action: 'submit'; day: string }
  | { action: 'approve'; id: string; comment?: string }
  | { action: 'reject'; id: string; comment: string }
  | { action: 'withdraw'; id: string };

/** Submit, approve, reject or withdraw; every approvals view and the timesheet's periods refresh. */
export function useApprovalAction(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: Action) => {
      if (a.action === 'submit')
        return api('POST /workspaces/:workspaceId/approvals', { params: { workspaceId: w }, body: { day: a.day } });
      if (a.action === 'withdraw')
        return api('POST /workspaces/:workspaceId/approvals/:approvalId/withdraw', {
          params: { workspaceId: w, approvalId: a.id },
        });
      const body = a.action === 'reject' ? { comment: a.comment } : a.comment ? { comment: a.comment } : {};
      return api(`POST /workspaces/:workspaceId/approvals/:approvalId/${a.action}`, {
        params: { workspaceId: w, approvalId: a.id },
        body,
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalKeys.all(w) }),
  });
}
