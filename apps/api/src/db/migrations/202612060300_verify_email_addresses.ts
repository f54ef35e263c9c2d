import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Issue 29 (docs/decisions/0014): an e-mail address counts for nothing until it is proved.
 * `users.email_verified_at` is when its owner proved it (a verification link, a completed password
 * reset, a social provider that asserted it verified); `users.has_password` is false for an
 * account an identity provider created, whose random password nobody knows (removing its last
 * linked identity would lock it out). `email_verifications` holds the verification links like
 * `password_resets` holds reset links: the token's hash, single use, expiring.
 *
 * Existing accounts: an address whose owner completed a password reset is proved (the link
 * reached that mailbox); every other stays unproved until its owner opens a verification link
 * (the app keeps working for them; only matching by e-mail waits). Identities linked before the
 * account's last completed password reset are dropped, as a reset now drops them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table users add column email_verified_at timestamptz;
    alter table users add column has_password boolean not null default true;

    create table email_verifications (
      token_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index email_verifications_user_idx on email_verifications (user_id);

    update users u set email_verified_at = r.used_at
      from (select user_id, max(used_at) as used_at from password_resets where used_at is not null group by user_id) r
      where r.user_id = u.id;

    update users set has_password = false
      where id in (
        select actor_user_id from audit_log
        where action = 'user.signed_up' and detail ->> 'via' is not null and actor_user_id is not null
      )
      and not exists (select 1 from password_resets r where r.user_id = users.id and r.used_at is not null);

    delete from user_identities i
      using (select user_id, max(used_at) as used_at from password_resets where used_at is not null group by user_id) r
      where r.user_id = i.user_id and i.created_at < r.used_at;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table email_verifications;
    alter table users drop column has_password;
    alter table users drop column email_verified_at;
    `,
  );
}
