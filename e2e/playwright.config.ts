import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { dnsServersSetting } from './support/dns';
import { socialProvidersSetting } from './support/openid';
import { allow, TIME_SCALE } from './support/time';

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://localhost:${PORT}`;

/**
 * Chromium's headless shell (Debian's chromium-headless-shell) when it is installed: the same engine
 * without the full browser's windowing and UI, which Playwright's own downloads use for headless runs.
 * Measured on e2e/mobile.spec.ts, one worker, same load: 51 s of CPU instead of 63 s. CHROMIUM_PATH
 * picks a browser; without the shell the journeys run in the full Chromium.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const browser = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Journeys run in the system Chromium against the production build served by the real server. */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  fullyParallel: false,
  // Two browsers on the one server (journeys sign their own people up). Measured on an otherwise idle
  // 2-core machine, one run each: 107 journeys in 10.9 min with two, 103 in 14.1 min with one, none
  // retried (issue 31). E2E_WORKERS=1 for one at a time.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  // A minute a journey and ten seconds a look on a quiet machine, stretched on CI (support/time.ts): a
  // passing run takes no longer, a journey that truly hangs fails later.
  timeout: allow(60_000),
  expect: { timeout: 10_000 * Math.min(TIME_SCALE, 2) },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: `./.run/${PORT}/results`,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: browser,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  webServer: {
    command: 'node --import tsx e2e/support/serve.ts',
    cwd: '..',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      E2E_PORT: String(PORT),
      PORT: String(PORT),
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      // No readable e-mail blocks on stderr (the journeys read mail from the outbox).
      LOG_JSON_ONLY: 'true',
      // Journeys sign many people up from 127.0.0.1; the limits themselves are tested in the API suite.
      RATE_LIMIT_SIGNUP_PER_IP: '100000',
      RATE_LIMIT_LOGIN_PER_IP: '100000',
      RATE_LIMIT_FORGOT_PER_IP: '100000',
      RATE_LIMIT_FORGOT_PER_EMAIL: '100000',
      RATE_LIMIT_INVITE_RESEND: '100000',
      RATE_LIMIT_DEMO_PER_IP: '100000',
      RATE_LIMIT_DEMO_PER_EMAIL: '100000',
      // A Detailed report over 25 rows exports as a background job (e2e/export-jobs.spec.ts).
      EXPORT_JOB_MIN_ROWS: '25',
      // The social sign-in provider, which e2e/sso.spec.ts runs at PORT + 100 (e2e/support/openid.ts).
      OIDC_PROVIDERS: socialProvidersSetting(PORT),
      // SSO domain proofs look TXT records up at the DNS server e2e/sso.spec.ts runs (e2e/support/dns.ts).
      DNS_SERVERS: dnsServersSetting(PORT),
      // e2e/webhooks.spec.ts delivers to a receiver it runs on 127.0.0.1, which production refuses (SSRF).
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    },
  },
});
