import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STRONG_PASSWORD, signUp, type TestApp } from '../../test/harness.js';
import { HSTS, htmlPolicy, inlineScripts, RESOURCE_POLICY } from './security-headers.js';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const APP_SCRIPT = "window.__boot = 'app';";
const SITE_SCRIPT = "document.documentElement.classList.add('js')";
// The build leaves this token where the address goes; the page is hashed as it is served.
const ORIGIN_SCRIPT = "console.log('__SUNDIAL_ORIGIN__/pricing')";
const page = (head: string) => `<!doctype html><html><head>${head}</head><body><main>Page</main></body></html>`;

/** A web build in miniature: the SPA shell, three public pages (one with analytics) and a 404. */
function writeWebDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-csp-'));
  fs.mkdirSync(path.join(dist, 'site', 'blog'), { recursive: true });
  const files: Record<string, string> = {
    'index.html': page(`<script>${APP_SCRIPT}</script><script type="module" src="/assets/app.js"></script>`),
    'site/index.html': page(
      `<meta name="sundial-analytics" content="https://stats.example.net/script.js?site=1&amp;x=2"/><script>${SITE_SCRIPT}</script>`,
    ),
    'site/pricing.html': page(`<script>${ORIGIN_SCRIPT}</script><script type="application/ld+json">{"a":1}</script>`),
    'site/blog/first-post.html': page(`<script>${SITE_SCRIPT}</script>`),
    'site/404.html': page(`<script>${SITE_SCRIPT}</script>`),
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dist, name), text);
  return dist;
}

describe('the Content-Security-Policy', () => {
  let dist: string;
  let t: TestApp;
  beforeAll(async () => {
    dist = writeWebDist();
    t = await createTestApp({ PUBLIC_URL: 'http://localhost:3000', WEB_DIST: dist });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('lets every HTML page run exactly the inline scripts the served pages hold, by hash', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/pricing', 200],
      ['/blog/first-post', 200],
      ['/blog/no-such-post', 404],
      ['/homepage/timesheet', 200],
      ['/api/docs', 200],
      ['/dev/mail', 200],
    ] as const) {
      const response = await t.app.inject(url);
      expect({ url, status: response.statusCode }).toEqual({ url, status });
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      const policy = String(response.headers['content-security-policy']);
      const scriptSrc = policy.split('; ').find((directive) => directive.startsWith('script-src '));
      expect(scriptSrc, url).toBe(
        [
          "script-src 'self'",
          ...[sha(APP_SCRIPT), sha(SITE_SCRIPT), sha("console.log('http://localhost:3000/pricing')")].sort(),
          'https://stats.example.net',
        ].join(' '),
      );
      expect(policy, url).toContain("default-src 'self'");
      expect(policy, url).toContain("object-src 'none'");
      expect(policy, url).toContain("frame-ancestors 'none'");
      expect(policy, url).toContain("connect-src 'self' https://stats.example.net");
      expect(policy, url).not.toContain("'unsafe-eval'");
      expect(policy, url).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
  });

  it('lets JSON, files and errors load nothing and be framed by nobody', async () => {
    for (const url of ['/api/v1/me', '/healthz', '/api/docs/json', '/api/v1/no-such-route']) {
      const response = await t.app.inject(url);
      expect(response.headers['content-security-policy'], url).toBe(RESOURCE_POLICY);
    }
  });

  it('keeps the headers against sniffing, framing and leaking the Referer, and sends no HSTS over http', async () => {
    for (const url of ['/', '/api/v1/me']) {
      const response = await t.app.inject(url);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('same-origin');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });
});

describe('responses holding personal or secret data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('are never stored by the browser or a cache: the profile, sessions, sign-in, 2FA seeds, SCIM tokens, invite links', async () => {
    const owner = await signUp(t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { cookie: owner.cookie } });
    const invited = await as('POST', `${ws}/invites`, { emails: [`invited.${Date.now()}@example.com`] });
    expect(invited.statusCode, invited.body).toBeLessThan(300);
    const invite = (await as('GET', `${ws}/invites`)).json().items[0];
    const answers = {
      me: await as('GET', '/api/v1/me'),
      sessions: await as('GET', '/api/v1/me/sessions'),
      signIn: await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: owner.email, password: STRONG_PASSWORD },
      }),
      twoFactorSetup: await as('POST', '/api/v1/me/two-factor/setup'),
      scimToken: await as('POST', `${ws}/scim-token`),
      inviteLink: await as('POST', `${ws}/invites/${invite.id}/link`),
      error: await as('GET', '/api/v1/no-such-route'),
    };
    for (const [what, response] of Object.entries(answers)) {
      if (what !== 'error') expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(300);
      expect(response.headers['cache-control'], what).toBe('no-store');
    }
  });

  it('the live updates stream carries the same protections as every other response', async () => {
    const owner = await signUp(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const controller = new AbortController();
    try {
      const response = await fetch(
        `http://127.0.0.1:${port}/api/v1/workspaces/${owner.workspaceId}/time-entries/events`,
        { headers: { cookie: owner.cookie }, signal: controller.signal },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('content-security-policy')).toBe(RESOURCE_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('cache-control')).toMatch(/^no-store\b/);
    } finally {
      controller.abort();
    }
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent on every response when the public address is https', async () => {
    const t = await createTestApp({ PUBLIC_URL: 'https://sundial.example.com' });
    try {
      for (const url of ['/healthz', '/api/v1/me']) {
        expect((await t.app.inject(url)).headers['strict-transport-security'], url).toBe(HSTS);
      }
    } finally {
      await t.close();
    }
  });
});

describe('htmlPolicy', () => {
  it('allows no inline script and no other origin when the pages hold none', () => {
    expect(htmlPolicy({ documents: [page('<script src="/a.js"></script>')], publicUrl: 'http://localhost:3000' })).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
        "frame-ancestors 'none'",
    );
  });

  it('lets Stripe.js load, frame its card fields and 3-D Secure, and call its API only with the Stripe gateway', () => {
    const documents = [page('<script src="/a.js"></script>')];
    const policy = htmlPolicy({ documents, publicUrl: 'https://sundial.example.com', stripe: true });
    expect(policy).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com;");
    expect(policy).toContain(
      "frame-src 'self' https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;",
    );
    expect(policy).toContain("connect-src 'self' https://api.stripe.com;");
    expect(htmlPolicy({ documents, publicUrl: 'https://sundial.example.com' })).not.toContain('stripe');
  });

  it('does not list an analytics script served from the site itself as another origin', () => {
    const documents = [page('<meta name="sundial-analytics" content="/stats.js"/>')];
    expect(htmlPolicy({ documents, publicUrl: 'https://sundial.example.com' })).toContain("connect-src 'self';");
  });

  it('counts only scripts a browser runs inline', () => {
    const html =
      '<script>a()</script><script type="module">b()</script><script src="/c.js"></script>' +
      '<script type="application/ld+json">{}</script><SCRIPT type="text/javascript">d()</SCRIPT >';
    expect(inlineScripts(html)).toEqual(['a()', 'b()', 'd()']);
  });
});
