import { safeReturnPath, ssoMessages, type WorkspaceSsoView, type workspaceSsoBody } from '@sundial/core';
import type { Selectable } from 'kysely';
import { randomState } from 'openid-client';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { WorkspaceSsoTable } from '../../db/tables/sso.js';
import { assertCan, assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, type ConstraintTable, mapConstraints, notFound } from '../../platform/errors.js';
import { hashSecret, newSecret } from '../../platform/ids.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ClientInfo } from '../auth/auth.service.js';
import { memberRecords } from '../members/members.service.js';
import { usersService } from '../users/users.service.js';
import { emailDomainRefusal } from '../workspaces/workspaces.service.js';
import { type DomainProofResolver, isPublicMailDomain, proofRecordOf } from './domain-proof.js';
import type { OidcRelyingParty } from './oidc.js';
import { finishSaml, type SamlSettings, samlMetadata, startSaml } from './saml.js';
import { ssoRepository } from './sso.repository.js';
import {
  auditedSsoCallback,
  type SsoAttempt,
  type SsoOutcome,
  type SsoService,
  STATE_MS,
  ssoExpired,
} from './sso.service.js';

type SsoRow = Selectable<WorkspaceSsoTable>;
const notConfigured = () => new AppError('sso_not_configured', ssoMessages.notConfigured, { status: 404 });
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
const secretContext = (workspaceId: string) => `sso-oidc:${workspaceId}`;
const isVerifiedElsewhere = async (db: Db, workspaceId: string, domain: string) =>
  ![undefined, workspaceId].includes(await ssoRepository.findVerifiedDomainOwner(db, domain));
const domainTaken = () => new AppError('sso_domain_taken', ssoMessages.domainTaken, { status: 409 });
/** The first proof of a domain wins: the database lets one workspace at most have it verified. */
const DOMAIN_CONSTRAINTS: ConstraintTable = {
  workspace_sso_domains_verified: { code: 'sso_domain_taken', message: ssoMessages.domainTaken, status: 409 },
};

export interface WorkspaceSsoDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  secrets: SecretBox;
  oidc: OidcRelyingParty;
  sso: SsoService;
  dns: DomainProofResolver;
}

/**
 * A workspace's own identity provider (Pro): OpenID Connect or SAML 2.0, its e-mail domains, "require
 * SSO" for members (owners keep their password), and membership on a first sign-in with a default
 * role. A domain is verified when its TXT record `_sundial-challenge.<domain>` holds the token of
 * this workspace's claim (domain-proof.ts): from then on the domain's people find the workspace's
 * provider by their e-mail, and it may admit them. An unverified claim does nothing.
 */
