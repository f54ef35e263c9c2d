import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  it('has defaults that start Sundial on the embedded database at port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('refuses private outbound targets unless allowed, under the new name or the older webhooks one', () => {
    expect(loadConfig({}).allowPrivateTargets).toBe(false);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true' }).allowPrivateTargets).toBe(true);
    expect(loadConfig({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }).allowPrivateTargets).toBe(true);
    // The new name decides when both are set.
    expect(
      loadConfig({ OUTBOUND_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' })
        .allowPrivateTargets,
    ).toBe(false);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(
      /OUTBOUND_ALLOW_PRIVATE_TARGETS: must be true or false/,
    );
  });

  it('uses secure cookies behind an https public URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://time.example.com/' })).toMatchObject({
      publicUrl: 'https://time.example.com',
      secureCookies: true,
    });
  });

  it('names every wrong value in one clear message', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'nope' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: must be a number/);
    expect(attempt).toThrow(/DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//);
    expect(attempt).toThrow(/SMTP_URL: must be a URL/);
  });

  it('runs jobs in every process by default, polling each second, and names a wrong job setting', () => {
    expect(loadConfig({})).toMatchObject({ JOBS_ENABLED: true, JOBS_POLL_MS: 1000 });
    expect(loadConfig({ JOBS_ENABLED: 'false', JOBS_POLL_MS: '250' })).toMatchObject({
      JOBS_ENABLED: false,
      JOBS_POLL_MS: 250,
    });
    const attempt = () => loadConfig({ JOBS_ENABLED: 'yes', JOBS_POLL_MS: '5' });
    expect(attempt).toThrow(/JOBS_ENABLED: must be true or false/);
    expect(attempt).toThrow(/JOBS_POLL_MS: must be at least 10/);
  });

  it("looks DNS up through the system's servers unless DNS_SERVERS names others, and names a wrong one", () => {
    expect(loadConfig({}).DNS_SERVERS).toBeUndefined();
    expect(loadConfig({}).DNS_TIMEOUT_MS).toBe(5000);
    expect(loadConfig({ DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[::1]:53,2001:db8::1' }).DNS_SERVERS).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '[::1]:53',
      '2001:db8::1',
    ]);
    for (const wrong of ['dns.example.com', '1.1.1.1:99999', '1.1.1.1:', '[1.1.1.1]:53', '1.1.1.1,,8.8.8.8']) {
      expect(() => loadConfig({ DNS_SERVERS: wrong }), wrong).toThrow(/DNS_SERVERS: must be IP addresses/);
    }
  });

  it('has a seller by default, splits the address into lines and checks the country and an EU VAT id', () => {
    expect(loadConfig({}).seller).toEqual({
      name: 'Sundial',
      addressLines: ['1 Example Street', 'Dublin D02 X285'],
      country: 'IE',
      vatId: null,
      email: 'no-reply@sundial.localhost',
      invoicePrefix: 'SUN',
    });
    const seller = loadConfig({
      SELLER_NAME: 'Muster GmbH',
      SELLER_ADDRESS: 'Hauptstraße 1\\n10115 Berlin',
      SELLER_COUNTRY: 'de',
      SELLER_VAT_ID: 'de 136 695 976',
      SELLER_EMAIL: 'billing@muster.de',
    }).seller;
    expect(seller).toMatchObject({
      addressLines: ['Hauptstraße 1', '10115 Berlin'],
      country: 'DE',
      vatId: 'DE136695976',
      email: 'billing@muster.de',
    });
    expect(() => loadConfig({ SELLER_COUNTRY: 'XX' })).toThrow(/SELLER_COUNTRY: must be an ISO 3166-1 alpha-2/);
    expect(() => loadConfig({ SELLER_COUNTRY: 'DE', SELLER_VAT_ID: 'DE123' })).toThrow(/SELLER_VAT_ID: .*Germany/);
    // Outside the EU the VAT id (a sales-tax or GST number) is printed as given.
    expect(loadConfig({ SELLER_COUNTRY: 'US', SELLER_VAT_ID: '12-3456789' }).seller.vatId).toBe('12-3456789');
  });
});

describe('social sign-in providers', () => {
  const acme = { id: 'acme', name: 'Acme ID', issuer: 'https://id.acme.test', clientId: 'c', clientSecret: 's' };

  it('reads none by default, the presets, and the JSON list', () => {
    expect(loadConfig({}).socialProviders).toEqual([]);
    const config = loadConfig({
      OIDC_GOOGLE_CLIENT_ID: 'g-id',
      OIDC_GOOGLE_CLIENT_SECRET: 'g-secret',
      OIDC_MICROSOFT_CLIENT_ID: 'm-id',
      OIDC_MICROSOFT_CLIENT_SECRET: 'm-secret',
      OIDC_MICROSOFT_TENANT: 'contoso.onmicrosoft.com',
      OIDC_PROVIDERS: JSON.stringify([acme]),
    });
    expect(config.socialProviders).toEqual([
      {
        id: 'google',
        name: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: 'g-id',
        clientSecret: 'g-secret',
      },
      {
        id: 'microsoft',
        name: 'Microsoft',
        issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0',
        clientId: 'm-id',
        clientSecret: 'm-secret',
      },
      acme,
    ]);
  });

  it.each([
    [{ OIDC_GOOGLE_CLIENT_ID: 'g-id' }, 'OIDC_GOOGLE_CLIENT_ID and OIDC_GOOGLE_CLIENT_SECRET: set both, or neither'],
    [{ OIDC_PROVIDERS: '{not json' }, 'OIDC_PROVIDERS: must be JSON'],
    [{ OIDC_PROVIDERS: JSON.stringify([{ ...acme, issuer: 'ftp://x' }]) }, 'OIDC_PROVIDERS.0.issuer: must start with'],
    [{ OIDC_PROVIDERS: JSON.stringify([{ ...acme, id: 'Has Space' }]) }, 'OIDC_PROVIDERS.0.id: must be 1 to 30'],
    [{ OIDC_PROVIDERS: JSON.stringify([acme, acme]) }, 'the id "acme" is used twice'],
  ])('fails with a clear line for %j', (env, line) => {
    expect(() => loadConfig(env)).toThrow(line);
  });
});
