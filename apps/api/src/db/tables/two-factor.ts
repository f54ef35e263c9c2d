import type { Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A user's TOTP seed, sealed under `totp:<userId>`; `enabled_at` null while enrolment waits for a first code. */
export interface UserTotpTable {
  user_id: string;
  secret_sealed: string;
  enabled_at: Date | null;
  /** The last time step a code was accepted for: a code is never accepted twice. */
  last_time_step: string | number | null;
  created_at: Timestamp;
}

/** Single-use recovery codes, by their sha-256 only. */
export interface UserRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: Date | null;
  created_at: Timestamp;
}

/** The second step of a sign-in: a password was right, a code is still due. */
export interface TwoFactorChallengesTable {
  token_hash: string;
  user_id: string;
  remember: Generated<boolean>;
  expires_at: Date;
  created_at: Timestamp;
  /** The workspace whose identity provider proved the first factor: the session it leads to keeps it. */
  via_workspace_id: Generated<string | null>;
}

/** A device (its known-device cookie, by hash) on which the user completed a sign-in's second step. */
export interface TwoFactorDevicesTable {
  user_id: string;
  device_hash: string;
  proved_at: Timestamp;
}

/** A workspace's "members must use two-factor authentication" (Pro). */
export interface WorkspaceTwoFactorPoliciesTable {
  workspace_id: string;
  required: boolean;
  updated_at: Timestamp;
}

export interface TwoFactorTables {
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  two_factor_devices: TwoFactorDevicesTable;
  workspace_two_factor_policies: WorkspaceTwoFactorPoliciesTable;
}
