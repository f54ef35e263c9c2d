import type { Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** An account's subject at an identity provider (`social:<id>` or `workspace:<workspaceId>`). */
export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string;
  created_at: Timestamp;
}

/** A sign-in under way at an identity provider, keyed by its state's hash; taken once. */
export interface SsoStatesTable {
  id_hash: string;
  provider: string;
  workspace_id: string | null;
  nonce: string | null;
  code_verifier: string | null;
  request_id: string | null;
  return_to: string;
  expires_at: Timestamp;
}

/** A provider identity waiting for the password of the account its e-mail belongs to. */
export interface SsoPendingLinksTable {
  token_hash: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string;
  return_to: string;
  expires_at: Timestamp;
}

export type SsoProtocol = 'oidc' | 'saml';

/** A workspace's identity provider (Pro). */
export interface WorkspaceSsoTable {
  workspace_id: string;
  protocol: SsoProtocol;
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  /** Sealed with `secrets.seal(secret, 'sso-oidc:<workspaceId>')`. */
  oidc_client_secret_sealed: string | null;
  saml_entry_point: string | null;
  saml_idp_issuer: string | null;
  saml_idp_certificate: string | null;
  require_sso: Generated<boolean>;
  default_role: Generated<'admin' | 'manager' | 'member' | 'guest'>;
  updated_by_user_id: string | null;
  updated_at: Timestamp;
}

/** A workspace's claim of an e-mail domain; verified once `proof_token` is found in its TXT record. */
export interface WorkspaceSsoDomainsTable {
  workspace_id: string;
  domain: string;
  /** Random per claim: `_sundial-challenge.<domain>` must hold `sundial-domain-verification=<token>`. */
  proof_token: string;
  verified_at: Date | null;
  verified_by_user_id: string | null;
  created_at: Timestamp;
}

export interface SamlAssertionsSeenTable {
  assertion_id: string;
  expires_at: Timestamp;
}

export interface SsoTables {
  user_identities: UserIdentitiesTable;
  sso_states: SsoStatesTable;
  sso_pending_links: SsoPendingLinksTable;
  workspace_sso: WorkspaceSsoTable;
  workspace_sso_domains: WorkspaceSsoDomainsTable;
  saml_assertions_seen: SamlAssertionsSeenTable;
}
