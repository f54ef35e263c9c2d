import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Whether a person ever used an account on their own (a password sign-in, reset or change, a linked
 * identity, a sign-in through a provider): SCIM may rename only an account nobody used (decision
 * 0012). Without an index the question read the whole audit log for an account never used, on
 * every rename an identity provider sends; this one holds only those actions' rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create index audit_log_personal_use_idx on audit_log (actor_user_id, action)
      where action in ('user.signed_in', 'user.password_reset', 'user.password_changed',
        'user.identity_linked', 'user.signed_in_sso');
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop index audit_log_personal_use_idx;');
}
