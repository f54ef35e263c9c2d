import { describe, expect, it } from 'vitest';
import { allowedEmailDomainsSchema, isEmailDomainAllowed } from './email-domains.js';

describe('allowed e-mail domains', () => {
  it('lower-cases the domains and forgives a leading @', () => {
    expect(allowedEmailDomainsSchema.parse(['Example.COM', ' @corp.example.org '])).toEqual([
      'example.com',
      'corp.example.org',
    ]);
    expect(allowedEmailDomainsSchema.parse([])).toEqual([]);
  });

  it('names each bad domain and each one listed twice, at its place in the list', () => {
    const result = allowedEmailDomainsSchema.safeParse(['example.com', 'not a domain', 'EXAMPLE.com', 'localhost']);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [[1], '"not a domain" is not a domain. Enter one like example.com.'],
      [[2], 'example.com is listed twice.'],
      [[3], '"localhost" is not a domain. Enter one like example.com.'],
    ]);
  });

  it('refuses more than 50 domains', () => {
    const many = Array.from({ length: 51 }, (_, i) => `d${i}.example.com`);
    expect(allowedEmailDomainsSchema.safeParse(many).success).toBe(false);
  });

  it('allows any address with an empty list, else only the exact domains listed', () => {
    expect(isEmailDomainAllowed([], 'a@anything.test')).toBe(true);
    expect(isEmailDomainAllowed(['example.com'], 'Ann@Example.com')).toBe(true);
    expect(isEmailDomainAllowed(['example.com'], 'ann@mail.example.com')).toBe(false);
    expect(isEmailDomainAllowed(['example.com'], 'ann@example.com.evil.test')).toBe(false);
  });
});
