import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * SSO domains are proved by a TXT record (issue 29, docs/decisions/0013-sso-domain-proof.md).
 * Each claim gets its own random `proof_token`; the record `_sundial-challenge.<domain>` must hold
 * `sundial-domain-verification=<token>`. The old proof (the workspace's own identity provider
 * vouching for an admin's address) proved nothing, so domains verified that way are verified no
 * longer (each un-verification audited, `sso.domain_unverified`) until their TXT record is
 * published, and `sso_states` loses the columns of that sign-in. At most one workspace has a
 * domain verified (`workspace_sso_domains_verified`, unchanged): the first proof wins.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table workspace_sso_domains add column proof_token text;
    insert into audit_log (id, workspace_id, actor_user_id, action, subject_id, detail)
      select gen_random_uuid(), workspace_id, null, 'sso.domain_unverified', null,
             jsonb_build_object('domain', domain, 'reason', 'proved by the identity provider only; prove it by DNS')
        from workspace_sso_domains where verified_at is not null;
    update workspace_sso_domains
       set proof_token = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''),
           verified_at = null,
           verified_by_user_id = null;
    alter table workspace_sso_domains alter column proof_token set not null;
    alter table sso_states drop column verify_user_id, drop column verify_domain;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `alter table sso_states
       add column verify_user_id uuid references users (id) on delete cascade,
       add column verify_domain text;
     alter table workspace_sso_domains drop column proof_token;`,
  );
}
