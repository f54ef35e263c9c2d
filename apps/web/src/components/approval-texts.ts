import type { ApprovalStatus } from '@sundial/core';

/** The words of a period's approval, shared by the timesheet's period line and the approvals screens. */
export const approvalTexts = {
  status: {
    submitted: 'Pending approval',
    approved: 'Approved',
    rejected: 'Rejected',
    withdrawn: 'Withdrawn',
  } as Record<ApprovalStatus, string>,
  notSubmitted: 'Not submitted',
  withdraw: 'Withdraw',
  submit: 'Submit for approval',
  submittedToast: 'Submitted for approval.',
  withdrawnToast: 'Withdrawn: the period is open again.',
  rejectedWith: (comment: string) => `Rejected: ${comment}`,
};
