import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Signed webhooks (issue 34): a workspace's endpoints with their sealed signing secrets, the
 * audit-log place each workspace's fan-out has reached, one delivery per event and endpoint, and
 * each attempt at it (kept 7 days).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table webhooks (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      created_by uuid references users (id) on delete set null,
      url text not null,
      description text not null default '',
      events jsonb not null,
      enabled boolean not null default true,
      disabled_reason text,
      validated_at timestamptz,
      validation_error text,
      secret_sealed text not null,
      failing_since timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index webhooks_workspace on webhooks (workspace_id, created_at);
    create table webhook_cursors (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      seq bigint not null
    );
    create table webhook_deliveries (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      webhook_id uuid not null references webhooks (id) on delete cascade,
      event_id uuid not null,
      event_type text not null,
      payload text not null,
      state text not null default 'queued' constraint webhook_deliveries_state
        check (state in ('queued', 'succeeded', 'failed')),
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index webhook_deliveries_list on webhook_deliveries (webhook_id, id);
    create index webhook_deliveries_age on webhook_deliveries (created_at);
    create table webhook_delivery_attempts (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      attempt int not null,
      ok boolean not null,
      status_code int,
      duration_ms int not null,
      response_body text,
      error text,
      created_at timestamptz not null
    );
    create index webhook_delivery_attempts_delivery on webhook_delivery_attempts (delivery_id, attempt);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table webhook_delivery_attempts;
    drop table webhook_deliveries;
    drop table webhook_cursors;
    drop table webhooks;
    `,
  );
}
