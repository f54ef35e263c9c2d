import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Two-factor authentication (issue 18): a user's TOTP seed (sealed, platform/secrets.ts), their
 * hashed recovery codes, the pending second steps of a sign-in, a workspace's "require 2FA"
 * setting; sessions get a public id (the profile lists and ends them by it) and a flag for a
 * session that may only enrol.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table user_totp (
      user_id uuid primary key references users (id) on delete cascade,
      secret_sealed text not null,
      enabled_at timestamptz,
      last_time_step bigint,
      created_at timestamptz not null default now()
    );

    create table user_recovery_codes (
      code_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index user_recovery_codes_user_idx on user_recovery_codes (user_id);

    create table two_factor_challenges (
      token_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      remember boolean not null default false,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index two_factor_challenges_user_idx on two_factor_challenges (user_id);

    create table workspace_two_factor_policies (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      required boolean not null default false,
      updated_at timestamptz not null default now()
    );

    alter table sessions add column id uuid not null default gen_random_uuid();
    create unique index sessions_id_key on sessions (id);
    alter table sessions add column enrolment_only boolean not null default false;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table sessions drop column enrolment_only;
    alter table sessions drop column id;
    drop table workspace_two_factor_policies;
    drop table two_factor_challenges;
    drop table user_recovery_codes;
    drop table user_totp;
  `,
  );
}
