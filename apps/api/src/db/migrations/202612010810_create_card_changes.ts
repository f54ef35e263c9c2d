import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Replacing the saved card: one row per (workspace, card token), so a retry answers the first
 * try. A card is attached off-session, verified with the $1.00 authorisation (which may ask for
 * the second step), then saved on the subscription; `renewal` is how retrying a past-due
 * renewal with it went.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table card_changes (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid references users (id) on delete set null,
      token text not null,
      status text not null check (status in ('pending', 'requires_action', 'saved', 'declined')),
      payment_method jsonb,
      authorisation_id text,
      next_action_url text,
      decline_message text,
      renewal jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint card_changes_token unique (workspace_id, token)
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table card_changes;');
}
