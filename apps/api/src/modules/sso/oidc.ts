import { ssoMessages } from '@sundial/core';
import * as client from 'openid-client';
import { AppError } from '../../platform/errors.js';
import { hashSecret } from '../../platform/ids.js';

/** An OpenID provider as a relying party knows it: where it is and who we are there. */
export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What a sign-in at an OpenID provider proved: its subject and, when it vouches for it, the e-mail. */
export interface OidcIdentity {
  subject: string;
  /** Lower case; undefined when the provider shared none or said it is not verified. */
  email: string | undefined;
  /** The provider said in so many words that the address is verified (email_verified: true). */
  emailVerified?: boolean;
}

/** The checks one sign-in carries from its start to its callback (kept server-side, sso_states). */
export interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const isLocalHttp = (issuer: URL) =>
  issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);

export const ssoFailed = () => new AppError('sso_failed', ssoMessages.failed, { status: 401 });

/**
 * The relying party (openid-client): the authorisation code flow with PKCE (S256), state and
 * nonce, each provider's discovery document fetched once per process (again after a failure).
 * Plain http is allowed for an issuer on this machine only (tests, a local provider).
 */
export function createOidcRelyingParty() {
  const configurations = new Map<string, Promise<client.Configuration>>();

  function configurationOf(settings: OidcClientSettings): Promise<client.Configuration> {
    const key = `${settings.issuer}\n${settings.clientId}\n${hashSecret(settings.clientSecret)}`;
    let found = configurations.get(key);
    if (!found) {
      const issuer = new URL(settings.issuer);
      found = client
        .discovery(
          issuer,
          settings.clientId,
          settings.clientSecret,
          undefined,
          isLocalHttp(issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .then((configuration) => {
          // openid-client checks an ID token from the token endpoint's claims and its `alg` against
          // the provider's advertised list, not its signature (OIDC allows trusting TLS there).
          // This checks the signature too, by a key of the provider's JWKS; symmetric (HS*) and
          // `none` tokens are refused.
          client.enableNonRepudiationChecks(configuration);
          return configuration;
        });
      found.catch(() => configurations.delete(key));
      configurations.set(key, found);
    }
    return found.catch(() => {
      throw new AppError('sso_provider_unreachable', ssoMessages.providerUnreachable, { status: 502 });
    });
  }

  return {
    /** The provider's authorisation URL for a new sign-in, and the checks its callback must pass. */
    async start(
      settings: OidcClientSettings,
      redirectUri: string,
      extra: Record<string, string> = {},
    ): Promise<{ url: string; checks: OidcChecks }> {
      const configuration = await configurationOf(settings);
      const checks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        ...extra,
      });
      return { url: url.href, checks };
    },

    /**
     * Finishes a sign-in from the callback's URL: checks state, exchanges the code with the PKCE
     * verifier, checks the ID token (its `alg` one the provider advertises and asymmetric, its
     * signature by a key of the provider's JWKS, issuer, audience, nonce, time) and reads the
     * e-mail from it or from userinfo. 401 sso_failed when anything does not hold.
     */
    async finish(settings: OidcClientSettings, callbackUrl: URL, checks: OidcChecks): Promise<OidcIdentity> {
      const configuration = await configurationOf(settings);
      try {
        const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw ssoFailed();
        let email = claims.email;
        let verified = claims.email_verified;
        if (typeof email !== 'string') {
          const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
          email = info.email;
          verified = info.email_verified;
        }
        // A provider that says nothing of verification (Microsoft) is taken at its word; one that says false is not.
        const usable = typeof email === 'string' && verified !== false && email.includes('@');
        return {
          subject: claims.sub,
          email: usable ? (email as string).toLowerCase() : undefined,
          emailVerified: usable && verified === true,
        };
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw ssoFailed();
      }
    },
  };
}

export type OidcRelyingParty = ReturnType<typeof createOidcRelyingParty>;
