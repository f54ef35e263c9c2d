import { limitMessages, messages, waitText } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { auditTrail, mailedToken, signUp, useTestApp } from '../../../test/harness.js';

/** Issue 29 (docs/decisions/0014): a sign-up's address is confirmed by a single-use, expiring link. */
const ctx = useTestApp();

const verify = (token: string) => ctx.call('POST', '/api/v1/auth/email/verify', undefined, { token });
const emailVerified = async (cookie: string) => (await ctx.call('GET', '/api/v1/me', cookie)).json().user.emailVerified;
const mailsTo = (email: string) =>
  ctx.t.db.selectFrom('outbox').select(['subject', 'text_body']).where('to_address', '=', email).execute();

describe('confirming the address of a sign-up', () => {
  it('mails a link on sign-up that confirms the address once', async () => {
    const user = await signUp(ctx.t.app);
    expect(await emailVerified(user.cookie)).toBe(false);
    const [mail] = await mailsTo(user.email);
    expect(mail?.subject).toBe('Confirm your e-mail address for Sundial');
    expect(mail?.text_body).toContain('http://localhost:3000/verify-email?token=');
    const token = await mailedToken(ctx.t.db, user.email, 'verify-email');
    // Only the token's hash is kept.
    const stored = await ctx.t.db.selectFrom('email_verifications').select('token_hash').execute();
    expect(JSON.stringify(stored)).not.toContain(token);

    const done = await verify(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().message).toBe(messages.emailVerified);
    expect(await emailVerified(user.cookie)).toBe(true);
    expect(await auditTrail(ctx.t.db, { actorUserId: user.userId, action: 'user.email_verified' })).toHaveLength(1);

    const again = await verify(token);
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatchObject({ code: 'verify_link_used', message: messages.verifyLinkUsed });
  });

  it('refuses an expired link and an unknown one, and leaves the address unconfirmed', async () => {
    const user = await signUp(ctx.t.app);
    const token = await mailedToken(ctx.t.db, user.email, 'verify-email');
    await ctx.t.db
      .updateTable('email_verifications')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.userId)
      .execute();
    const expired = await verify(token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.code).toBe('verify_link_expired');
    const unknown = await verify('not-a-real-token-at-all');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(messages.verifyLinkInvalid);
    expect(await emailVerified(user.cookie)).toBe(false);
  });

  it('lets the link live for 24 hours', async () => {
    const user = await signUp(ctx.t.app);
    const row = await ctx.t.db
      .selectFrom('email_verifications')
      .select(['created_at', 'expires_at'])
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    const hours = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThan(24.1);
  });
});

describe('"Send again"', () => {
  it('mails a new link a few times an hour, then refuses with the wait', async () => {
    const user = await signUp(ctx.t.app);
    for (let i = 0; i < 5; i++) {
      const sent = await ctx.call('POST', '/api/v1/me/email/verification', user.cookie);
      expect(sent.statusCode, sent.body).toBe(202);
      expect(sent.json().message).toBe(messages.verificationSent);
    }
    const refused = await ctx.call('POST', '/api/v1/me/email/verification', user.cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(
      limitMessages.verifyEmail(waitText(Number(refused.headers['retry-after']))),
    );
    expect(await mailsTo(user.email)).toHaveLength(6);
    // Any of the links confirms the address; the others are used up with it.
    expect((await verify(await mailedToken(ctx.t.db, user.email, 'verify-email'))).statusCode).toBe(200);
    const unused = await ctx.t.db
      .selectFrom('email_verifications')
      .select('token_hash')
      .where('user_id', '=', user.userId)
      .where('used_at', 'is', null)
      .execute();
    expect(unused).toEqual([]);
  });

  it('sends nothing once the address is confirmed, and nothing to nobody', async () => {
    const user = await signUp(ctx.t.app);
    await verify(await mailedToken(ctx.t.db, user.email, 'verify-email'));
    const sent = await ctx.call('POST', '/api/v1/me/email/verification', user.cookie);
    expect(sent.statusCode).toBe(202);
    expect(await mailsTo(user.email)).toHaveLength(1);
    expect((await ctx.call('POST', '/api/v1/me/email/verification')).statusCode).toBe(401);
  });
});

describe('a completed password reset', () => {
  it('confirms the address, since its link reached the mailbox', async () => {
    const user = await signUp(ctx.t.app);
    await ctx.call('POST', '/api/v1/auth/password/forgot', undefined, { email: user.email });
    await ctx.t.app.services.background.drain();
    const token = await mailedToken(ctx.t.db, user.email, 'password');
    const reset = await ctx.call('POST', '/api/v1/auth/password/reset', undefined, {
      token,
      password: 'Brand-new-pass-7',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const login = await ctx.call('POST', '/api/v1/auth/login', undefined, {
      email: user.email,
      password: 'Brand-new-pass-7',
    });
    expect(login.json().user.emailVerified).toBe(true);
  });
});
