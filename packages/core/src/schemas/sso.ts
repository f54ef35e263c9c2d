import { z } from 'zod';
import { messages } from '../messages.js';
import { text } from './text.js';

/**
 * Single sign-on (issue 18): what the API answers when a sign-in through an identity provider
 * cannot finish. The callback sends the browser to `/loginpage?ssoError=<code>`; the page says this.
 */
export const ssoMessages = {
  providerUnknown: 'This sign-in provider is not configured.',
  providerUnreachable: 'The identity provider could not be reached. Try again in a moment.',
  failed: 'The sign-in at the identity provider did not complete. Try again.',
  wrongIssuer:
    "The answer came from an identity provider this workspace does not trust (its issuer is not the one in the workspace's SSO settings). Ask an owner or admin to check them.",
  expired: 'That sign-in took too long or was already used. Start again.',
  noEmail: 'The identity provider did not share a verified e-mail address.',
  linkExpired: 'That link request has expired. Sign in with the provider again.',
  notConfigured: 'Single sign-on is not set up for that address or workspace.',
  outsideDomains: "That address is not in one of the workspace's verified domains.",
  ssoRequired: 'Your workspace requires single sign-on. Use "Log in with SSO".',
  domainTaken: 'Another workspace has already verified this domain.',
  emailDomainNotAllowed:
    "Your address is not at one of this workspace's allowed e-mail domains. Ask an owner or admin of the workspace.",
  domainPublic: (domain: string) =>
    `${domain} is a public e-mail service: anyone can have an address there, so it cannot be one workspace's. Add your organisation's own domain.`,
  domainNotProved: (name: string) =>
    `We could not find the TXT record ${name} with this workspace's value yet. Publish it at your DNS provider, then verify again; DNS changes can take from a few minutes up to 48 hours to be seen.`,
  domainLookupFailed: (name: string) =>
    `The DNS servers did not answer for ${name}, so the domain could not be checked. Try again in a few minutes.`,
  emailNotVerified:
    'An account with this address exists, but its address is not confirmed yet. Log in with its password and confirm the address from the e-mail we sent (or reset the password), then sign in this way again.',
  lastSignInMethod:
    'This is the only way you can sign in: set a password first (log out, then "Forgot password"), then remove it.',
} as const;

export type SsoErrorCode =
  | 'sso_provider_unknown'
  | 'sso_provider_unreachable'
  | 'sso_failed'
  | 'sso_wrong_issuer'
  | 'sso_expired'
  | 'sso_no_email'
  | 'sso_not_configured'
  | 'sso_outside_domains'
  | 'sso_required'
  | 'sso_email_not_verified'
  | 'email_domain_not_allowed';

/** The message of a callback's `ssoError` code (unknown codes get the general one). */
export function ssoErrorMessage(code: string): string {
  const byCode: Record<SsoErrorCode, string> = {
    sso_provider_unknown: ssoMessages.providerUnknown,
    sso_provider_unreachable: ssoMessages.providerUnreachable,
    sso_failed: ssoMessages.failed,
    sso_wrong_issuer: ssoMessages.wrongIssuer,
    sso_expired: ssoMessages.expired,
    sso_no_email: ssoMessages.noEmail,
    sso_not_configured: ssoMessages.notConfigured,
    sso_outside_domains: ssoMessages.outsideDomains,
    sso_required: ssoMessages.ssoRequired,
    sso_email_not_verified: ssoMessages.emailNotVerified,
    email_domain_not_allowed: ssoMessages.emailDomainNotAllowed,
  };
  return byCode[code as SsoErrorCode] ?? ssoMessages.failed;
}

/**
 * Where to go after signing in: a path of this site only (`/x`, never `//host` or `/\host`, which
 * browsers read as another host), else the app's start.
 */
export function safeReturnPath(value: string | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value.length > 500 || [...value].some((c) => c.charCodeAt(0) < 0x20)) return '/';
  return value;
}

export const ssoStartQuery = z.object({ returnTo: z.string().max(500).optional() });

