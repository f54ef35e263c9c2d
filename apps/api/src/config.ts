import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { checkVatId, EXPORT_DIRECT_MAX_ROWS, isCountryCode, isEuCountry } from '@sundial/core';
import { z } from 'zod';

/** A key from SECRETS_KEY's text: 64 hex digits or 32 bytes in base64/base64url. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const bytes = Buffer.from(trimmed, 'base64url');
  return bytes.length === 32 && /^[A-Za-z0-9+/_=-]+$/.test(trimmed) ? bytes : undefined;
}

const port = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be between 1 and 65535')
  .max(65535, 'must be between 1 and 65535');

const url = (protocols: string[]) =>
  z
    .string()
    .url('must be a URL')
    .refine((value) => protocols.some((p) => value.startsWith(`${p}:`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const limit = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1_000_000, 'must be at most 1000000');

/** `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`, as node's Resolver.setServers takes them. */
function isDnsServer(server: string): boolean {
  const bracketed = server.match(/^\[([^\]]+)\](?::(\d{1,5}))?$/);
  if (bracketed) return isIP(bracketed[1] ?? '') === 6 && isPort(bracketed[2]);
  if (isIP(server) !== 0) return true;
  const [host, port, ...rest] = server.split(':');
  return rest.length === 0 && isIP(host ?? '') === 4 && isPort(port);
}
const isPort = (port: string | undefined) =>
  port === undefined || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('Sundial <no-reply@sundial.localhost>'),
  /** Who receives demo requests and other mail for the people running this Sundial; MAIL_FROM's address when unset. */
  OPERATOR_EMAIL: z.email('must be an e-mail address').optional(),
  PUBLIC_URL: url(['http', 'https']).optional(),
  WEB_DIST: z.string().optional(),
  /** The desktop agent's bundle (default packages/agent/dist/sundial-agent.mjs, made by npm run build:agent). */
  AGENT_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * true: stdout and stderr carry only the JSON log (for a log collector); false: without SMTP_URL,
   * each e-mail is also written to stderr as a readable block, in production and development.
   */
  LOG_JSON_ONLY: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** A request that takes at least this many milliseconds is logged as a warning (others at debug). */
  LOG_SLOW_REQUEST_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(3_600_000, 'must be at most 3600000')
    .default(1000),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /** Abuse limits: how many of each a client may do per window before 429 (see README, Settings). */
  RATE_LIMIT_SIGNUP_PER_IP: limit.default(10),
  RATE_LIMIT_LOGIN_PER_IP: limit.default(50),
  RATE_LIMIT_FORGOT_PER_IP: limit.default(20),
  RATE_LIMIT_FORGOT_PER_EMAIL: limit.default(5),
  RATE_LIMIT_INVITE_RESEND: limit.default(5),
  RATE_LIMIT_DEMO_PER_IP: limit.default(5),
  RATE_LIMIT_DEMO_PER_EMAIL: limit.default(3),
  /** Views of public report links per minute from one address (each wrong guess of a secret counts). */
  RATE_LIMIT_SHARE_VIEWS_PER_IP: limit.default(300),
  /** Cards one address may tokenise per hour with the sandbox payment gateway (card testing). */
  RATE_LIMIT_CARD_TOKENS_PER_IP: limit.default(20),
  /** Reads of private calendar feeds a minute from one address (each wrong address counts). */
  RATE_LIMIT_CALENDAR_FEED_PER_IP: limit.default(60),
  /** Desktop agent pairings (device codes) an hour from one address (issue 35). */
  RATE_LIMIT_AGENT_PAIRING_PER_IP: limit.default(30),
  /**
   * API keys (issue 34): requests a minute per key, per key to reports and exports (heavier), and
   * per workspace across all keys calling it. Over a limit: 429 with Retry-After; every answer to a
   * key carries RateLimit-Limit, -Remaining and -Reset.
   */
  API_KEY_REQUESTS_PER_MINUTE: limit.default(600),
  API_KEY_REPORTS_PER_MINUTE: limit.default(60),
  API_WORKSPACE_KEY_REQUESTS_PER_MINUTE: limit.default(3000),
  /**
   * Webhook deliveries one process sends a second at most (issue 34): a burst of events is spread
   * out so that the API beside it keeps its pace (10,000 events go out in about 40 s).
   */
  WEBHOOK_DELIVERIES_PER_SECOND: z.coerce.number({ error: 'must be a number' }).int().min(1).default(250),
  /** The largest import file, in bytes, and the most rows it may have (checked as it streams in). */
  IMPORT_MAX_BYTES: z.coerce.number({ error: 'must be a number' }).int().min(1).default(100_000_000),
  IMPORT_MAX_ROWS: z.coerce.number({ error: 'must be a number' }).int().min(1).default(1_000_000),
  /** Entries read per chunk of the report engine's cursor while a Detailed export streams. */
  EXPORT_PAGE_ROWS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(50_000).default(2_000),
  /**
   * How a Detailed export reads PGlite: `pages`, keyset pages of EXPORT_PAGE_ROWS entries, each a
   * short statement that other requests go between; `cursor`, one statement run whole into a
   * cursor WITH HOLD, which holds the one connection meanwhile (as before issue 33: to compare).
   */
  EXPORT_PGLITE_READ: z.enum(['pages', 'cursor'], { error: 'must be pages or cursor' }).default('pages'),
  /** Reports with more rows than this export as a background job instead of downloading at once. */
  EXPORT_JOB_MIN_ROWS: z.coerce.number({ error: 'must be a number' }).int().min(1).default(EXPORT_DIRECT_MAX_ROWS),
  /** Bytes per stored piece of an export job's file (the database holds files in pieces). */
  EXPORT_JOB_CHUNK_BYTES: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1024)
    .max(16_777_216)
    .default(1_048_576),
  /**
   * Whether Summary and matrix reports read the rollups (report_rollups and the coarse ones, kept
   * by triggers and the rollups job whatever this says) when their definition allows; false always
   * reads the entries.
   */
  REPORT_ROLLUPS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  /**
   * Whether a Detailed CSV export on PostgreSQL is written by the database (COPY, the same bytes,
   * several times as fast); false writes it in Node from a cursor, as on PGlite.
   */
  EXPORT_DATABASE_CSV: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  /**
   * A start-sorted Detailed CSV the database writes is copied in this many ranges of starts at
   * once, on as many pooled connections (the later ranges through temporary files), when it lists
   * at least EXPORT_COPY_SPLIT_ROWS entries: up to this many database cores at work. 1 copies it whole.
   */
  EXPORT_COPY_PARTS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(8).default(2),
  /** See EXPORT_COPY_PARTS; 0 splits every such export, from exact quantiles (tests). */
  EXPORT_COPY_SPLIT_ROWS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(20_000),
  /**
   * A download (an export, a report CSV link, an export job's file) whose reader takes nothing for
   * this many seconds is cut off: its socket is closed (docs/decisions/0016).
   */
  EXPORT_WRITE_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(3600).default(30),
  /** Downloads of reports being made or sent at once, at most, per user (429 too_many_exports past it). */
  EXPORTS_PER_USER: z.coerce.number({ error: 'must be a number' }).int().min(1).default(2),
  /** ...per workspace. */
  EXPORTS_PER_WORKSPACE: z.coerce.number({ error: 'must be a number' }).int().min(1).default(4),
  /** ...per API process. */
  EXPORTS_PER_PROCESS: z.coerce.number({ error: 'must be a number' }).int().min(1).default(16),
  /** PostgreSQL: connections in each process's pool. */
  DATABASE_POOL_SIZE: z.coerce.number({ error: 'must be a number' }).int().min(3).max(1000).default(10),
  /**
   * PostgreSQL: how many of the pool's connections exports may hold at once; the rest (at least two)
   * stay for requests and jobs. PGlite has one connection, which exports take in turns.
   */
  DATABASE_HEAVY_CONNECTIONS: z.coerce.number({ error: 'must be a number' }).int().min(1).default(4),
  /** /readyz answers 503 when the database does not answer `select 1` within this many milliseconds. */
  READY_TIMEOUT_MS: z.coerce.number({ error: 'must be a number' }).int().min(10).max(60_000).default(3_000),
  /**
   * Tables are analysed (fresh planner statistics) after a write of at least this many rows: an
   * import, a seed, a rebuild of the rollups. PGlite, where autovacuum does not run, also hourly.
   */
  ANALYZE_AFTER_ROWS: z.coerce.number({ error: 'must be a number' }).int().min(1).default(10_000),
  /** Whether this process runs queued jobs (mail, purges); with false it only enqueues them for others. */
  JOBS_ENABLED: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  /** How often an idle worker looks for due jobs, in milliseconds. */
  JOBS_POLL_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(10, 'must be at least 10')
    .max(600_000, 'must be at most 600000')
    .default(1000),
  /** Which payment gateway moves money (platform/payments): the built-in sandbox, or Stripe (STRIPE_*). */
  PAYMENTS_GATEWAY: z.enum(['sandbox', 'stripe'], { error: 'must be sandbox or stripe' }).default('sandbox'),
  /** Stripe's secret API key; required with PAYMENTS_GATEWAY=stripe, never logged. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe secret key (sk_live_…, sk_test_… or rk_…)')
    .optional(),
  /** Stripe's publishable key, for Stripe.js in the browser; required with PAYMENTS_GATEWAY=stripe. */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe publishable key (pk_live_… or pk_test_…)')
    .optional(),
  /** The signing secret of the webhook endpoint made in Stripe's dashboard; required with PAYMENTS_GATEWAY=stripe. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  /** Another base for Stripe's API (a local mock or recorded-response server), e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE: url(['http', 'https']).optional(),
  /**
   * Signs and checks payment events (HMAC-SHA256). When unset, each process makes its own, which
   * suits the sandbox (it delivers its events to the process that signed them).
   */
  PAYMENTS_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The seller printed on every invoice (README, Settings: Billing). */
  SELLER_NAME: z.string().trim().min(1).max(200).default('Sundial'),
  /** One line, or lines separated by a newline (or the two characters \\n, as env files write it). */
  SELLER_ADDRESS: z.string().trim().min(1).max(500).default('1 Example Street\\nDublin D02 X285'),
  /** ISO 3166-1 alpha-2; decides reverse charge (an EU business in another country) and the VAT id check. */
  SELLER_COUNTRY: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code, like IE or DE' })
    .default('IE'),
  SELLER_VAT_ID: z.string().trim().max(30).optional(),
  SELLER_EMAIL: z.email('must be an e-mail address').optional(),
  /** The start of invoice numbers ("SUN-2026-000123"): letters and digits. */
  SELLER_INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Z0-9]{1,10}$/, 'must be 1 to 10 capital letters or digits')
    .default('SUN'),
  /**
   * Whether this Sundial sells plans. off (self-hosted): every workspace has every feature, no
   * seat limit, no trial, and the billing pages say billing is off.
   */
  BILLING: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  /**
   * Seals secrets kept in the database (client secrets, SCIM tokens, TOTP seeds): 64 hex digits
   * (`openssl rand -hex 32`). When unset, one is made in DATA_DIR/secrets.key on the first start.
   */
  SECRETS_KEY: z
    .string()
    .refine((value) => parseSecretsKey(value) !== undefined, {
      message: 'must be 64 hex digits (openssl rand -hex 32)',
    })
    .optional(),
  /** Earlier SECRETS_KEY values, comma-separated: what they sealed still opens after a key change. */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .refine((value) => value.split(',').every((k) => parseSecretsKey(k) !== undefined), {
      message: 'must be keys of 64 hex digits, separated by commas',
    })
    .optional(),
  /**
   * Social sign-in (OpenID Connect): a JSON list of providers, each
   * {"id","name","issuer","clientId","clientSecret"}, beside the presets below (README, Single sign-on).
   */
  OIDC_PROVIDERS: z.string().optional(),
  OIDC_GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_MICROSOFT_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_MICROSOFT_CLIENT_SECRET: z.string().trim().min(1).optional(),
  /** The Entra ID tenant of the Microsoft preset: a tenant id for work accounts, `consumers` for personal ones. */
  OIDC_MICROSOFT_TENANT: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,100}$/, 'must be a tenant id or domain')
    .default('consumers'),
  /**
   * The DNS servers that look up SSO domain proofs (TXT records): comma-separated `ip`,
   * `ip:port` or `[ipv6]:port`. Unset: the system's resolvers.
   */
  DNS_SERVERS: z
    .string()
    .transform((value) => value.split(',').map((server) => server.trim()))
    .refine((servers) => servers.every(isDnsServer), {
      message: 'must be IP addresses, each optionally with :port (like 1.1.1.1,127.0.0.1:5353,[::1]:53)',
    })
    .optional(),
  /** How long one DNS look-up may take, in milliseconds, before it counts as unanswered. */
  DNS_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(100, 'must be at least 100')
    .max(60_000, 'must be at most 60000')
    .default(5000),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * Whether requests to addresses people give (webhooks, calendar subscriptions) may target
   * loopback, private, link-local and other non-public addresses: off, such a URL is refused
   * (SSRF); on, for a receiver on the operator's own network. Unset: WEBHOOKS_ALLOW_PRIVATE_TARGETS,
   * its older name (issue 34), which still works.
   */
  OUTBOUND_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
});

