import type { ApprovalPeriod, ApprovalStatus, ApproverRule } from '@sundial/core';
import type { Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A person's period submitted for approval (issue 17); days are read back with to_char. */
export interface ApprovalsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  period_start: string;
  period_end: string;
  status: ApprovalStatus;
  comment: Generated<string>;
  submitted_at: Timestamp;
  decided_at: Date | null;
  decided_by_user_id: string | null;
  updated_at: Timestamp;
}

export interface ApprovalSettingsTable {
  workspace_id: string;
  period: Generated<ApprovalPeriod>;
  approver_rule: Generated<ApproverRule>;
  lock_date: string | null;
  updated_at: Timestamp;
}

/** A reminder sent once: `unsubmitted:<period start>` to a member, `pending:<approval id>` to an approver. */
export interface ApprovalRemindersTable {
  workspace_id: string;
  user_id: string;
  subject: string;
  sent_at: Generated<Date>;
}

export interface ApprovalsTables {
  approvals: ApprovalsTable;
  approval_settings: ApprovalSettingsTable;
  approval_reminders: ApprovalRemindersTable;
}
