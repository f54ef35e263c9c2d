import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Single sign-on (issue 18). `user_identities` links an account to a subject at an identity
 * provider (a social provider the operator configured, `social:<id>`, or a workspace's own,
 * `workspace:<id>`). `sso_states` holds a sign-in under way (state, nonce, PKCE verifier, SAML
 * request id, where to go after) for ten minutes, keyed by the hash of its state; the callback
 * takes it once. `sso_pending_links` holds a provider identity whose e-mail already has an account
 * until the user proves that account's password. `workspace_sso` is a workspace's identity
 * provider (the OIDC client secret sealed, platform/secrets.ts), `workspace_sso_domains` the
 * e-mail domains it claims (verified when a member with an address there signs in through it), and
 * `saml_assertions_seen` the ids of accepted SAML assertions until they expire (replays refused).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table user_identities (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      provider text not null,
      subject text not null,
      email text not null,
      created_at timestamptz not null default now(),
      unique (provider, subject)
    );
    create index user_identities_user on user_identities (user_id);

    create table sso_states (
      id_hash text primary key,
      provider text not null,
      workspace_id uuid references workspaces (id) on delete cascade,
      nonce text,
      code_verifier text,
      request_id text,
      -- A domain verification: the admin who started it and the domain their own address proves.
      verify_user_id uuid references users (id) on delete cascade,
      verify_domain text,
      return_to text not null,
      expires_at timestamptz not null
    );

    create table sso_pending_links (
      token_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      provider text not null,
      subject text not null,
      email text not null,
      return_to text not null,
      expires_at timestamptz not null
    );

    create table workspace_sso (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      protocol text not null check (protocol in ('oidc', 'saml')),
      oidc_issuer text,
      oidc_client_id text,
      oidc_client_secret_sealed text,
      saml_entry_point text,
      saml_idp_issuer text,
      saml_idp_certificate text,
      require_sso boolean not null default false,
      default_role text not null default 'member' check (default_role in ('admin', 'manager', 'member', 'guest')),
      updated_by_user_id uuid,
      updated_at timestamptz not null default now()
    );

    create table workspace_sso_domains (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      domain text not null,
      verified_at timestamptz,
      verified_by_user_id uuid,
      created_at timestamptz not null default now(),
      primary key (workspace_id, domain)
    );
    -- A domain sends its people to one workspace's identity provider: at most one has it verified.
    create unique index workspace_sso_domains_verified on workspace_sso_domains (domain) where verified_at is not null;

    create table saml_assertions_seen (
      assertion_id text primary key,
      expires_at timestamptz not null
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `drop table if exists saml_assertions_seen;
     drop table if exists workspace_sso_domains;
     drop table if exists workspace_sso;
     drop table if exists sso_pending_links;
     drop table if exists sso_states;
     drop table if exists user_identities;`,
  );
}
