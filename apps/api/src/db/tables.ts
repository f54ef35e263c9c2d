import type { DurationFormat, PlanId, Role } from '@sundial/core';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ApiKeysTables } from './tables/api-keys.js';
import type { ApprovalsTables } from './tables/approvals.js';
import type { AttendanceTables } from './tables/attendance.js';
import type { BillingTables } from './tables/billing.js';
import type { CalendarsTables } from './tables/calendars.js';
import type { ClientInvoicesTables } from './tables/client-invoices.js';
import type { ComputerTimeTables } from './tables/computer-time.js';
import type { CustomRolesTables } from './tables/custom-roles.js';
import type { DemoRequestsTables } from './tables/demo-requests.js';
import type { ExportJobsTables } from './tables/export-jobs.js';
import type { ImportsTables } from './tables/imports.js';
import type { JobsTables } from './tables/jobs.js';
import type { KnownDevicesTables } from './tables/known-devices.js';
import type { NotificationsTables } from './tables/notifications.js';
import type { PaymentsTables } from './tables/payments.js';
import type { ProjectsTables } from './tables/projects.js';
import type { RateLimitsTables } from './tables/rate-limits.js';
import type { RatesTables } from './tables/rates.js';
import type { ReportSchedulesTables } from './tables/report-schedules.js';
import type { SavedReportsTables } from './tables/saved-reports.js';
import type { SsoTables } from './tables/sso.js';
import type { TeamTables } from './tables/team.js';
import type { TimeEntriesTables } from './tables/time-entries.js';
import type { TwoFactorTables } from './tables/two-factor.js';
import type { WebhooksTables } from './tables/webhooks.js';
import type { WorkspaceEmailDomainsTables } from './tables/workspace-email-domains.js';
import type { WorkspaceLogosTables } from './tables/workspace-logos.js';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  name: Generated<string>;
  phone: string | null;
  time_zone: string;
  week_start: Generated<string>;
  date_format: Generated<string>;
  time_format: Generated<string>;
  duration_format: Generated<DurationFormat>;
  current_workspace_id: string | null;
  /** The workspace whose SCIM provisioning made the account (its e-mail may change only there). */
  provisioned_by_workspace_id: Generated<string | null>;
  /** When its owner proved the address (docs/decisions/0014); until then it matches nothing by e-mail. */
  email_verified_at: Generated<Date | null>;
  /** False for an account an identity provider created: nobody knows its random password yet. */
  has_password: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: PlanId;
  trial_ends_at: Date | null;
  /** Purchased licenses; they limit non-guest members on a paid plan only. */
  licenses: Generated<number>;
  hide_disabled_users: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: Role;
  /** 'removed': no longer a member, kept so their past entries stay attributed. */
  status: Generated<'active' | 'disabled' | 'removed'>;
  external_id: Generated<string | null>;
  /** A custom role (Pro) acting instead of `role`'s permissions; `role` stays the fallback. */
  custom_role_id: Generated<string | null>;
  created_at: Timestamp;
}

export interface SessionsTable {
  id_hash: string;
  /** The public id (the profile lists and ends sessions by it); never the secret or its hash. */
  id: Generated<string>;
  /** Signed in while a workspace requires 2FA the user has not set up: only enrolment is allowed. */
  enrolment_only: Generated<boolean>;
  user_id: string;
  remember: Generated<boolean>;
  user_agent: string | null;
  ip: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  idle_expires_at: Date;
  expires_at: Date;
  /** The workspace whose identity provider proved this sign-in (its "require SSO" admits it). */
  via_workspace_id: Generated<string | null>;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Date;
  used_at: Generated<Date | null>;
}

/** A link that proves an address (docs/decisions/0014): the same shape as a reset link. */
export type EmailVerificationsTable = PasswordResetsTable;

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  ip: string;
  success: boolean;
  created_at: Timestamp;
}

export interface OutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Timestamp;
  sent_at: Generated<Date | null>;
  error: Generated<string | null>;
}

export interface AuditLogTable {
  id: string;
  workspace_id: string | null;
  actor_user_id: string | null;
  action: string;
  subject_id: string | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
  /** Its place in the workspace's hash chain, once sealed (migration 202612080200). */
  seq: ColumnType<string | null, never, string | number>;
  hash: ColumnType<string | null, never, string>;
  /** The address the request came from, and the API key that signed it (migration 202612090300). */
  ip: string | null;
  api_key_id: string | null;
}

/** How long a workspace's audit log keeps its records (migration 202612090300). */
export interface AuditSettingsTable {
  workspace_id: string;
  /** Days a record is kept; null: forever. */
  retention_days: number | null;
  updated_at: Generated<Date>;
}

/** The last sealed record of each workspace's audit chain: a cut-off tail shows against it. */
export interface AuditChainHeadsTable {
  workspace_id: string;
  seq: ColumnType<string, string | number, string | number>;
  hash: string;
  sealed_at: Timestamp;
  /** Where the kept chain begins after pruning: the last pruned record's place and hash. */
  pruned_seq: ColumnType<string, string | number | undefined, string | number>;
  pruned_hash: Generated<string>;
}

/**
 * Every table. A feature keeps its tables in db/tables/<feature>.ts and adds its interface to
 * the extends list, so features do not edit each other's lines.
 */
export interface Database
  extends TeamTables,
    DemoRequestsTables,
    ProjectsTables,
    TimeEntriesTables,
    RateLimitsTables,
    KnownDevicesTables,
    TwoFactorTables,
    JobsTables,
    ImportsTables,
    RatesTables,
    SavedReportsTables,
    ReportSchedulesTables,
    ExportJobsTables,
    WorkspaceLogosTables,
    WorkspaceEmailDomainsTables,
    SsoTables,
    PaymentsTables,
    BillingTables,
    ApprovalsTables,
    ClientInvoicesTables,
    NotificationsTables,
    CustomRolesTables,
    ApiKeysTables,
    WebhooksTables,
    CalendarsTables,
    ComputerTimeTables,
    AttendanceTables {
  users: UsersTable;
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  login_attempts: LoginAttemptsTable;
  outbox: OutboxTable;
  audit_log: AuditLogTable;
  audit_chain_heads: AuditChainHeadsTable;
  audit_settings: AuditSettingsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Workspace = Selectable<WorkspacesTable>;
export type Membership = Selectable<MembershipsTable>;
export type Session = Selectable<SessionsTable>;
