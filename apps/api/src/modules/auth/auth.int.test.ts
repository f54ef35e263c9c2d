import { limitMessages, messages } from '@sundial/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  type TestApp,
  uniqueEmail,
} from '../../../test/harness.js';
import { type Inbox, startInbox } from '../../../test/smtp.js';

let t: TestApp;
let inbox: Inbox;

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url });
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } });

describe('sign-up', () => {
  it('creates the user, a workspace they own with a 14-day Pro trial, and signs them in', async () => {
    const email = uniqueEmail('New.Person');
    const response = await post('/api/v1/auth/signup', { email, password: STRONG_PASSWORD, phone: '0123456789' });
    expect(response.statusCode).toBe(201);
    expect(response.json().user).toMatchObject({ email: email.toLowerCase(), phone: '0123456789' });
    expect(response.json().user).not.toHaveProperty('password_hash');
    const cookie = response.cookies.find((c) => c.name === 'sundial_sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const body = (await me(sessionCookie(response))).json();
    expect(body.workspaces).toHaveLength(1);
    expect(body.workspaces[0]).toMatchObject({ role: 'owner', plan: 'pro', purchasedPlan: 'free', trialDaysLeft: 14 });
    expect(body.currentWorkspaceId).toBe(body.workspaces[0].id);
    // No name asked at sign-up: the e-mail's local part stands for it until the welcome screen.
    const localPart = email.toLowerCase().split('@')[0];
    expect(body.user.name).toBe(localPart);
    expect(body.workspaces[0].name).toBe(`${localPart}'s workspace`);
  });

  it('accepts any valid e-mail domain, not only one provider', async () => {
    const response = await post('/api/v1/auth/signup', {
      email: uniqueEmail().replace('example.com', 'sundial.dev'),
      password: STRONG_PASSWORD,
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses an address that already has an account, whatever its case', async () => {
    const { email } = await signUp(t.app);
    const response = await post('/api/v1/auth/signup', { email: email.toUpperCase(), password: STRONG_PASSWORD });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'email_taken', message: messages.emailTaken });
  });

  it.each([
    [{ email: '', password: '' }, 'email', messages.allFieldsRequired],
    [{ email: 'not-an-address', password: STRONG_PASSWORD }, 'email', messages.invalidEmail],
    [{ email: uniqueEmail(), password: 'short1!' }, 'password', messages.passwordRule],
    [{ email: uniqueEmail(), password: 'nodigits-here!' }, 'password', messages.passwordRule],
    [{ email: uniqueEmail(), password: 'nosymbol12345' }, 'password', messages.passwordRule],
    [{ email: uniqueEmail(), password: 'P@ssword123' }, 'password', messages.passwordCommon],
    [{ email: uniqueEmail(), password: STRONG_PASSWORD, phone: '01234567890' }, 'phone', messages.phoneInvalid],
  ])('answers 422 with a message for %j', async (payload, field, message) => {
    const response = await post('/api/v1/auth/signup', payload);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('validation_failed');
    expect(response.json().error.fields[field]).toBe(message);
  });

  it('writes nothing when the input is refused', async () => {
    const email = uniqueEmail('refused');
    await post('/api/v1/auth/signup', { email, password: 'weak' });
    const row = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('log-in and log-out', () => {
  it('signs in with the right password and out again, ending the session on the server', async () => {
    const { email } = await signUp(t.app);
    const login = await post('/api/v1/auth/login', { email, password: STRONG_PASSWORD });
    expect(login.statusCode).toBe(200);
    const cookie = sessionCookie(login);
    expect((await me(cookie)).statusCode).toBe(200);

    const logout = await post('/api/v1/auth/logout', {}, cookie);
    expect(logout.statusCode).toBe(204);
    const after = await me(cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('unauthenticated');
  });

  it('gives the same answer for a wrong password and an unknown account', async () => {
    const { email } = await signUp(t.app);
    const wrongPassword = await post('/api/v1/auth/login', { email, password: 'Wrong-password-1' });
    const unknown = await post('/api/v1/auth/login', { email: uniqueEmail('nobody'), password: 'Wrong-password-1' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(unknown.json());
    expect(wrongPassword.json().error.message).toBe(messages.wrongCredentials);
  });

  it('slows an account down after five failures instead of locking it, and records every attempt', async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 5; i++) {
      expect((await post('/api/v1/auth/login', { email, password: `Wrong-${i}-pass!` })).statusCode).toBe(401);
    }
    const delayed = await post('/api/v1/auth/login', { email, password: STRONG_PASSWORD });
    expect(delayed.statusCode).toBe(429);
    expect(delayed.headers['retry-after']).toBe('1');
    expect(delayed.json().error).toMatchObject({
      code: 'too_many_attempts',
      message: limitMessages.loginDelayed('1 second'),
    });
    const attempts = await t.db.selectFrom('login_attempts').select('success').where('email', '=', email).execute();
    expect(attempts.filter((a) => !a.success)).toHaveLength(5);
  });

  it('keeps a remembered session for 30 days', async () => {
    const { email } = await signUp(t.app);
    const login = await post('/api/v1/auth/login', { email, password: STRONG_PASSWORD, remember: true });
    const cookie = login.cookies.find((c) => c.name === 'sundial_sid');
    const days = ((cookie?.expires?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('ends a session that stayed idle past the limit', async () => {
    const { cookie, userId } = await signUp(t.app);
    await t.db
      .updateTable('sessions')
      .set({ idle_expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .execute();
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe('password reset', () => {
  const resetLink = async (email: string) => {
    // The reset link is made and mailed after the answer.
    await t.app.services.background.drain();
    const mail = await inbox.waitFor(email);
    const match = /\/password\?token=([\w-]+)/.exec(mail.text ?? '');
    if (!match?.[1]) throw new Error(`no link in ${mail.text}`);
    return { token: match[1], mail };
  };

  it('e-mails a single-use link that sets a new password and ends every session', async () => {
    const { email, cookie } = await signUp(t.app);
    const forgot = await post('/api/v1/auth/password/forgot', { email });
    expect(forgot.statusCode).toBe(202);
    expect(forgot.json().message).toBe(messages.resetSent);

    const { token, mail } = await resetLink(email);
    expect(mail.subject).toBe('Reset your Sundial password');
    expect(mail.text).toContain('http://localhost:3000/password?token=');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/password/reset/${token}` })).json()).toEqual({
      valid: true,
    });

    const reset = await post('/api/v1/auth/password/reset', { token, password: 'Brand-new-pass-7' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe(messages.passwordUpdated);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: STRONG_PASSWORD })).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: 'Brand-new-pass-7' })).statusCode).toBe(200);

    const again = await post('/api/v1/auth/password/reset', { token, password: 'Another-pass-8' });
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatchObject({ code: 'reset_link_used', message: messages.resetLinkUsed });
  });

  it('gives the same answer for an unknown address and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    const forgot = await post('/api/v1/auth/password/forgot', { email });
    expect(forgot.statusCode).toBe(202);
    expect(forgot.json().message).toBe(messages.resetSent);
    // The lookup and the mail happen after the answer: wait for that work before looking.
    await t.app.services.background.drain();
    const kept = await t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute();
    expect(kept).toHaveLength(0);
    await expect(inbox.waitFor(email, 300)).rejects.toThrow(/no mail/);
  });

  it('refuses an expired link and an unknown one', async () => {
    const { email, userId } = await signUp(t.app);
    await post('/api/v1/auth/password/forgot', { email });
    const { token } = await resetLink(email);
    await t.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .execute();
    const expired = await post('/api/v1/auth/password/reset', { token, password: 'Brand-new-pass-7' });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.code).toBe('reset_link_expired');

    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/auth/password/reset/not-a-real-token-at-all' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(messages.resetLinkInvalid);
  });

  it('keeps the old password when the new one breaks the rule, and the link stays usable', async () => {
    const { email } = await signUp(t.app);
    await post('/api/v1/auth/password/forgot', { email });
    const { token } = await resetLink(email);
    const weak = await post('/api/v1/auth/password/reset', { token, password: 'weakpass' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error.fields.password).toBe(messages.passwordRule);
    expect((await post('/api/v1/auth/login', { email, password: STRONG_PASSWORD })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/auth/password/reset/${token}` })).statusCode).toBe(200);
  });
});
