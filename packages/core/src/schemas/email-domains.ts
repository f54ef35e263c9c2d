import { z } from 'zod';
import { ssoDomainSchema } from './sso.js';

/**
 * A workspace's "allowed e-mail domains" (DECISIONS.md, Accounts and security): when the list is
 * not empty, only addresses at one of its domains may join by invite, SSO or SCIM. Exact domains:
 * `example.com` does not admit `mail.example.com` (list that one too).
 */
export const MAX_ALLOWED_EMAIL_DOMAINS = 50;

export const emailDomainMessages = {
  notADomain: (value: string) => `"${value}" is not a domain. Enter one like example.com.`,
  listedTwice: (domain: string) => `${domain} is listed twice.`,
  tooMany: `List at most ${MAX_ALLOWED_EMAIL_DOMAINS} domains.`,
  notAllowed: (email: string, domains: readonly string[]) =>
    `${email} is not at an allowed e-mail domain of this workspace (${domains.join(', ')}). An owner or admin can change the list in the workspace settings.`,
} as const;

/** The list as sent (any case, a leading "@" forgiven); answers it lower-cased, each domain checked, none twice. */
export const allowedEmailDomainsSchema = z
  .array(z.string().max(260), { error: 'Send a list of domains.' })
  .max(MAX_ALLOWED_EMAIL_DOMAINS, emailDomainMessages.tooMany)
  .transform((values, ctx) => {
    const seen = new Set<string>();
    const domains: string[] = [];
    for (const [index, raw] of values.entries()) {
      const trimmed = raw.trim().replace(/^@/, '');
      const parsed = ssoDomainSchema.safeParse(trimmed);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', path: [index], message: emailDomainMessages.notADomain(raw.trim()) });
        continue;
      }
      if (seen.has(parsed.data)) {
        ctx.addIssue({ code: 'custom', path: [index], message: emailDomainMessages.listedTwice(parsed.data) });
        continue;
      }
      seen.add(parsed.data);
      domains.push(parsed.data);
    }
    return domains;
  });

/** Whether the address may join a workspace with this list (an empty list allows any). */
export function isEmailDomainAllowed(domains: readonly string[], email: string): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.includes(domain);
}
