import type { ApprovalPeriod, ApprovalStatus, ApproverRule } from '@sundial/core';
import { approvalTexts } from '../../components/approval-texts';

/** The words of the approvals screens, in one place. */
export const texts = {
  ...approvalTexts,
  tabs: { submitted: 'Pending', approved: 'Approved', rejected: 'Rejected' } as Record<
    Exclude<ApprovalStatus, 'withdrawn'>,
    string
  >,
  person: 'Person',
  period: 'Period',
  tracked: 'Tracked',
  submitted: 'Submitted',
  decision: 'Decision',
  comment: 'Comment',
  approve: 'Approve',
  reject: 'Reject',
  withdrawApproval: 'Withdraw approval',
  rejectTitle: 'Reject this period',
  rejectHint: 'Say what to fix; the person sees it on their timesheet.',
  cancel: 'Cancel',
  approvedToast: 'Approved: the period is locked.',
  rejectedToast: 'Rejected: the period is open again.',
  empty: {
    submitted: { title: 'Nothing waits for approval', hint: 'Periods your people submit show here.' },
    approved: { title: 'No approved periods', hint: 'Approved periods show here, locked.' },
    rejected: { title: 'No rejected periods', hint: 'Rejected periods show here until they are resubmitted.' },
  } as Record<Exclude<ApprovalStatus, 'withdrawn'>, { title: string; hint: string }>,
  notApprover: 'Approvals are for owners, admins and managers. Submit your time from the timesheet.',
  settings: {
    open: 'Approval settings',
    title: 'Approvals and lock date',
    period: 'People submit their time by',
    periods: { week: 'Week', month: 'Month' } as Record<ApprovalPeriod, string>,
    approver: 'Who approves',
    approvers: {
      managers_and_admins: 'Group managers and admins',
      admins_only: 'Admins only',
    } as Record<ApproverRule, string>,
    lockDate: 'Lock time before',
    lockDateHint: 'Only owners and admins can change time before this date (e.g. after payroll). Empty: no lock date.',
    save: 'Save',
    saved: 'Approval settings saved.',
  },
  lockedBy: (name: string | null) => (name ? `by ${name}` : ''),
};
