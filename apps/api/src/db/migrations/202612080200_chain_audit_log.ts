import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The audit log as a hash chain per workspace (issue 34): a sealing job gives each new record of a
 * workspace the next `seq` and `hash` = sha-256 of the previous hash and the record's content, and
 * keeps the chain's head apart, so an edited, a removed or a cut-off record is found by walking it.
 * Sealing after the fact keeps writers from queueing on one lock per workspace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table audit_log add column seq bigint, add column hash text;
    create unique index audit_log_chain on audit_log (workspace_id, seq) where seq is not null;
    create index audit_log_unsealed on audit_log (workspace_id, created_at, id)
      where seq is null and workspace_id is not null;
    create table audit_chain_heads (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      seq bigint not null,
      hash text not null,
      sealed_at timestamptz not null default now()
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table audit_chain_heads;
    drop index audit_log_unsealed;
    drop index audit_log_chain;
    alter table audit_log drop column seq, drop column hash;
    `,
  );
}