/** Proving the password of the account a provider's e-mail belongs to, to link the two. */
export const ssoLinkBody = z.object({
  password: text({ trim: false, min: 1, max: 1024, required: messages.allFieldsRequired }),
});

export const socialProviderView = z.object({ id: z.string(), name: z.string() });
export type SocialProviderView = z.infer<typeof socialProviderView>;

/** An identity provider account linked to the signed-in user (the profile lists them; each can be removed). */
export const linkedIdentityView = z.object({
  id: z.uuid(),
  /** `social` (a provider the operator configured) or `workspace` (a workspace's own SSO). */
  kind: z.enum(['social', 'workspace']),
  /** The social provider's name, or "Single sign-on". */
  provider: z.string(),
  /** The workspace whose identity provider it is (null for social, or a workspace since deleted). */
  workspace: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  email: z.string(),
  linkedAt: z.string(),
});
export type LinkedIdentityView = z.infer<typeof linkedIdentityView>;
export const linkedIdentitiesView = z.object({
  items: z.array(linkedIdentityView),
  /** Whether the account has a password anyone set (else its last identity cannot be removed). */
  hasPassword: z.boolean(),
});
export type LinkedIdentitiesView = z.infer<typeof linkedIdentitiesView>;

// ---- workspace SSO (Pro) ------------------------------------------------------------------------

const httpsUrl = z
  .string()
  .trim()
  .max(500)
  .url('Enter a URL, like https://idp.example.com.')
  .refine((value) => /^https?:\/\//.test(value), { message: 'Enter a URL starting with https://.' });
const joinRole = z.enum(['admin', 'manager', 'member', 'guest']);

const common = {
  requireSso: z.boolean().default(false),
  defaultRole: joinRole.default('member'),
};

/** A workspace's identity provider, as its owner or admin sets it. */
export const workspaceSsoBody = z.discriminatedUnion('protocol', [
  z.object({
    protocol: z.literal('oidc'),
    issuer: httpsUrl,
    clientId: text({ min: 1, max: 300 }),
    /** Left out: the stored one stays. */
    clientSecret: text({ trim: false, min: 1, max: 1000 }).optional(),
    ...common,
  }),
  z.object({
    protocol: z.literal('saml'),
    entryPoint: httpsUrl,
    idpIssuer: text({ min: 1, max: 500 }),
    /** The identity provider's signing certificate, PEM or its base64 body. */
    idpCertificate: text({ min: 100, max: 20_000 }),
    ...common,
  }),
]);
export type WorkspaceSsoBody = z.input<typeof workspaceSsoBody>;

export const ssoDomainSchema = text({ min: 3, max: 253 })
  .transform((value) => value.toLowerCase())
  .refine((value) => /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(value), {
    message: 'Enter a domain, like example.com.',
  });

export const workspaceSsoView = z.object({
  protocol: z.enum(['oidc', 'saml']).nullable(),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  hasClientSecret: z.boolean(),
  entryPoint: z.string().nullable(),
  idpIssuer: z.string().nullable(),
  idpCertificate: z.string().nullable(),
  requireSso: z.boolean(),
  defaultRole: joinRole,
  domains: z.array(
    z.object({
      domain: z.string(),
      verified: z.boolean(),
      verifiedAt: z.string().nullable(),
      /** The TXT record that proves the domain is this workspace's: publish it, then verify. */
      record: z.object({ name: z.string(), value: z.string() }),
    }),
  ),
  /** What to enter at the identity provider. */
  oidcRedirectUri: z.string(),
  samlEntityId: z.string(),
  samlAcsUrl: z.string(),
});
export type WorkspaceSsoView = z.infer<typeof workspaceSsoView>;

/** "Log in with SSO": an e-mail (its verified domain finds the workspace) or a workspace id. */
export const ssoStartBody = z
  .object({
    email: text({ max: 254 }).optional(),
    workspaceId: z.uuid().optional(),
    returnTo: z.string().max(500).optional(),
  })
  .refine((body) => body.email || body.workspaceId, { message: 'Enter your work e-mail.', path: ['email'] });