export type Env = z.infer<typeof envSchema>;

/** The seller of subscriptions, as invoices print it. */
export interface Seller {
  name: string;
  addressLines: string[];
  country: string;
  vatId: string | null;
  email: string;
  invoicePrefix: string;
}

export interface Config extends Env {
  publicUrl: string;
  secureCookies: boolean;
  /** BILLING=on, as the entitlements read it. */
  billing: { billing: boolean };
  /** PAYMENTS_WEBHOOK_SECRET, or one made for this process. */
  paymentsWebhookSecret: string;
  /** SECRETS_KEY and SECRETS_KEY_PREVIOUS, parsed (platform/secrets.ts makes the key when unset). */
  secretsKey: Buffer | undefined;
  secretsKeysPrevious: Buffer[];
  /** The Stripe settings, checked together, with PAYMENTS_GATEWAY=stripe; null otherwise. */
  stripe: StripeSettings | null;
  seller: Seller;
  webDist: string;
  /** OUTBOUND_ALLOW_PRIVATE_TARGETS, else WEBHOOKS_ALLOW_PRIVATE_TARGETS (platform/outbound-http.ts). */
  allowPrivateTargets: boolean;
  /** AGENT_DIST: the desktop agent's bundle this server offers for download (npm run build:agent). */
  agentDist: string;
  /** The social sign-in providers the operator configured (none: the buttons are hidden). */
  socialProviders: SocialProvider[];
}

