import { Resolver } from 'node:dns/promises';
import { createRequire } from 'node:module';

/**
 * Proof that a workspace controls an e-mail domain (issue 29): a TXT record only the domain's
 * owner can publish. The record sits at `_sundial-challenge.<domain>`, beside (not among) the
 * domain's own TXT records (SPF and others), and its whole value must be
 * `sundial-domain-verification=<token>`, the token being the one this workspace's claim was given.
 */
export const PROOF_RECORD_PREFIX = '_sundial-challenge.';
export const PROOF_VALUE_PREFIX = 'sundial-domain-verification=';

export const proofRecordOf = (domain: string, token: string) => ({
  name: `${PROOF_RECORD_PREFIX}${domain}`,
  value: `${PROOF_VALUE_PREFIX}${token}`,
});

/** What a lookup of the proof record found. */
export type ProofLookup =
  | { found: true; values: string[] }
  /** The name has no TXT record (NXDOMAIN or no data): not published, or not visible yet. */
  | { found: false; reason: 'missing' }
  /** No answer we can trust: the DNS server failed, refused or did not answer in time. */
  | { found: false; reason: 'unreachable' };

const MISSING = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/**
 * TXT look-ups through node's resolver: the servers of DNS_SERVERS (`ip[:port]`) or the system's,
 * each look-up bounded by `timeoutMs` overall (the resolver is cancelled then).
 */
export function createDomainProofResolver(options: { servers?: string[]; timeoutMs: number }) {
  return {
    async lookup(name: string): Promise<ProofLookup> {
      const resolver = new Resolver({ timeout: Math.max(100, Math.floor(options.timeoutMs / 2)), tries: 2 });
      if (options.servers?.length) resolver.setServers(options.servers);
      const deadline = setTimeout(() => resolver.cancel(), options.timeoutMs);
      try {
        const records = await resolver.resolveTxt(name);
        // A record longer than 255 bytes comes in pieces; its value is the pieces joined.
        return { found: true, values: records.map((pieces) => pieces.join('')) };
      } catch (error) {
        if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) return { found: false, reason: 'missing' };
        return { found: false, reason: 'unreachable' };
      } finally {
        clearTimeout(deadline);
      }
    },
  };
}

export type DomainProofResolver = ReturnType<typeof createDomainProofResolver>;

const PUBLIC_MAIL_DOMAINS = new Set<string>(createRequire(import.meta.url)('email-providers/all.json') as string[]);

/**
 * Whether anyone may have an address at the domain (gmail.com, outlook.com, …): the list of the
 * email-providers package (goware/emailproviders, some 8,000 domains). Such a domain can never be
 * one workspace's, whatever DNS says.
 */
export const isPublicMailDomain = (domain: string): boolean => PUBLIC_MAIL_DOMAINS.has(domain);
