import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table known_devices (
      token_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      failures integer not null default 0,
      created_at timestamptz not null default now(),
      last_used_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index known_devices_user_idx on known_devices (user_id);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table known_devices;');
}
