import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Someone who can sign in at the test provider, with what it says of their e-mail. */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
}

export interface TestOpenIdProvider {
  issuer: string;
  /** Accounts by subject; add to it in a test. */
  accounts: Map<string, ProviderAccount>;
  /**
   * Follows an authorisation URL through the provider's own log-in and consent pages as the
   * account `subject` would in a browser, and answers where the provider sends the browser back.
   */
  signIn(authorizationUrl: string, subject: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a random local port (or `port`, when the server under
 * test must be told the issuer before it starts, as in the journeys), for tests of the relying
 * party: its development log-in and consent pages are driven by HTTP as a browser would, cookies
 * and all, or by a real browser.
 */
export async function startOpenIdProvider(
  clients: { clientId: string; clientSecret: string; redirectUris: string[] }[],
  options: { port?: number } = {},
): Promise<TestOpenIdProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    // Every client must use PKCE here, so a relying party that forgot it fails the tests.
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['a test provider cookie key'] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...accounts.get(sub) }),
    }),
  });
  server.on('request', provider.callback());

  async function signIn(authorizationUrl: string, subject: string): Promise<URL> {
    const jar = new Map<string, string>();
    let next = new URL(authorizationUrl);
    let form: URLSearchParams | undefined;
    for (let step = 0; step < 20; step++) {
      if (next.origin !== issuer) return next;
      const response = await fetch(next, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        body: form,
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
        if (value && !/expires=Thu, 01 Jan 1970/i.test(line)) jar.set(name, value);
        else jar.delete(name);
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        next = new URL(location, next);
        form = undefined;
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${html.slice(0, 500)}`);
      // The development interaction pages: a log-in form, then a consent form.
      const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
      if (!action) throw new Error(`no form on the provider's page: ${html.slice(0, 500)}`);
      next = new URL(action.replaceAll('&amp;', '&'), next);
      const prompt = html.includes('name="prompt" value="login"') ? 'login' : 'consent';
      form = new URLSearchParams(prompt === 'login' ? { prompt, login: subject, password: 'any' } : { prompt });
    }
    throw new Error('the provider never sent the browser back');
  }

  return {
    issuer,
    accounts,
    signIn,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
