import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The devices (known-device cookies, by hash) on which a user completed a sign-in's second step
 * (issue 29): their wrong codes count on the device alone, never against the account's ceiling,
 * so nobody who only has the password can lock the owner's own browser out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table two_factor_devices (
      user_id uuid not null references users (id) on delete cascade,
      device_hash text not null,
      proved_at timestamptz not null default now(),
      primary key (user_id, device_hash)
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table two_factor_devices;');
}
