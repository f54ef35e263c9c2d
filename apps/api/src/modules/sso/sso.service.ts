import { timingSafeEqual } from 'node:crypto';
import { type LinkedIdentitiesView, safeReturnPath, ssoMessages } from '@sundial/core';
import type { Config, SocialProvider } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { hashSecret, newSecret } from '../../platform/ids.js';
import { hashPassword } from '../../platform/passwords.js';
import type { StartedSession } from '../../platform/sessions.js';
import type { AuthService, ClientInfo } from '../auth/auth.service.js';
import type { TwoFactorService } from '../two-factor/two-factor.service.js';
import { usersService } from '../users/users.service.js';
import type { OidcIdentity, OidcRelyingParty } from './oidc.js';
import { ssoRepository } from './sso.repository.js';

/** How long a sign-in may take at the provider, and a link request wait for the password. */
export const STATE_MS = 10 * 60_000;
const LINK_MS = 15 * 60_000;

/** The workspace of a `workspace:<id>` provider; undefined for a social one. */
export const workspaceOfProvider = (provider: string): string | undefined =>
  provider.startsWith('workspace:') ? provider.slice('workspace:'.length) : undefined;
/**
 * For the password reset (modules/auth): unlinks every identity of the user and forgets their link
 * requests, in the caller's transaction; answers the providers unlinked.
 */
export function dropLinkedIdentities(tx: Db, userId: string): Promise<string[]> {
  return ssoRepository.deleteIdentitiesOf(tx, userId);
}

/** An account whose address is not proved is never matched by e-mail (docs/decisions/0014). */
const emailNotVerified = () => new AppError('sso_email_not_verified', ssoMessages.emailNotVerified, { status: 409 });

export const ssoExpired = () => new AppError('sso_expired', ssoMessages.expired, { status: 400 });

/** Where a sign-in through an identity provider ends. */
export type SsoOutcome =
  /** `enrolmentOnly`: a workspace requires 2FA the user has not set up; the session may only set it up. */
  | { kind: 'signed_in'; user: User; session: StartedSession; enrolmentOnly: boolean; returnTo: string }
  /** The user has 2FA: no session until the second step answers this challenge with a code. */
  | { kind: 'two_factor'; challenge: string; expiresAt: Date; returnTo: string }
  /** The e-mail has an account not linked to this identity: its password must be proved first. */
  | { kind: 'link'; token: string; returnTo: string };

/** Who a provider's callback was for, as far as it is known yet: filled in as the callback proves it. */
export interface SsoAttempt {
  provider: string;
  /** Set only once our own state row names the workspace (never from the URL alone). */
  workspaceId?: string;
}

/**
 * Runs a provider's callback and audits it when it fails (`user.sso_sign_in_failed`: the
 * provider, the error's code and the address it came from; never what the provider sent), then
 * throws on. Outside the sign-in's transaction, which has rolled back by then.
 */
export async function auditedSsoCallback<T>(
  db: Db,
  attempt: SsoAttempt,
  client: ClientInfo,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    await audit(db, {
      action: 'user.sso_sign_in_failed',
      workspaceId: attempt.workspaceId ?? null,
      detail: {
        provider: attempt.provider,
        code: error instanceof AppError ? error.code : 'sso_failed',
        ip: client.ip,
      },
    });
    throw error;
  }
}

/** A string compare whose time does not tell how much matched. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface SsoServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'socialProviders'>;
  auth: AuthService;
  oidc: OidcRelyingParty;
  /** The gate every sign-in passes after its first factor (two-factor.service startSignIn), the password's too. */
  twoFactor: Pick<TwoFactorService, 'startSignIn'>;
}

/**
 * Signing in through identity providers (issue 18). A provider's identity (its name for the
 * account, `social:<id>` or `workspace:<id>`, and its subject) signs in the account it is linked
 * to. An identity not linked yet: a new e-mail creates the account and its workspace as the
 * sign-up does; an e-mail that has an account is linked only once that account's password is
 * proved (`link`), so an identity provider that vouches for someone else's address takes nothing over.
 */