/** An OpenID provider people may sign up and sign in with (issue 18). */
export interface SocialProvider {
  /** Short and stable: it is in the callback URL and links accounts (`social:<id>`). */
  id: string;
  /** What the button says: "Continue with <name>". */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const socialProviderSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,30}$/, 'must be 1 to 30 lower-case letters, digits or dashes'),
  name: z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters'),
  issuer: url(['https', 'http']),
  clientId: z.string().trim().min(1, 'is required'),
  clientSecret: z.string().trim().min(1, 'is required'),
});

/** OIDC_PROVIDERS and the Google and Microsoft presets, each checked with a line per problem. */
function socialProvidersOf(env: Env): SocialProvider[] {
  const problems: string[] = [];
  const providers: SocialProvider[] = [];
  const preset = (id: string, name: string, issuer: string, clientId?: string, clientSecret?: string) => {
    const prefix = `OIDC_${id.toUpperCase()}`;
    if (!clientId && !clientSecret) return;
    if (!clientId || !clientSecret) {
      problems.push(`  ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET: set both, or neither`);
      return;
    }
    providers.push({ id, name, issuer, clientId, clientSecret });
  };
  preset('google', 'Google', 'https://accounts.google.com', env.OIDC_GOOGLE_CLIENT_ID, env.OIDC_GOOGLE_CLIENT_SECRET);
  preset(
    'microsoft',
    'Microsoft',
    `https://login.microsoftonline.com/${env.OIDC_MICROSOFT_TENANT}/v2.0`,
    env.OIDC_MICROSOFT_CLIENT_ID,
    env.OIDC_MICROSOFT_CLIENT_SECRET,
  );
  if (env.OIDC_PROVIDERS) {
    let json: unknown;
    try {
      json = JSON.parse(env.OIDC_PROVIDERS);
    } catch {
      problems.push('  OIDC_PROVIDERS: must be JSON: a list of {"id","name","issuer","clientId","clientSecret"}');
    }
    if (json !== undefined) {
      const parsed = z.array(socialProviderSchema, { error: 'must be a JSON list' }).safeParse(json);
      if (parsed.success) providers.push(...parsed.data);
      else
        for (const issue of parsed.error.issues)
          problems.push(`  OIDC_PROVIDERS.${issue.path.join('.')}: ${issue.message}`);
    }
  }
  const seen = new Set<string>();
  for (const provider of providers) {
    if (seen.has(provider.id)) problems.push(`  OIDC_PROVIDERS: the id "${provider.id}" is used twice`);
    seen.add(provider.id);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return providers;
}

export class ConfigError extends Error {}

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** From STRIPE_API_BASE; unset for Stripe's own API. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** With PAYMENTS_GATEWAY=stripe, its three keys must all be set (one line each that is missing). */
function stripeOf(env: Env): StripeSettings | null {
  if (env.PAYMENTS_GATEWAY !== 'stripe') return null;
  const {
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_PUBLISHABLE_KEY: publishableKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  } = env;
  if (!secretKey || !publishableKey || !webhookSecret) {
    const missing = (
      [
        ['STRIPE_SECRET_KEY', secretKey],
        ['STRIPE_PUBLISHABLE_KEY', publishableKey],
        ['STRIPE_WEBHOOK_SECRET', webhookSecret],
      ] as const
    ).filter(([, value]) => !value);
    throw new ConfigError(
      `Invalid configuration:\n${missing.map(([name]) => `  ${name}: required with PAYMENTS_GATEWAY=stripe`).join('\n')}`,
    );
  }
  if (secretKey.includes('_live_') !== publishableKey.includes('_live_')) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_PUBLISHABLE_KEY: must be of the same mode (live or test) as STRIPE_SECRET_KEY',
    );
  }
  const settings: StripeSettings = { secretKey, publishableKey, webhookSecret };
  if (env.STRIPE_API_BASE) {
    const base = new URL(env.STRIPE_API_BASE);
    settings.protocol = base.protocol === 'http:' ? 'http' : 'https';
    settings.host = base.hostname;
    settings.port = base.port ? Number(base.port) : settings.protocol === 'http' ? 80 : 443;
  }
  return settings;
}

