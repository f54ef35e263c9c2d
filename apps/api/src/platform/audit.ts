import type { Db } from '../db/connection.js';
import { prepared } from '../db/prepared.js';
import type { DomainEvent, EventBus } from './events.js';
import { newId } from './ids.js';
import { requestContext } from './request-context.js';

/**
 * Every audit action: `<object>.<verb>`. Every create, update and delete of a workspace object
 * writes one (audit.int.test.ts deletes each kind of object and finds its row).
 */
export const AUDIT_ACTIONS = [
  // accounts
  'user.signed_up',
  'user.password_reset',
  'user.password_changed',
  'user.signed_in',
  'user.email_verified',
  // two-factor authentication and sessions (issue 18)
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.recovery_codes_regenerated',
  'two_factor.reset_by_admin',
  'workspace.two_factor_policy_updated',
  'session.revoked',
  'session.others_revoked',
  // workspace and its settings
  'workspace.created',
  'workspace.renamed',
  'workspace.email_domains_updated',
  'workspace.logo_updated',
  'workspace.logo_removed',
  'workspace.ownership_transferred',
  'workspace.team_settings_updated',
  'time_settings.updated',
  // members, groups, invites
  'member.updated',
  'member.removed',
  'member.left',
  'group.created',
  'group.updated',
  'group.deleted',
  'group.member_added',
  'group.member_removed',
  'invite.sent',
  'invite.resent',
  'invite.link_issued',
  'invite.accepted',
  'invite.revoked',
  // projects and tasks
  'project.created',
  'project.updated',
  'project.archived',
  'project.restored',
  'project.people_updated',
  'project.deleted',
  'task.created',
  'task.updated',
  'task.archived',
  'task.restored',
  'task.people_updated',
  'task.deleted',
  // clients
  'client.created',
  'client.updated',
  'client.archived',
  'client.restored',
  'client.deleted',
  // tags
  'tag_list.created',
  'tag_list.updated',
  'tag_list.deleted',
  'tag.created',
  'tag.updated',
  'tag.merged',
  'tag.deleted',
  // time
  'time_entry.created',
  'time_entry.updated',
  'time_entry.deleted',
  'import.completed',
  // rates
  'rate.created',
  'rate.deleted',
  'rate_settings.updated',
  'rates.reapplied',
  // client invoices (issue 17)
  'client_invoice.created',
  'client_invoice.updated',
  'client_invoice.deleted',
  'client_invoice.issued',
  'client_invoice.sent',
  'client_invoice.paid',
  'client_invoice.voided',
  'client_invoice_settings.updated',
  'saved_report.created',
  'saved_report.deleted',
  'report_link.created',
  'report_link.revoked',
  'report_csv_link.created',
  'report_csv_link.revoked',
  'report_schedule.saved',
  'report_schedule.paused',
  'report_schedule.resumed',
  'report_schedule.deleted',
  // billing (issue 16)
  'billing.details_updated',
  'billing.card_replaced',
  'subscription.purchased',
  'subscription.changed',
  'subscription.change_scheduled',
  'subscription.canceled',
  'subscription.reactivated',
  'subscription.ended',
  'subscription.trial_ended',
  'invoice.credited',
  'checkout.payment_mismatch',
  // approvals and locks (issue 17)
  'approval.submitted',
  'approval.approved',
  'approval.rejected',
  'approval.withdrawn',
  'approval_settings.updated',
  'notification_settings.updated',
  // single sign-on (issue 18)
  'user.signed_in_sso',
  'user.sso_sign_in_failed',
  'user.identity_linked',
  'user.identity_removed',
  'sso.settings_saved',
  'sso.settings_removed',
  'sso.domain_added',
  'sso.domain_verified',
  'sso.domain_removed',
  'sso.member_joined',
  // custom roles and SCIM provisioning (issue 18)
  'custom_role.created',
  'custom_role.updated',
  'custom_role.deleted',
  'custom_role.member_assigned',
  'custom_role.group_assigned',
  'scim_token.created',
  'scim_token.revoked',
  'scim.user_created',
  'scim.user_updated',
  'scim.user_deactivated',
  'scim.user_deleted',
  'scim.group_created',
  'scim.group_updated',
  'scim.group_deleted',
  // API keys (issue 34)
  'api_key.created',
  'api_key.revoked',
  // webhooks (issue 34): never offered as webhook events themselves
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  // the audit log itself
  'audit_settings.updated',
  // calendars: the private feed of one's time, and calendars subscribed to
  'calendar_feed.created',
  'calendar_feed.reset',
  'calendar_feed.updated',
  'calendar_feed.revoked',
  'calendar_subscription.created',
  'calendar_subscription.deleted',
  // computer time (issue 35): paired computers, the workspace's settings, a person deleting their activity, categories
  'agent_device.paired',
  'agent_device.revoked',
  'computer_time_settings.updated',
  'activity.deleted',
  'activity_category.created',
  'activity_category.updated',
  'activity_category.deleted',
  // away time: the workspace's away activities, and what a person said an away period was (and undoing it)
  'away_activities.updated',
  'away_period.resolved',
  'away_period.reopened',
  // attendance (issue 37): the workspace's settings, people's contracts
  'attendance_settings.updated',
  'work_contract.created',
  'work_contract.deleted',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  action: AuditAction;
  actorUserId?: string | null;
  workspaceId?: string | null;
  subjectId?: string | null;
  detail?: Record<string, unknown>;
}

