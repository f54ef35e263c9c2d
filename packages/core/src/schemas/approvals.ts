import { z } from 'zod';
import { shiftDay, WEEK_START_INDEX, type WeekStart } from '../time/days.js';
import { daySchema } from './rates.js';

/**
 * Timesheet approvals and locks (issue 17). A member submits a period (a week or a month, as the
 * workspace says) for approval; an approver approves or rejects it with a comment; the member may
 * withdraw it before a decision. Entries of a submitted period are closed to their owner, of an
 * approved one to everyone until the approval is withdrawn; a workspace lock date closes all time
 * before it to everyone but those who may move it (owners and admins, and custom roles that may).
 */

export const APPROVAL_PERIODS = ['week', 'month'] as const;
export type ApprovalPeriod = (typeof APPROVAL_PERIODS)[number];
/** Who approves a member's period: their group's managers or an admin, or admins only. */
export const APPROVER_RULES = ['managers_and_admins', 'admins_only'] as const;
export type ApproverRule = (typeof APPROVER_RULES)[number];
export const APPROVAL_STATUSES = ['submitted', 'approved', 'rejected', 'withdrawn'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
/** The statuses that lock a period; a rejected or withdrawn one is open again. */
export const LIVE_APPROVAL_STATUSES = ['submitted', 'approved'] as const;
export const MAX_APPROVAL_COMMENT = 1000;

export const approvalMessages = {
  period: 'Choose week or month.',
  approverRule: 'Choose who approves: managers and admins, or admins only.',
  comment: `A comment has at most ${MAX_APPROVAL_COMMENT} characters.`,
  commentRequired: 'Say why the period is rejected, so it can be fixed.',
  notFound: 'This approval request was not found.',
  alreadyLive: 'This period is already submitted or approved.',
  notSubmitted: (status: ApprovalStatus) =>
    status === 'approved'
      ? 'This period was approved meanwhile; reload to see who approved it.'
      : `This period is no longer waiting for approval: it was ${status}.`,
  notWithdrawable: 'Only a submitted or approved period can be withdrawn.',
  onlyOwnOrApprover: 'Only the person who submitted this period, or its approver, may withdraw it.',
  notApprover: 'You are not an approver of this person’s time.',
  ownPeriod: 'Someone else approves your own time.',
  futurePeriod: 'A period can be submitted once it has begun.',
  submittedLock: (start: string, end: string) =>
    `Your time from ${start} to ${end} is submitted for approval and cannot be changed. Withdraw the submission to change it.`,
  /** `name`: whose time, when the writer changes others' (a project, task or tag deleted). */
  approvedLock: (start: string, end: string, name?: string) =>
    `${name ? `${name}’s time` : 'The time'} from ${start} to ${end} is approved and locked. An approver must withdraw the approval before it can change.`,
  lockDate: (day: string) =>
    `Time before ${day} is locked by the workspace lock date. Only owners and admins can change it or move the lock date.`,
  /** A catalogue cleanup (`doing`: "Deleting this project") refused by a lock (`reason`, one of the above). */
  cleanupLocked: (doing: string, reason: string) => `${doing} would change locked time. ${reason}`,
  /** The words of the invoice-lock trigger (migration create_client_invoices) that refuses such a change. */
  invoicedLock: (number: string | null) =>
    number === null
      ? 'This time is on a draft invoice: its time, project, task, billable state and rate cannot change. Delete the draft to free it.'
      : `This time is on invoice ${number}: its time, project, task, billable state and rate cannot change. Void the invoice to free it.`,
} as const;

/**
 * Why time cannot be changed: `approved` (by nobody), `lock_date` (but by owners and admins),
 * `submitted` (by its owner), `invoiced` (its time, project, task, billable state and rate; the
 * note and tags still can).
 */
export const TIME_LOCK_KINDS = ['approved', 'lock_date', 'submitted', 'invoiced'] as const;
export type TimeLockKind = (typeof TIME_LOCK_KINDS)[number];

/** A lock on an entry as its viewer meets it: a short label for the lock icon, and the write check's reason. */
export const timeLockView = z.object({ kind: z.enum(TIME_LOCK_KINDS), label: z.string(), reason: z.string() });
export type TimeLockView = z.infer<typeof timeLockView>;

/** What decides whether one person's day is locked. */
export interface TimeLockFacts {
  /** Whose time it is. */
  userId: string;
  /** The local day (the owner's zone) the time starts on. */
  day: string;
  /** The workspace lock date, if any. */
  lockDate: string | null;
  /** A live (submitted or approved) approval holding the day, if any. */
  approval: { status: ApprovalStatus; start: string; end: string } | null;
  /** The invoice the entry is on (`number` null for a draft), if any. */
  invoice?: { number: string | null } | null;
}

/**
 * The one rule of the locks on time (issue 17), for whoever changes it (`userId`): a day of an
 * approved period is closed to everyone; a day before the lock date to all but those who may move
 * it (`passesLockDate`: the API decides it from their permissions in force, custom roles included);
 * a day of a submitted period to its owner; an entry on a client invoice keeps its time.
 * The write path refuses with `reason` (time-entries.locks.ts); the listing shows the same lock.
 * `whose` names the owner in the approved reason (a cleanup changing others' time).
 */
export function timeLockOf(
  facts: TimeLockFacts,
  viewer: { userId: string | null; passesLockDate: boolean },
  whose?: string,
): TimeLockView | null {
  const { approval, lockDate } = facts;
  if (approval?.status === 'approved') {
    const days = Math.round((Date.parse(approval.end) - Date.parse(approval.start)) / 86_400_000) + 1;
    return {
      kind: 'approved',
      label: days === 7 ? 'Approved week' : days < 7 ? 'Approved period' : 'Approved month',
      reason: approvalMessages.approvedLock(approval.start, approval.end, whose),
    };
  }
  if (lockDate && facts.day < lockDate && !viewer.passesLockDate) {
    return {
      kind: 'lock_date',
      label: `Before the lock date ${lockDate}`,
      reason: approvalMessages.lockDate(lockDate),
    };
  }
  if (approval?.status === 'submitted' && facts.userId === viewer.userId) {
    return {
      kind: 'submitted',
      label: 'Submitted for approval',
      reason: approvalMessages.submittedLock(approval.start, approval.end),
    };
  }
  if (facts.invoice) {
    const { number } = facts.invoice;
    return {
      kind: 'invoiced',
      label: number === null ? 'On a draft invoice' : `Invoiced on ${number}`,
      reason: approvalMessages.invoicedLock(number),
    };
  }
  return null;
}

const msg = approvalMessages;

/**
 * The period (first and last day, inclusive) holding `day`: its week from the person's week start
 * (Monday when unknown), or its calendar month.
 */
export function approvalPeriodOf(
  day: string,
  period: ApprovalPeriod,
  weekStart: WeekStart | string,
): { start: string; end: string } {
  if (period === 'month') {
    const [y, m] = day.split('-').map(Number);
    const nextMonth = new Date(Date.UTC(y ?? 1970, m ?? 1, 1)).toISOString().slice(0, 10);
    return { start: `${day.slice(0, 8)}01`, end: shiftDay(nextMonth, -1) };
  }
  const [y, m, d] = day.split('-').map(Number);
  const weekday = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay();
  const first = WEEK_START_INDEX[weekStart as WeekStart] ?? WEEK_START_INDEX.monday;
  const start = shiftDay(day, -((weekday - first + 7) % 7));
  return { start, end: shiftDay(start, 6) };
}

const comment = z.string({ error: msg.comment }).trim().max(MAX_APPROVAL_COMMENT, msg.comment);

/** Submit the period holding `day` (for oneself). */
export const submitApprovalBody = z.strictObject({ day: daySchema });
export const approveBody = z.strictObject({ comment: comment.optional() });
export const rejectBody = z.strictObject({ comment: comment.min(1, msg.commentRequired) });
export const approvalListQuery = z.strictObject({
  status: z
    .enum(APPROVAL_STATUSES, { error: 'Choose submitted, approved, rejected or withdrawn.' })
    .default('submitted'),
});
export const periodStateQuery = z.strictObject({
  day: daySchema,
  userId: z.uuid({ error: 'Member not found.' }).optional(),
});

export const approvalSettingsBody = z.strictObject({
  period: z.enum(APPROVAL_PERIODS, { error: msg.period }),
  approverRule: z.enum(APPROVER_RULES, { error: msg.approverRule }),
  lockDate: daySchema.nullable(),
});
export type ApprovalSettings = z.infer<typeof approvalSettingsBody>;
export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  period: 'week',
  approverRule: 'managers_and_admins',
  lockDate: null,
};
export const approvalSettingsView = approvalSettingsBody;

export const approvalView = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  userName: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  comment: z.string(),
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedByName: z.string().nullable(),
  /** Work tracked in the period, in seconds, as stored on its entries. */
  trackedSeconds: z.number(),
});
export type ApprovalView = z.infer<typeof approvalView>;

/** The timesheet's view of one person's period: its approval (if any), and whether it is locked. */
export const periodStateView = z.object({
  periodStart: z.string(),
  periodEnd: z.string(),
  approval: approvalView.nullable(),
  lockDate: z.string().nullable(),
  /** Whether the asker may change the period's entries now. */
  locked: z.boolean(),
  lockReason: z.string().nullable(),
});
export type PeriodStateView = z.infer<typeof periodStateView>;
