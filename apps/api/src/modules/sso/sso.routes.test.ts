import { describe, expect, it } from 'vitest';
import { cookieOptions, crossSitePostCookieOptions } from './sso.routes.js';

describe('the state cookie of a workspace sign-in', () => {
  it('is SameSite=None and Secure on https, so the identity provider’s cross-site POST carries it', () => {
    expect(crossSitePostCookieOptions({ secureCookies: true }, 600_000)).toMatchObject({
      sameSite: 'none',
      secure: true,
      httpOnly: true,
      path: '/api/v1/auth',
      maxAge: 600,
    });
  });

  it('has no SameSite attribute on plain http, where None would need Secure', () => {
    const options = crossSitePostCookieOptions({ secureCookies: false }, 600_000);
    expect(options.sameSite).toBeUndefined();
    expect(options).toMatchObject({ secure: false, httpOnly: true });
  });

  it('leaves the social sign-in’s cookie Lax: its callback is a top-level GET', () => {
    expect(cookieOptions({ secureCookies: true }, 600_000).sameSite).toBe('lax');
  });
});