/** A field's value before and after a change. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/**
 * What an update changed, for its audit record: each field written (`after`, as set) whose value
 * differs from the stored row (`before`), as `{ name: { from, to } }`. Values compare as JSON, so
 * dates and arrays compare by value; `updated_at` is never a change.
 */
export function changesOf<After extends object>(
  before: { [K in keyof After]-?: unknown },
  after: After,
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [field, value] of Object.entries(after)) {
    if (field === 'updated_at' || value === undefined) continue;
    const from = (before as Record<string, unknown>)[field] ?? null;
    const to = value ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}

/** The audit insert, built and compiled once: every write sends it. */
const insertAudit = prepared(
  ['id', 'action', 'actorUserId', 'workspaceId', 'subjectId', 'detail', 'ip', 'apiKeyId'],
  (
    db,
    v: {
      id: string;
      action: AuditAction;
      actorUserId: string | null;
      workspaceId: string | null;
      subjectId: string | null;
      detail: string;
      ip: string | null;
      apiKeyId: string | null;
    },
  ) =>
    db.insertInto('audit_log').values({
      id: v.id,
      action: v.action,
      actor_user_id: v.actorUserId,
      workspace_id: v.workspaceId,
      subject_id: v.subjectId,
      detail: v.detail,
      ip: v.ip,
      api_key_id: v.apiKeyId,
    }),
);

/** Told of each audit record as it is written, through the writer's own database or transaction. */
export type AuditListener = (db: Db, entry: AuditEntry) => Promise<void>;
const listeners = new Set<AuditListener>();

/**
 * Calls `listener` inside every `audit()` from now on, in the writer's transaction (webhooks queue
 * their fan-out there, issue 34); answers how to stop. A listener must be cheap: every write waits on it.
 */
export function onAudit(listener: AuditListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Appends to the audit log, inside the caller's transaction when one is passed, with the address
 * and API key of the request being served (none in a job: the system acted, or the person named).
 */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  const context = requestContext();
  await insertAudit(db, {
    id: newId(),
    action: entry.action,
    actorUserId: entry.actorUserId ?? null,
    workspaceId: entry.workspaceId ?? null,
    subjectId: entry.subjectId ?? null,
    detail: JSON.stringify(entry.detail ?? {}),
    ip: context?.ip ?? null,
    apiKeyId: context?.apiKeyId ?? null,
  });
  for (const listener of listeners) await listener(db, entry);
}

/** The audit row of a domain event: one per event, naming its entries (the subject when only one) and an edit's changes. */
function auditOfEvent(event: DomainEvent): AuditEntry {
  const { userId, entryIds, changes } = event.payload;
  return {
    action: event.name,
    actorUserId: event.actorUserId,
    workspaceId: event.workspaceId,
    subjectId: entryIds.length === 1 ? entryIds[0] : null,
    detail: { userId, entryIds, count: entryIds.length, ...(changes ? { changes } : {}) },
  };
}

/** Makes the audit log a subscriber of the bus: each event is audited in its own transaction. */
export function auditEvents(bus: EventBus): void {
  bus.onPublish((tx, event) => audit(tx, auditOfEvent(event)));
}
