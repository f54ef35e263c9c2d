import { messages } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, sessionCookie, signUp, useTestApp } from '../../../test/harness.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

describe('profile', () => {
  it('needs a session', async () => {
    const response = await call('GET', '/api/v1/me');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: 'unauthenticated', message: messages.signInRequired } });
  });

  it('saves name, time zone, week start, date and time format', async () => {
    const { cookie } = await signUp(ctx.t.app);
    const changes = {
      name: 'Ada Lovelace',
      timeZone: 'Europe/Warsaw',
      weekStart: 'sunday',
      dateFormat: 'DD.MM.YYYY',
      timeFormat: '12h',
    };
    const response = await call('PATCH', '/api/v1/me', cookie, changes);
    expect(response.statusCode).toBe(200);
    expect((await call('GET', '/api/v1/me', cookie)).json().user).toMatchObject(changes);
  });

  it('refuses an unknown time zone with a message', async () => {
    const { cookie } = await signUp(ctx.t.app);
    const response = await call('PATCH', '/api/v1/me', cookie, { timeZone: 'Mars/Olympus' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields.timeZone).toBe('Unknown time zone.');
  });

  it('answers 401 before looking at a bad body', async () => {
    const response = await call('PATCH', '/api/v1/me', undefined, { timeZone: 'Mars/Olympus' });
    expect(response.statusCode).toBe(401);
  });
});

describe('password change', () => {
  it('needs the current password and ends the other sessions but not this one', async () => {
    const { cookie, email } = await signUp(ctx.t.app);
    const other = sessionCookie(
      await call('POST', '/api/v1/auth/login', undefined, { email, password: STRONG_PASSWORD }),
    );

    const wrong = await call('POST', '/api/v1/me/password', cookie, {
      currentPassword: 'nope',
      newPassword: 'Fresh-pass-99',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error.fields.currentPassword).toBe(messages.currentPasswordWrong);

    const ok = await call('POST', '/api/v1/me/password', cookie, {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'Fresh-pass-99',
    });
    expect(ok.statusCode).toBe(204);
    expect((await call('GET', '/api/v1/me', cookie)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/me', other)).statusCode).toBe(401);
  });

  it('limits guesses of the current password like log-in does', async () => {
    const { cookie } = await signUp(ctx.t.app);
    for (let i = 0; i < 10; i++) {
      const wrong = await call('POST', '/api/v1/me/password', cookie, {
        currentPassword: `Guess-${i}-wrong!`,
        newPassword: 'Fresh-pass-99',
      });
      expect(wrong.statusCode).toBe(422);
    }
    const locked = await call('POST', '/api/v1/me/password', cookie, {
      currentPassword: STRONG_PASSWORD,
      newPassword: 'Fresh-pass-99',
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('too_many_attempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);
  });
});
