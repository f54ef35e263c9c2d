import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
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
  /**
   * While set, the token endpoint answers this instead of the ID token it issued (a tampered
   * token response, as a man in the middle or a compromised proxy would send it).
   */
  replaceIdToken: ((issued: string) => string) | undefined;
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
  options: { port?: number; advertisedIdTokenAlgs?: string[] } = {},
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
  const tampering: { replaceIdToken: TestOpenIdProvider['replaceIdToken'] } = { replaceIdToken: undefined };
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.path === '/token' && typeof body?.id_token === 'string' && tampering.replaceIdToken) {
      ctx.body = { ...body, id_token: tampering.replaceIdToken(body.id_token) };
    }
    // What the discovery document says the provider signs ID tokens with (some list HS256, or none).
    if (ctx.path === '/.well-known/openid-configuration' && body && options.advertisedIdTokenAlgs) {
      ctx.body = { ...body, id_token_signing_alg_values_supported: options.advertisedIdTokenAlgs };
    }
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
    get replaceIdToken() {
      return tampering.replaceIdToken;
    },
    set replaceIdToken(replace) {
      tampering.replaceIdToken = replace;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const partOf = (jwt: string, index: number) =>
  JSON.parse(Buffer.from(jwt.split('.')[index] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** Ways to forge an ID token the provider did not sign. */
export type IdTokenForgery = 'alg none' | 'a key not in the JWKS' | 'an unknown kid' | 'HS256 with the client secret';

/**
 * The issued ID token's claims, changed by `claims`, under a signature the provider never made:
 * none at all, an RSA key of the forger's (under the provider's key id or an unknown one), or an
 * HMAC keyed with the client secret (which the relying party knows, and so could anyone who has it).
 */
export function forgeIdToken(
  issued: string,
  claims: Record<string, unknown>,
  how: IdTokenForgery,
  clientSecret: string,
): string {
  const payload = part({ ...partOf(issued, 1), ...claims });
  const { kid } = partOf(issued, 0);
  if (how === 'alg none') return `${part({ alg: 'none', typ: 'JWT' })}.${payload}.`;
  if (how === 'HS256 with the client secret') {
    const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${payload}`;
    return `${input}.${createHmac('sha256', clientSecret).update(input).digest('base64url')}`;
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const header = { alg: 'RS256', typ: 'JWT', kid: how === 'an unknown kid' ? 'forged-key' : kid };
  const input = `${part(header)}.${payload}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}
