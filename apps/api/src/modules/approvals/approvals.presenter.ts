import type { ApprovalView } from '@sundial/core';
import type { ApprovalRow } from './approvals.repository.js';

export function presentApproval(row: ApprovalRow): ApprovalView {
  return {
    id: row.id,
    userId: row.user_id,
    userName: row.user_name,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    status: row.status,
    comment: row.comment,
    submittedAt: new Date(row.submitted_at).toISOString(),
    decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    decidedByName: row.decided_by_name,
    trackedSeconds: Number(row.tracked_seconds),
  };
}
