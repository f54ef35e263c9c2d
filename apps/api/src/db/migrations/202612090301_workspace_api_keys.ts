import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Workspace API keys (issue 34): a key an owner or admin makes for the workspace (an integration,
 * a sync job) rather than for themself. It reaches that workspace only, acts with the role it was
 * given (never above its maker's, whose access it stays within), and any owner or admin of the
 * workspace sees and revokes it. A personal key has neither column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table api_keys
      add column workspace_id uuid references workspaces (id) on delete cascade,
      add column acts_as text check (acts_as in ('admin', 'manager', 'member')),
      add constraint api_keys_workspace_role check ((workspace_id is null) = (acts_as is null));
    create index api_keys_workspace on api_keys (workspace_id) where revoked_at is null and workspace_id is not null;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop index api_keys_workspace;
    alter table api_keys drop constraint api_keys_workspace_role, drop column acts_as, drop column workspace_id;
    `,
  );
}
