import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { ssoMessages } from '@sundial/core';
import { AppError } from '../../platform/errors.js';
import { ssoFailed } from './oidc.js';

/** A workspace's SAML identity provider and this Sundial as its service provider. */
export interface SamlSettings {
  entryPoint: string;
  idpIssuer: string;
  idpCertificate: string;
  /** Our entity id: the audience every assertion must name. */
  entityId: string;
  /** Our assertion consumer service: where responses are posted (checked as Destination and Recipient). */
  acsUrl: string;
}

/** node-saml's request-id cache, for one request: the id sso_states keeps and gives back once. */
function oneRequestCache(knownId?: string): CacheProvider & { savedId?: string } {
  const cache: CacheProvider & { savedId?: string } = {
    async saveAsync(key, value) {
      cache.savedId = key;
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      return key === knownId ? new Date().toISOString() : null;
    },
    async removeAsync(key) {
      return key;
    },
  };
  return cache;
}

const CLOCK_SKEW_MS = 60_000;

function samlOf(settings: SamlSettings, cache: CacheProvider): SAML {
  return new SAML({
    entryPoint: settings.entryPoint,
    issuer: settings.entityId,
    callbackUrl: settings.acsUrl,
    audience: settings.entityId,
    idpIssuer: settings.idpIssuer,
    idpCert: settings.idpCertificate,
    // Every assertion must carry the identity provider's signature; a signed response alone is not enough.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: 10 * 60_000,
    // Only answers to a request this Sundial sent (no unsolicited, identity-provider-started responses).
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: 10 * 60_000,
    cacheProvider: cache,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });
}

/** The redirect to the identity provider for a new sign-in, and the request's id its answer must name. */
export async function startSaml(
  settings: SamlSettings,
  relayState: string,
): Promise<{ url: string; requestId: string }> {
  const cache = oneRequestCache();
  const url = await samlOf(settings, cache).getAuthorizeUrlAsync(relayState, undefined, {});
  if (!cache.savedId) throw new AppError('internal_error', 'The SAML request has no id.', { status: 500 });
  return { url, requestId: cache.savedId };
}

const attribute = (xml: string, element: string, name: string): string | undefined =>
  xml.match(new RegExp(`<(?:\\w+:)?${element}\\b[^>]*\\s${name}="([^"]*)"`))?.[1];
/** The text of the first Issuer element: the response's own (it precedes its Status and assertion), else the assertion's. */
const firstIssuer = (xml: string): string | undefined => xml.match(/<(?:\w+:)?Issuer\b[^>]*>([^<]*)</)?.[1]?.trim();

/**
 * node-saml compares the issuer with `idpIssuer` on logout messages only. A key may sign for
 * several tenants of one identity provider, so an assertion is this workspace's only when its
 * (signed) issuer, and the response's, is the configured one.
 */
function assertConfiguredIssuer(settings: SamlSettings, responseXml: string, assertionIssuer: unknown): void {
  if (assertionIssuer !== settings.idpIssuer || firstIssuer(responseXml) !== settings.idpIssuer) {
    throw new AppError('sso_wrong_issuer', ssoMessages.wrongIssuer, { status: 401 });
  }
}

/**
 * Checks a posted SAML response: the assertion signed by the identity provider's certificate,
 * its issuer and the response's (the configured one, else 401 sso_wrong_issuer), the audience (our entity id), the time window, that it answers our request, and that
 * it was meant for our assertion consumer service (Destination and the signed Recipient). Answers
 * the subject (NameID), the e-mail (an `email` attribute, else the NameID when it is one), the
 * assertion's id and when it stops being valid (for the replay check). 401 sso_failed otherwise.
 */
export async function finishSaml(
  settings: SamlSettings,
  samlResponse: string,
  requestId: string,
): Promise<{ subject: string; email: string | undefined; assertionId: string; notOnOrAfter: Date }> {
  try {
    const responseXml = Buffer.from(samlResponse, 'base64').toString('utf8');
    const destination = attribute(responseXml, 'Response', 'Destination');
    if (destination !== undefined && destination !== settings.acsUrl) throw ssoFailed();
    const { profile } = await samlOf(settings, oneRequestCache(requestId)).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    const assertionXml = profile?.getAssertionXml?.();
    if (!profile || !assertionXml) throw ssoFailed();
    assertConfiguredIssuer(settings, responseXml, profile.issuer);
    if (attribute(assertionXml, 'SubjectConfirmationData', 'Recipient') !== settings.acsUrl) throw ssoFailed();
    const assertionId = attribute(assertionXml, 'Assertion', 'ID');
    const until =
      attribute(assertionXml, 'SubjectConfirmationData', 'NotOnOrAfter') ??
      attribute(assertionXml, 'Conditions', 'NotOnOrAfter');
    if (!assertionId || !until) throw ssoFailed();
    const emailAttribute = typeof profile.email === 'string' ? profile.email : undefined;
    const email = emailAttribute ?? (profile.nameID.includes('@') ? profile.nameID : undefined);
    return {
      subject: profile.nameID,
      email: email?.toLowerCase(),
      assertionId,
      notOnOrAfter: new Date(new Date(until).getTime() + CLOCK_SKEW_MS),
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw ssoFailed();
  }
}

/** Our service provider metadata, for the identity provider's administrator. */
export function samlMetadata(settings: SamlSettings): string {
  return samlOf(settings, oneRequestCache()).generateServiceProviderMetadata(null);
}
