import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, openTestDb, STRONG_PASSWORD, signUp, uniqueEmail } from '../../test/harness.js';
import { startInbox } from '../../test/smtp.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { MAIL_BLOCK_HEADER } from './mail.js';

/**
 * A real app whose log (JSON lines, at the default info level) and readable e-mail blocks the
 * test reads; `routes` adds test-only routes before it is ready.
 */
async function appWithLog(env: Record<string, string> = {}, routes?: (app: FastifyInstance) => void) {
  const { db, close } = await openTestDb({ migrated: true });
  const stream = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  let raw = '';
  stream.on('data', (chunk) => {
    raw += String(chunk);
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  const printStream = new PassThrough();
  let printed = '';
  printStream.on('data', (chunk) => {
    printed += String(chunk);
  });
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    ...GENEROUS_LIMITS,
    ...env,
  });
  const app = await buildApp({ config, db, logStream: stream, mailPrintStream: printStream });
  routes?.(app);
  await app.ready();
  return {
    app,
    lines,
    raw: () => raw,
    printed: () => printed,
    /** The first log line that passes the test, waiting for it (mail may go out in the background). */
    async waitForLine(test: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      for (let attempt = 0; attempt < 100; attempt++) {
        const found = lines.find(test);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no such log line in:\n${raw}`);
    },
    async close() {
      await app.close();
      await close();
    },
  };
}

const forgot = (app: Awaited<ReturnType<typeof appWithLog>>['app'], email: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/password/forgot', payload: { email } });

describe('e-mail without a mail server', () => {
  it('says so once at start and writes each e-mail with its links to the log, at info level, in production', async () => {
    const t = await appWithLog();
    try {
      const notices = t.lines.filter((l) => l.msg === 'SMTP_URL is not set: e-mails are written to this log');
      expect(notices).toHaveLength(1);
      expect(notices[0]?.level).toBe(30);

      const user = await signUp(t.app);

      // Invitation: the link from the log is a working invitation, not redacted like request URLs.
      const colleague = uniqueEmail('colleague');
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${user.workspaceId}/invites`,
        headers: { cookie: user.cookie },
        payload: { emails: [colleague] },
      });
      const inviteMail = await t.waitForLine((l) => l.to === colleague);
      const inviteLink = (inviteMail.links as string[])[0] ?? '';
      expect(inviteLink).toMatch(/^http:\/\/localhost:3000\/invite\?token=[\w-]+$/);
      const inviteToken = new URL(inviteLink).searchParams.get('token') ?? '';
      const accepted = await t.app.inject({
        method: 'POST',
        url: `/api/v1/invites/${inviteToken}/accept`,
        payload: { password: STRONG_PASSWORD },
      });
      expect(accepted.statusCode).toBe(200);
      expect(String(inviteMail.text)).not.toContain('[redacted]');

      // Password reset (last: it ends the owner's sessions): the link from the log sets a new password.
      expect((await forgot(t.app, user.email)).statusCode).toBe(202);
      const resetMail = await t.waitForLine((l) => l.to === user.email && l.subject === 'Reset your Sundial password');
      expect(resetMail.level).toBe(30);
      expect(resetMail.msg).toContain(user.email);
      const resetLink = (resetMail.links as string[])[0] ?? '';
      expect(resetLink).toMatch(/^http:\/\/localhost:3000\/password\?token=[\w-]+$/);
      expect(resetMail.text).toContain(resetLink);
      const token = new URL(resetLink).searchParams.get('token') ?? '';
      // The same e-mail as a readable block beside the log (which stays one JSON object a line):
      // headed by the line the README greps for, the link on a line of its own.
      const block =
        t
          .printed()
          .split(MAIL_BLOCK_HEADER)
          .find((b) => b.includes('Reset your Sundial password')) ?? '';
      expect(block).toContain(`To:      ${user.email}\nSubject: Reset your Sundial password\n`);
      expect(block.split('\n')).toContain(resetLink);
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password/reset',
        payload: { token, password: 'Another-tide-77' },
      });
      expect(reset.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('never writes an e-mail’s text or links to the log when SMTP_URL is set', async () => {
    const inbox = await startInbox();
    const t = await appWithLog({ SMTP_URL: inbox.url });
    try {
      const user = await signUp(t.app);
      expect((await forgot(t.app, user.email)).statusCode).toBe(202);
      const mail = await inbox.waitFor(user.email);
      const token = /token=([\w-]+)/.exec(mail.text ?? '')?.[1];
      expect(token).toBeTruthy();
      await t.waitForLine((l) => l.msg === 'mail sent' && l.to === user.email);
      expect(t.raw()).not.toContain(token);
      expect(t.raw()).not.toContain('/password?token=');
      expect(t.raw()).not.toContain('e-mails are written to this log');
      expect(t.printed()).toBe('');
    } finally {
      await t.close();
      await inbox.close();
    }
  });
});

describe('the request log', () => {
  it('keeps requests that went well or were refused out of the info log, and logs server errors at error and slow requests at warn', async () => {
    const t = await appWithLog({ LOG_SLOW_REQUEST_MS: '100', LOG_JSON_ONLY: 'true' }, (app) => {
      app.get('/test/boom', async () => {
        throw new Error('boom');
      });
      app.get('/test/slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return { ok: true };
      });
    });
    try {
      const ids: Record<string, string> = {};
      for (const [name, url] of Object.entries({
        ok: '/healthz',
        refused: '/api/v1/me',
        missing: '/api/v1/nothing-here',
        boom: '/test/boom',
        slow: '/test/slow',
      })) {
        ids[name] = String((await t.app.inject(url)).headers['x-request-id']);
      }
      const of = (name: string) => t.lines.filter((l) => l.requestId === ids[name]);
      // Below info: a fast 200, a 401 and a 404 leave nothing at the default level.
      for (const name of ['ok', 'refused', 'missing']) {
        expect(of(name).filter((l) => Number(l.level) <= 30)).toEqual([]);
      }
      const boom = of('boom');
      expect(boom.length).toBeGreaterThan(0);
      expect(boom.every((l) => l.level === 50)).toBe(true);
      expect(boom.some((l) => (l.res as { statusCode: number } | undefined)?.statusCode === 500)).toBe(true);
      const slow = of('slow');
      expect(slow).toHaveLength(1);
      expect(slow[0]).toMatchObject({ level: 40, req: { method: 'GET', url: '/test/slow' }, res: { statusCode: 200 } });
      expect(Number(slow[0]?.responseTime)).toBeGreaterThanOrEqual(100);

      // LOG_JSON_ONLY: an e-mail is in the JSON log only, with no readable block beside it.
      const user = await signUp(t.app);
      await t.waitForLine((l) => l.to === user.email);
      expect(t.printed()).toBe('');
    } finally {
      await t.close();
    }
  });
});