/** Reads settings from the environment, failing with one line per wrong value. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const seller = sellerOf(env);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    ...env,
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    billing: { billing: env.BILLING === 'on' },
    paymentsWebhookSecret: env.PAYMENTS_WEBHOOK_SECRET ?? randomBytes(32).toString('base64url'),
    secretsKey: env.SECRETS_KEY ? parseSecretsKey(env.SECRETS_KEY) : undefined,
    secretsKeysPrevious: (env.SECRETS_KEY_PREVIOUS?.split(',') ?? []).map((k) => parseSecretsKey(k) as Buffer),
    stripe: stripeOf(env),
    seller,
    webDist: env.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
    agentDist: env.AGENT_DIST ?? path.resolve(import.meta.dirname, '../../../packages/agent/dist/sundial-agent.mjs'),
    socialProviders: socialProvidersOf(env),
    allowPrivateTargets: env.OUTBOUND_ALLOW_PRIVATE_TARGETS
      ? env.OUTBOUND_ALLOW_PRIVATE_TARGETS === 'true'
      : env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
  };
}

/** The seller settings, checked together: an EU seller's VAT id must be one of its country's. */
function sellerOf(env: Env): Seller {
  let vatId = env.SELLER_VAT_ID ?? null;
  if (vatId && isEuCountry(env.SELLER_COUNTRY)) {
    const check = checkVatId(vatId, env.SELLER_COUNTRY);
    if (!check.ok) throw new ConfigError(`Invalid configuration:\n  SELLER_VAT_ID: ${check.message}`);
    vatId = check.vatId;
  }
  const from = env.MAIL_FROM.match(/<([^>]+)>/)?.[1] ?? env.MAIL_FROM;
  return {
    name: env.SELLER_NAME,
    addressLines: env.SELLER_ADDRESS.split(/\\n|\n/)
      .map((line) => line.trim())
      .filter(Boolean),
    country: env.SELLER_COUNTRY,
    vatId,
    email: env.SELLER_EMAIL ?? env.OPERATOR_EMAIL ?? from,
    invoicePrefix: env.SELLER_INVOICE_PREFIX,
  };
}

/** The process's settings: an optional .env in the working folder, then the environment. */
export function loadConfigFromProcess(): Config {
  if (typeof process.loadEnvFile === 'function') {
    try {
      process.loadEnvFile('.env');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return loadConfig(process.env);
}
