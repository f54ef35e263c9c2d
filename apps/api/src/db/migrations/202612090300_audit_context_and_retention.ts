import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The audit log says how (issue 34): each record keeps the address the request came from and the
 * API key that signed it, if one did (both hashed into the chain when present). A workspace may
 * keep its records for a set number of days: the oldest are then pruned from the start of the
 * chain, and the head remembers where the kept chain begins (the last pruned record's place and
 * hash), so what remains still verifies and a record removed any other way still shows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table audit_log add column ip text, add column api_key_id uuid;
    alter table audit_chain_heads
      add column pruned_seq bigint not null default 0,
      add column pruned_hash text not null default '';
    create table audit_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      retention_days integer check (retention_days is null or retention_days between 30 and 3650),
      updated_at timestamptz not null default now()
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table audit_settings;
    alter table audit_chain_heads drop column pruned_seq, drop column pruned_hash;
    alter table audit_log drop column ip, drop column api_key_id;
    `,
  );
}