export function createWorkspaceSsoService({ db, config, secrets, oidc, sso, dns }: WorkspaceSsoDeps) {
  const urls = (workspaceId: string) => ({
    oidcRedirectUri: `${config.publicUrl}/api/v1/auth/sso/oidc/callback`,
    samlEntityId: `${config.publicUrl}/api/v1/auth/sso/saml/${workspaceId}/metadata`,
    samlAcsUrl: `${config.publicUrl}/api/v1/auth/sso/saml/${workspaceId}/acs`,
  });
  const oidcSettings = (row: SsoRow) => ({
    issuer: row.oidc_issuer ?? '',
    clientId: row.oidc_client_id ?? '',
    clientSecret: row.oidc_client_secret_sealed
      ? secrets.open(row.oidc_client_secret_sealed, secretContext(row.workspace_id))
      : '',
  });
  const samlSettings = (row: SsoRow): SamlSettings => ({
    entryPoint: row.saml_entry_point ?? '',
    idpIssuer: row.saml_idp_issuer ?? '',
    idpCertificate: row.saml_idp_certificate ?? '',
    entityId: urls(row.workspace_id).samlEntityId,
    acsUrl: urls(row.workspace_id).samlAcsUrl,
  });

  async function settingsOf(workspaceId: string): Promise<SsoRow> {
    const row = await ssoRepository.findWorkspaceSso(db, workspaceId);
    if (!row) throw notConfigured();
    return row;
  }

  /** Sends the browser to the workspace's identity provider. */
  async function start(row: SsoRow, returnTo: string | undefined): Promise<{ url: string; state: string }> {
    const base = {
      provider: `workspace:${row.workspace_id}`,
      workspace_id: row.workspace_id,
      return_to: safeReturnPath(returnTo),
      expires_at: new Date(Date.now() + STATE_MS),
    };
    if (row.protocol === 'oidc') {
      const { url, checks } = await oidc.start(oidcSettings(row), urls(row.workspace_id).oidcRedirectUri);
      await ssoRepository.insertState(db, {
        ...base,
        id_hash: hashSecret(checks.state),
        nonce: checks.nonce,
        code_verifier: checks.codeVerifier,
        request_id: null,
      });
      return { url, state: checks.state };
    }
    const state = randomState();
    const { url, requestId } = await startSaml(samlSettings(row), state);
    await ssoRepository.insertState(db, {
      ...base,
      id_hash: hashSecret(state),
      nonce: null,
      code_verifier: null,
      request_id: requestId,
    });
    return { url, state };
  }

  /**
   * What the identity provider proved, applied: a sign-in to the workspace. Its word admits an
   * address only at a domain the workspace proved by DNS (or a subject already linked).
   */
  async function conclude(
    row: SsoRow,
    state: { return_to: string },
    identity: { subject: string; email: string | undefined },
    client: ClientInfo,
  ): Promise<SsoOutcome> {
    const workspaceId = row.workspace_id;
    const provider = `workspace:${workspaceId}`;
    if (!identity.email) throw new AppError('sso_no_email', ssoMessages.noEmail, { status: 401 });
    const linked = await ssoRepository.findIdentity(db, provider, identity.subject);
    if (!linked && (await ssoRepository.findVerifiedDomainOwner(db, domainOf(identity.email))) !== workspaceId) {
      throw new AppError('sso_outside_domains', ssoMessages.outsideDomains, { status: 403 });
    }
    return sso.signInWith({
      provider,
      identity,
      returnTo: state.return_to,
      client,
      afterSignIn: async (tx, user) => {
        // Just-in-time membership admits only the workspace's allowed e-mail domains (when it lists any).
        if (
          !(await memberRecords.find(tx, workspaceId, user.id)) &&
          (await emailDomainRefusal(tx, workspaceId, user.email))
        ) {
          throw new AppError('email_domain_not_allowed', ssoMessages.emailDomainNotAllowed, { status: 403 });
        }
        if (await memberRecords.join(tx, { workspaceId, userId: user.id, role: row.default_role })) {
          await audit(tx, {
            action: 'sso.member_joined',
            actorUserId: user.id,
            workspaceId,
            subjectId: user.id,
            detail: { role: row.default_role },
          });
        }
        await usersService.setCurrentWorkspace(tx, user.id, workspaceId);
      },
    });
  }

  async function view(workspaceId: string): Promise<WorkspaceSsoView> {
    const row = await ssoRepository.findWorkspaceSso(db, workspaceId);
    const domains = await ssoRepository.listDomains(db, workspaceId);
    return {
      protocol: row?.protocol ?? null,
      issuer: row?.oidc_issuer ?? null,
      clientId: row?.oidc_client_id ?? null,
      hasClientSecret: Boolean(row?.oidc_client_secret_sealed),
      entryPoint: row?.saml_entry_point ?? null,
      idpIssuer: row?.saml_idp_issuer ?? null,
      idpCertificate: row?.saml_idp_certificate ?? null,
      requireSso: row?.require_sso ?? false,
      defaultRole: row?.default_role ?? 'member',
      domains: domains.map((d) => ({
        domain: d.domain,
        verified: d.verified_at !== null,
        verifiedAt: d.verified_at ? new Date(d.verified_at).toISOString() : null,
        record: proofRecordOf(d.domain, d.proof_token),
      })),
      ...urls(workspaceId),
    };
  }

  return {
    /** The workspace's SSO settings (owner or admin); the client secret never leaves. */
    async get(actor: Actor): Promise<WorkspaceSsoView> {
      assertCan(actor, 'workspace:update');
      return view(actor.membership.workspace.id);
    },

    /** Sets the identity provider (owner or admin, Pro); the client secret is sealed before it is stored. */
    async save(actor: Actor, body: z.output<typeof workspaceSsoBody>): Promise<WorkspaceSsoView> {
      assertCan(actor, 'workspace:update');
      assertFeature(actor, 'sso');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const before = await ssoRepository.findWorkspaceSso(tx, workspaceId);
        let sealed: string | null = null;
        if (body.protocol === 'oidc') {
          if (body.clientSecret) sealed = secrets.seal(body.clientSecret, secretContext(workspaceId));
          else if (before?.protocol === 'oidc' && before.oidc_issuer === body.issuer)
            sealed = before.oidc_client_secret_sealed;
          if (!sealed) {
            throw new AppError('validation_failed', 'Enter the client secret.', {
              status: 422,
              fields: { clientSecret: 'Enter the client secret.' },
            });
          }
        }
        const values = {
          protocol: body.protocol,
          oidc_issuer: body.protocol === 'oidc' ? body.issuer : null,
          oidc_client_id: body.protocol === 'oidc' ? body.clientId : null,
          oidc_client_secret_sealed: sealed,
          saml_entry_point: body.protocol === 'saml' ? body.entryPoint : null,
          saml_idp_issuer: body.protocol === 'saml' ? body.idpIssuer : null,
          saml_idp_certificate: body.protocol === 'saml' ? body.idpCertificate : null,
          require_sso: body.requireSso,
          default_role: body.defaultRole,
          updated_by_user_id: actor.userId,
          updated_at: new Date(),
        };
        await ssoRepository.saveWorkspaceSso(tx, { workspace_id: workspaceId, ...values }, values);
        await audit(tx, {
          action: 'sso.settings_saved',
          actorUserId: actor.userId,
          workspaceId,
          // What changed, never the secret: only whether a new one was given.
          detail: {
            protocol: body.protocol,
            requireSso: body.requireSso,
            defaultRole: body.defaultRole,
            clientSecretChanged: body.protocol === 'oidc' && Boolean(body.clientSecret),
          },
        });
      });
      return view(workspaceId);
    },

    async remove(actor: Actor): Promise<void> {
      assertCan(actor, 'workspace:update');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        if (!(await ssoRepository.deleteWorkspaceSso(tx, workspaceId))) throw notConfigured();
        await audit(tx, { action: 'sso.settings_removed', actorUserId: actor.userId, workspaceId });
      });
    },

    /**
     * Claims a domain for the workspace, unverified, with a new random token for its TXT record.
     * Refuses (422) a public e-mail domain and (409) one another workspace has verified; another's
     * unverified claim blocks nobody. Claiming it again changes nothing.
     */
    async addDomain(actor: Actor, domain: string): Promise<WorkspaceSsoView> {
      assertCan(actor, 'workspace:update');
      assertFeature(actor, 'sso');
      const workspaceId = actor.membership.workspace.id;
      if (isPublicMailDomain(domain)) {
        const message = ssoMessages.domainPublic(domain);
        throw new AppError('sso_domain_public', message, { status: 422, fields: { domain: message } });
      }
      await db.transaction().execute(async (tx) => {
        if (await isVerifiedElsewhere(tx, workspaceId, domain)) throw domainTaken();
        if (await ssoRepository.insertDomain(tx, { workspaceId, domain, proofToken: newSecret() })) {
          await audit(tx, { action: 'sso.domain_added', actorUserId: actor.userId, workspaceId, detail: { domain } });
        }
      });
      return view(workspaceId);
    },

    async removeDomain(actor: Actor, domain: string): Promise<void> {
      assertCan(actor, 'workspace:update');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        if (!(await ssoRepository.deleteDomain(tx, workspaceId, domain))) throw notFound('This domain is not listed.');
        await audit(tx, { action: 'sso.domain_removed', actorUserId: actor.userId, workspaceId, detail: { domain } });
      });
    },

    /**
     * Verifies a listed domain by its TXT record: `_sundial-challenge.<domain>` must hold this
     * claim's `sundial-domain-verification=<token>`, whole. Throws 422 `sso_domain_not_proved` when
     * it does not (yet), 422 `sso_domain_lookup_failed` when DNS did not answer, 409
     * `sso_domain_taken` when another workspace proved it first. A verified domain stays verified.
     */
    async verifyDomain(actor: Actor, domain: string): Promise<WorkspaceSsoView> {
      assertCan(actor, 'workspace:update');
      assertFeature(actor, 'sso');
      const workspaceId = actor.membership.workspace.id;
      const claim = await ssoRepository.findDomain(db, workspaceId, domain);
      if (!claim) throw notFound('This domain is not listed.');
      if (claim.verified_at) return view(workspaceId);
      if (await isVerifiedElsewhere(db, workspaceId, domain)) throw domainTaken();
      // Looked up outside the transaction: no database connection waits on DNS.
      const record = proofRecordOf(domain, claim.proof_token);
      const found = await dns.lookup(record.name);
      if (!found.found && found.reason === 'unreachable') {
        throw new AppError('sso_domain_lookup_failed', ssoMessages.domainLookupFailed(record.name), { status: 422 });
      }
      if (!found.found || !found.values.some((value) => value.trim() === record.value)) {
        throw new AppError('sso_domain_not_proved', ssoMessages.domainNotProved(record.name), { status: 422 });
      }
      await mapConstraints(DOMAIN_CONSTRAINTS, () =>
        db.transaction().execute(async (tx) => {
          if (
            await ssoRepository.markDomainVerified(tx, {
              workspaceId,
              domain,
              proofToken: claim.proof_token,
              userId: actor.userId,
            })
          ) {
            await audit(tx, {
              action: 'sso.domain_verified',
              actorUserId: actor.userId,
              workspaceId,
              detail: { domain },
            });
          }
        }),
      );
      return view(workspaceId);
    },

    /** "Log in with SSO": the identity provider of the e-mail's verified domain, or of the workspace. */
    async startSignIn(input: {
      email?: string;
      workspaceId?: string;
      returnTo?: string;
    }): Promise<{ url: string; state: string }> {
      const workspaceId = input.email
        ? await ssoRepository.findVerifiedDomainOwner(db, domainOf(input.email))
        : input.workspaceId;
      if (!workspaceId) throw notConfigured();
      return start(await settingsOf(workspaceId), input.returnTo);
    },

    /** The OpenID Connect callback of every workspace: the state names the workspace. */
    async finishOidc(callbackUrl: URL, browserState: string | undefined, client: ClientInfo): Promise<SsoOutcome> {
      const attempt: SsoAttempt = { provider: 'workspace' };
      return auditedSsoCallback(db, attempt, client, async () => {
        const state = callbackUrl.searchParams.get('state');
        const row = state ? await ssoRepository.takeState(db, hashSecret(state)) : undefined;
        if (!row?.workspace_id || !state || browserState !== state) throw ssoExpired();
        Object.assign(attempt, { provider: `workspace:${row.workspace_id}`, workspaceId: row.workspace_id });
        const settings = await settingsOf(row.workspace_id);
        if (settings.protocol !== 'oidc' || row.provider !== `workspace:${row.workspace_id}`) throw ssoExpired();
        const identity = await oidc.finish(oidcSettings(settings), callbackUrl, {
          state,
          nonce: row.nonce ?? '',
          codeVerifier: row.code_verifier ?? '',
        });
        return conclude(settings, row, identity, client);
      });
    },

    /**
     * A SAML response posted to the workspace's assertion consumer service, RelayState being our
     * state: only in the browser that started the sign-in (its state cookie), so an insider's valid
     * response posted from someone else's browser signs nobody in (login CSRF).
     */
    async finishSaml(
      workspaceId: string,
      input: { SAMLResponse?: string; RelayState?: string },
      browserState: string | undefined,
      client: ClientInfo,
    ): Promise<SsoOutcome> {
      // The URL's workspace is only a claim until our state row agrees with it.
      const attempt: SsoAttempt = { provider: `workspace:${workspaceId}` };
      return auditedSsoCallback(db, attempt, client, async () => {
        if (!input.SAMLResponse || !input.RelayState) throw ssoExpired();
        const row = await sso.takeState(input.RelayState, browserState, `workspace:${workspaceId}`);
        if (!row.request_id || row.workspace_id !== workspaceId) throw ssoExpired();
        attempt.workspaceId = workspaceId;
        const settings = await settingsOf(workspaceId);
        if (settings.protocol !== 'saml') throw ssoExpired();
        const result = await finishSaml(samlSettings(settings), input.SAMLResponse, row.request_id);
        if (!(await ssoRepository.markAssertionSeen(db, result.assertionId, result.notOnOrAfter))) {
          throw new AppError('sso_failed', ssoMessages.failed, { status: 401 });
        }
        return conclude(settings, row, result, client);
      });
    },

    /** Our SAML metadata for the workspace (public: identity providers read it). */
    async metadata(workspaceId: string): Promise<string> {
      const row = await settingsOf(workspaceId);
      if (row.protocol !== 'saml') throw notConfigured();
      return samlMetadata(samlSettings(row));
    },
  };
}

export type WorkspaceSsoService = ReturnType<typeof createWorkspaceSsoService>;