export function createSsoService({ db, config, auth, oidc, twoFactor }: SsoServiceDeps) {
  const providerOf = (id: string): SocialProvider => {
    const provider = config.socialProviders.find((p) => p.id === id);
    if (!provider) throw new AppError('sso_provider_unknown', ssoMessages.providerUnknown, { status: 404 });
    return provider;
  };
  const socialCallbackUrl = (provider: SocialProvider) =>
    `${config.publicUrl}/api/v1/auth/oidc/${provider.id}/callback`;

  /** Takes the sign-in a callback's state names, when this browser started it (its cookie) and it is still fresh. */
  async function takeState(state: string | null, browserState: string | undefined, provider: string) {
    if (!state || !browserState || !sameSecret(state, browserState)) throw ssoExpired();
    const row = await ssoRepository.takeState(db, hashSecret(state));
    if (!row || row.provider !== provider) throw ssoExpired();
    return row;
  }

  /**
   * Signs in with an identity the provider proved. `afterSignIn` runs in the transaction that
   * starts the session (a workspace's just-in-time membership).
   */
  async function signInWith(input: {
    provider: string;
    identity: OidcIdentity;
    returnTo: string;
    client: ClientInfo;
    afterSignIn?: (tx: Db, user: User) => Promise<void>;
  }): Promise<SsoOutcome> {
    const { provider, identity, returnTo } = input;
    const linked = await ssoRepository.findIdentity(db, provider, identity.subject);
    if (linked) {
      const user = await usersService.findById(db, linked.user_id);
      if (!user) throw ssoExpired();
      return db.transaction().execute(async (tx) => {
        await input.afterSignIn?.(tx, user);
        return passGate(tx, user, { provider }, input);
      });
    }
    const email = identity.email;
    if (!email) throw new AppError('sso_no_email', ssoMessages.noEmail, { status: 401 });
    const existing = await usersService.findByEmail(db, email);
    if (existing) {
      // Whoever made an account with an address they do not own keeps it away from every provider.
      if (!existing.email_verified_at) throw emailNotVerified();
      const token = newSecret();
      await ssoRepository.insertPendingLink(db, {
        token_hash: hashSecret(token),
        user_id: existing.id,
        provider,
        subject: identity.subject,
        email,
        return_to: returnTo,
        expires_at: new Date(Date.now() + LINK_MS),
      });
      return { kind: 'link', token, returnTo };
    }
    // The account has no password anyone knows: "Forgot password" sets one.
    const passwordHash = await hashPassword(newSecret());
    return db.transaction().execute(async (tx) => {
      // A social provider (the operator chose it) that says the address is verified proves it; a
      // workspace's own identity provider is its admins' word, which proves nothing to us.
      const emailVerified = provider.startsWith('social:') && identity.emailVerified === true;
      const user = await auth.createAccount(tx, { email, passwordHash, via: provider, emailVerified });
      await ssoRepository.insertIdentity(tx, { userId: user.id, provider, subject: identity.subject, email });
      await input.afterSignIn?.(tx, user);
      return passGate(tx, user, { provider, created: true }, input);
    });
  }

  /**
   * The provider proved the first factor; the same gate as the password's decides the rest (a
   * second step, or a session perhaps limited to enrolment). The sign-in is audited once it has
   * a session; with a challenge, the second step audits it.
   */
  async function passGate(
    tx: Db,
    user: User,
    detail: { provider: string; created?: boolean },
    input: { client: ClientInfo; returnTo: string },
  ): Promise<SsoOutcome> {
    const next = await twoFactor.startSignIn(user, {
      remember: false,
      client: input.client,
      db: tx,
      viaWorkspaceId: workspaceOfProvider(detail.provider),
    });
    if (next.kind === 'challenge') {
      return { kind: 'two_factor', challenge: next.challenge, expiresAt: next.expiresAt, returnTo: input.returnTo };
    }
    await audit(tx, { action: 'user.signed_in_sso', actorUserId: user.id, detail });
    return {
      kind: 'signed_in',
      user,
      session: next.session,
      enrolmentOnly: next.enrolmentOnly,
      returnTo: input.returnTo,
    };
  }

  async function pendingLink(token: string | undefined) {
    const link = token ? await ssoRepository.findPendingLink(db, hashSecret(token)) : undefined;
    if (!link) throw new AppError('sso_link_expired', ssoMessages.linkExpired, { status: 410 });
    return link;
  }

  return {
    signInWith,
    takeState,

    /** The social providers people may use (the buttons): ids and names only. */
    socialProviders(): { id: string; name: string }[] {
      return config.socialProviders.map(({ id, name }) => ({ id, name }));
    },

    /** Starts a social sign-in: the provider's URL, and the state this browser keeps (its cookie). */
    async startSocial(providerId: string, returnTo: string | undefined): Promise<{ url: string; state: string }> {
      const provider = providerOf(providerId);
      const { url, checks } = await oidc.start(provider, socialCallbackUrl(provider));
      await ssoRepository.insertState(db, {
        id_hash: hashSecret(checks.state),
        provider: `social:${provider.id}`,
        workspace_id: null,
        nonce: checks.nonce,
        code_verifier: checks.codeVerifier,
        request_id: null,
        return_to: safeReturnPath(returnTo),
        expires_at: new Date(Date.now() + STATE_MS),
      });
      return { url, state: checks.state };
    },

    /** Finishes a social sign-in from the provider's callback to this browser; a failure is audited. */
    async finishSocial(
      providerId: string,
      callbackUrl: URL,
      browserState: string | undefined,
      client: ClientInfo,
    ): Promise<SsoOutcome> {
      return auditedSsoCallback(db, { provider: `social:${providerId}` }, client, async () => {
        const provider = providerOf(providerId);
        const row = await takeState(callbackUrl.searchParams.get('state'), browserState, `social:${provider.id}`);
        const identity = await oidc.finish(provider, callbackUrl, {
          state: callbackUrl.searchParams.get('state') ?? '',
          nonce: row.nonce ?? '',
          codeVerifier: row.code_verifier ?? '',
        });
        return signInWith({ provider: `social:${provider.id}`, identity, returnTo: row.return_to, client });
      });
    },

    /** The identity provider accounts linked to the user, for their profile. */
    async listIdentities(user: User): Promise<LinkedIdentitiesView> {
      const rows = await ssoRepository.listIdentities(db, user.id);
      return {
        hasPassword: user.has_password,
        items: rows.map((row) => ({
          id: row.id,
          kind: row.provider.startsWith('social:') ? ('social' as const) : ('workspace' as const),
          provider: row.provider.startsWith('social:')
            ? providerName(config.socialProviders, row.provider)
            : 'Single sign-on',
          workspace: row.workspace_id ? { id: row.workspace_id, name: row.workspace_name ?? '' } : null,
          email: row.email,
          linkedAt: new Date(row.created_at).toISOString(),
        })),
      };
    },

    /**
     * Unlinks one of the user's identities: that provider account no longer signs in to this one.
     * 404 when it is not theirs; 409 last_sign_in_method when nothing would be left to sign in
     * with (no password anyone set, and no other identity).
     */
    async removeIdentity(user: User, identityId: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        // Locked, so that two removals at once cannot each leave the other as the last way in.
        const owner = await usersService.lockById(tx, user.id);
        const removed = await ssoRepository.deleteIdentity(tx, user.id, identityId);
        if (!owner || !removed) throw notFound('This sign-in method is not linked to your account.');
        if (!owner.has_password && (await ssoRepository.listIdentities(tx, user.id)).length === 0) {
          throw new AppError('last_sign_in_method', ssoMessages.lastSignInMethod, { status: 409 });
        }
        await audit(tx, {
          action: 'user.identity_removed',
          actorUserId: user.id,
          subjectId: user.id,
          workspaceId: null,
          detail: { provider: removed.provider },
        });
      });
    },

    /** What the link page shows: the account's e-mail and the provider it would be linked to. */
    async linkRequest(token: string | undefined): Promise<{ email: string; provider: string }> {
      const link = await pendingLink(token);
      const user = await usersService.findById(db, link.user_id);
      if (!user) throw new AppError('sso_link_expired', ssoMessages.linkExpired, { status: 410 });
      return { email: user.email, provider: providerName(config.socialProviders, link.provider) };
    },

    /**
     * Links the identity once the account's password is proved, and signs in. The password goes
     * through the log-in (its limits and delays apply); a wrong one is 401 and the request stays.
     */
    async link(
      token: string | undefined,
      password: string,
      client: ClientInfo,
    ): Promise<{ user: User; session: StartedSession; returnTo: string }> {
      const link = await pendingLink(token);
      const owner = await usersService.findById(db, link.user_id);
      if (!owner) throw new AppError('sso_link_expired', ssoMessages.linkExpired, { status: 410 });
      if (!owner.email_verified_at) throw emailNotVerified();
      const { user, session } = await auth.login({ email: owner.email, password }, client);
      // The password alone does not sign in an account with two-factor authentication, so it links nothing either.
      if (!session) {
        throw new AppError(
          'two_factor_required',
          'This account signs in with a two-factor code: log in with your password and code instead.',
          { status: 409 },
        );
      }
      await db.transaction().execute(async (tx) => {
        await ssoRepository.insertIdentity(tx, {
          userId: user.id,
          provider: link.provider,
          subject: link.subject,
          email: link.email,
        });
        await ssoRepository.deletePendingLink(tx, link.token_hash);
        await audit(tx, {
          action: 'user.identity_linked',
          actorUserId: user.id,
          workspaceId: workspaceOfProvider(link.provider) ?? null,
          detail: { provider: link.provider },
        });
      });
      return { user, session, returnTo: link.return_to };
    },
  };
}

/** What people call a provider: the social provider's name, or "your workspace's identity provider". */
function providerName(social: SocialProvider[], provider: string): string {
  const id = provider.startsWith('social:') ? provider.slice('social:'.length) : undefined;
  return social.find((p) => p.id === id)?.name ?? "your workspace's identity provider";
}

export type SsoService = ReturnType<typeof createSsoService>;
