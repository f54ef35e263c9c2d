import { performance } from 'node:perf_hooks';
import { limitMessages, waitText } from '@sundial/core';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STRONG_PASSWORD, signUp, type TestApp, uniqueEmail } from '../../../test/harness.js';
import { hashSecret } from '../../platform/ids.js';
import { passwordResetMail } from './auth.mails.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    RATE_LIMIT_LOGIN_PER_IP: '8',
    RATE_LIMIT_FORGOT_PER_IP: '8',
    RATE_LIMIT_FORGOT_PER_EMAIL: '5',
  });
});
afterAll(() => t?.close());

let ipCounter = 0;
/** Each test speaks from its own addresses, so the per-IP limits of one do not reach another. */
const newIp = () => `198.51.100.${++ipCounter}`;

const post = (url: string, payload: object, options: { ip?: string; cookie?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: options.ip ?? newIp(),
    headers: options.cookie ? { cookie: options.cookie } : {},
  });
const login = (email: string, password: string, options: { ip?: string; cookie?: string } = {}) =>
  post('/api/v1/auth/login', { email, password }, options);
const forgot = (email: string, ip: string) => post('/api/v1/auth/password/forgot', { email }, { ip });

/** Waits for the work queued after answers (the reset e-mails). */
const settle = () => t.app.services.background.drain();

/** The reset e-mails sent to an address (a sign-up's confirmation link aside). */
const mailsTo = async (email: string) =>
  t.db
    .selectFrom('outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .where('subject', '=', passwordResetMail('').subject)
    .execute();

/** The known-device cookie a log-in set, ready for a `cookie` header. */
function deviceCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'sundial_device');
  if (!cookie) throw new Error(`no device cookie in response ${response.statusCode}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Moves an account's recorded failures into the past, as if that much time had gone by. */
async function age(email: string, seconds: number): Promise<void> {
  await t.db
    .updateTable('login_attempts')
    .set({ created_at: sql<Date>`created_at - make_interval(secs => ${seconds}::int)` })
    .where('email', '=', email)
    .execute();
}

/** Checks a refusal: 429, the code, Retry-After in seconds and a message saying that wait in words. */
function expectRefused(response: LightMyRequestResponse, code: string, message: (wait: string) => string, max: number) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(max);
  expect(response.json().error.code).toBe(code);
  // The message says the same wait as the header, in words.
  expect(response.json().error.message).toBe(message(waitText(retryAfter)));
  return retryAfter;
}

describe('sign-up limit', () => {
  it('refuses sign-ups past the limit from one address with 429 and creates nobody, while another address signs up', async () => {
    // Its own app: every other test here signs its users up from 127.0.0.1.
    const small = await createTestApp({ RATE_LIMIT_SIGNUP_PER_IP: '3' });
    try {
      const signup = (email: string, ip: string) =>
        small.app.inject({
          method: 'POST',
          url: '/api/v1/auth/signup',
          payload: { email, password: STRONG_PASSWORD },
          remoteAddress: ip,
        });
      const ip = newIp();
      for (let i = 0; i < 3; i++) expect((await signup(uniqueEmail('many'), ip)).statusCode).toBe(201);
      const email = uniqueEmail('fourth');
      const refused = await signup(email, ip);
      expectRefused(refused, 'too_many_requests', limitMessages.signupPerIp, 3600);
      expect(refused.json().error.message).toMatch(/^Too many sign-ups from your network\. Please try again in /);
      const user = await small.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      expect(user).toBeUndefined();

      expect((await signup(email, newIp())).statusCode).toBe(201);
    } finally {
      await small.close();
    }
  });
});

describe('forgotten password', () => {
  it('e-mails a known address once and an unknown one never, with the same answer', async () => {
    const { email } = await signUp(t.app);
    const ghost = uniqueEmail('ghost');
    const known = await forgot(email, newIp());
    const unknown = await forgot(ghost, newIp());
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    await settle();
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await mailsTo(ghost)).toHaveLength(0);
  });

  it('refuses the sixth request for one e-mail in an hour, account or not, and sends no more mail', async () => {
    const { email } = await signUp(t.app);
    const ghost = uniqueEmail('ghost');
    for (const address of [email, ghost]) {
      for (let i = 0; i < 5; i++) expect((await forgot(address, newIp())).statusCode).toBe(202);
    }
    const refusedKnown = await forgot(email, newIp());
    const refusedGhost = await forgot(ghost, newIp());
    expectRefused(refusedKnown, 'too_many_requests', limitMessages.forgotPerEmail, 3600);
    expectRefused(refusedGhost, 'too_many_requests', limitMessages.forgotPerEmail, 3600);
    // The same answer whether or not the account exists: the refusal tells nothing either.
    expect(refusedKnown.json()).toEqual(refusedGhost.json());
    await settle();
    expect(await mailsTo(email)).toHaveLength(5);
    expect(await mailsTo(ghost)).toHaveLength(0);
    // The limit holds no address in clear.
    const buckets = await t.db.selectFrom('rate_limit_hits').select('bucket').execute();
    expect(buckets.some((b) => b.bucket.includes(email) || b.bucket.includes(ghost))).toBe(false);
  });

  it('refuses requests past the limit from one address, whatever the e-mails, and not from another', async () => {
    const ip = newIp();
    for (let i = 0; i < 8; i++) expect((await forgot(uniqueEmail('bomb'), ip)).statusCode).toBe(202);
    const victim = await signUp(t.app);
    const refused = await forgot(victim.email, ip);
    expectRefused(refused, 'too_many_requests', limitMessages.forgotPerIp, 3600);
    await settle();
    expect(await mailsTo(victim.email)).toHaveLength(0);
    expect((await forgot(victim.email, newIp())).statusCode).toBe(202);
    await settle();
    expect(await mailsTo(victim.email)).toHaveLength(1);
  });

  it('answers in the same time whether or not the account exists', async () => {
    // Its own app with the default generous limits: 3 rounds of 2 x 41 requests from one address.
    const timed = await createTestApp();
    try {
      const known: string[] = [];
      for (let i = 0; i < 46; i++) known.push((await signUp(timed.app)).email);
      const warmUp = known.splice(41);
      // Unknown addresses are reused across rounds like the known ones, so both sides find their
      // per-e-mail counter new in the first round and existing in the next.
      const unknownPool = known.map(() => uniqueEmail('nobody'));
      const measure = async (email: string) => {
        const start = performance.now();
        const response = await timed.app.inject({
          method: 'POST',
          url: '/api/v1/auth/password/forgot',
          payload: { email },
        });
        const ms = performance.now() - start;
        expect(response.statusCode).toBe(202);
        // The work queued after the answer is waited for, not timed.
        await timed.app.services.background.drain();
        await timed.app.services.mailer.flush();
        return ms;
      };
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      for (const [i, email] of warmUp.entries()) {
        await measure(email);
        await measure(uniqueEmail(`warm-up-${i}`));
      }

      const ratios: number[] = [];
      for (let round = 0; round < 3; round++) {
        // Each existing-account request is paired with the unknown one next to it, and the median
        // of the pairs' ratios compared: a burst of load elsewhere slows both of a pair alike.
        const pairRatios: number[] = [];
        for (const [i, email] of known.entries()) {
          // Alternating which goes first, so neither side always follows the other's background work.
          let existing: number;
          let unknown: number;
          if (i % 2) {
            existing = await measure(email);
            unknown = await measure(unknownPool[i] ?? '');
          } else {
            unknown = await measure(unknownPool[i] ?? '');
            existing = await measure(email);
          }
          pairRatios.push(existing / unknown);
        }
        const ratio = median(pairRatios);
        ratios.push(Math.max(ratio, 1 / ratio));
        if ((ratios.at(-1) ?? 2) <= 1.1) break;
      }
      // The machine is noisy: one round of three within 10% passes; a systematic difference fails all three.
      expect(Math.min(...ratios)).toBeLessThanOrEqual(1.1);
      const mails = await timed.db.selectFrom('outbox').select('to_address').execute();
      expect(mails.some((m) => unknownPool.includes(m.to_address))).toBe(false);
    } finally {
      await timed.close();
    }
  }, 120_000);
});

describe('log-in throttling', () => {
  it('slows guesses on an account with delays that double, and checks no password while one runs', async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 5; i++) expect((await login(email, `Wrong-${i}-pass!`)).statusCode).toBe(401);

    const sixth = await login(email, STRONG_PASSWORD);
    expect(expectRefused(sixth, 'too_many_attempts', limitMessages.loginDelayed, 1)).toBe(1);
    expect(sixth.json().error.message).toBe(limitMessages.loginDelayed('1 second'));

    await age(email, 2);
    expect((await login(email, 'Wrong-6-pass!')).statusCode).toBe(401);
    const seventh = await login(email, STRONG_PASSWORD);
    expect(seventh.headers['retry-after']).toBe('2');
    await age(email, 3);
    expect((await login(email, 'Wrong-7-pass!')).statusCode).toBe(401);
    expect((await login(email, STRONG_PASSWORD)).headers['retry-after']).toBe('4');

    // Every guess whose password was checked is recorded; the refused ones are not guesses.
    const attempts = await t.db.selectFrom('login_attempts').select('success').where('email', '=', email).execute();
    expect(attempts).toHaveLength(7);
    expect(attempts.every((a) => !a.success)).toBe(true);

    await age(email, 5);
    expect((await login(email, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('caps the delay at 15 minutes and treats an unknown address the same way', async () => {
    const ghost = uniqueEmail('ghost');
    await t.db
      .insertInto('login_attempts')
      .values(Array.from({ length: 30 }, () => ({ email: ghost, ip: '192.0.2.1', success: false })))
      .execute();
    const refused = await login(ghost, 'Any-guess-1!');
    expect(refused.headers['retry-after']).toBe('900');
    expect(refused.json().error.message).toBe(limitMessages.loginDelayed('15 minutes'));
  });

  it('lets the owner sign in from a browser that signed in before while an attacker has the account delayed', async () => {
    const owner = await signUp(t.app);
    const first = await login(owner.email, STRONG_PASSWORD);
    expect(first.statusCode).toBe(200);
    const cookie = first.cookies.find((c) => c.name === 'sundial_device');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const days = ((cookie?.expires?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(179);
    const device = deviceCookie(first);
    // Only its hash is stored.
    const stored = await t.db
      .selectFrom('known_devices')
      .select('token_hash')
      .where('user_id', '=', owner.userId)
      .execute();
    expect(stored).toEqual([{ token_hash: hashSecret(cookie?.value ?? '') }]);

    const attacker = newIp();
    for (let i = 0; i < 5; i++) await login(owner.email, `Guess-${i}-pass!`, { ip: attacker });
    // Seven more of the attacker's failures a moment ago: the account now waits two minutes, so
    // the checks below hold however slowly a busy machine runs them.
    await t.db
      .insertInto('login_attempts')
      .values(Array.from({ length: 7 }, () => ({ email: owner.email, ip: attacker, success: false })))
      .execute();
    expect((await login(owner.email, STRONG_PASSWORD, { ip: attacker })).statusCode).toBe(429);
    expect((await login(owner.email, STRONG_PASSWORD)).statusCode).toBe(429);

    const fromDevice = await login(owner.email, STRONG_PASSWORD, { cookie: device });
    expect(fromDevice.statusCode).toBe(200);
    expect(deviceCookie(fromDevice)).toBe(device);
    // A typo from the known browser is a plain wrong password, not a wait.
    expect((await login(owner.email, 'Typo-in-it-1!', { cookie: device })).statusCode).toBe(401);
    expect((await login(owner.email, STRONG_PASSWORD, { cookie: device })).statusCode).toBe(200);
    // The attacker is still slowed down.
    expect((await login(owner.email, 'Guess-9-pass!', { ip: attacker })).statusCode).toBe(429);

    // Another account's device token does not skip this account's delay.
    const other = await signUp(t.app);
    const otherDevice = deviceCookie(await login(other.email, STRONG_PASSWORD));
    expect((await login(owner.email, STRONG_PASSWORD, { cookie: otherDevice })).statusCode).toBe(429);
  });

  it('stops trusting a known browser after ten wrong passwords in a row from it', async () => {
    const owner = await signUp(t.app);
    const device = deviceCookie(await login(owner.email, STRONG_PASSWORD));
    for (let i = 0; i < 10; i++) {
      expect((await login(owner.email, `Stolen-${i}-laptop!`, { cookie: device })).statusCode).toBe(401);
    }
    // Now it goes through the account's throttle like any browser (its failures were its own).
    for (let i = 0; i < 5; i++) {
      expect((await login(owner.email, `Stolen-${i + 10}-laptop!`, { cookie: device })).statusCode).toBe(401);
    }
    expect((await login(owner.email, STRONG_PASSWORD, { cookie: device })).statusCode).toBe(429);
  });

  it('lets the owner sign in at once after completing a password reset', async () => {
    const owner = await signUp(t.app);
    const attacker = newIp();
    for (let i = 0; i < 6; i++) await login(owner.email, `Guess-${i}-pass!`, { ip: attacker });
    expect((await login(owner.email, STRONG_PASSWORD)).statusCode).toBe(429);

    expect((await forgot(owner.email, newIp())).statusCode).toBe(202);
    await settle();
    const [mail] = await mailsTo(owner.email);
    const token = /\/password\?token=([\w-]+)/.exec(mail?.text_body ?? '')?.[1] ?? '';
    const reset = await post('/api/v1/auth/password/reset', { token, password: 'Brand-new-pass-7' });
    expect(reset.statusCode).toBe(200);
    expect((await login(owner.email, 'Brand-new-pass-7')).statusCode).toBe(200);
  });

  it('refuses failures past the limit from one address, whatever the accounts, and not from another', async () => {
    const ip = newIp();
    const user = await signUp(t.app);
    // A successful log-in is not a failure.
    for (let i = 0; i < 10; i++) expect((await login(user.email, STRONG_PASSWORD, { ip })).statusCode).toBe(200);
    for (let i = 0; i < 8; i++) {
      expect((await login(uniqueEmail('spray'), 'Sprayed-pass-1!', { ip })).statusCode).toBe(401);
    }
    const refused = await login(user.email, STRONG_PASSWORD, { ip });
    expectRefused(refused, 'too_many_attempts', limitMessages.loginPerIp, 900);
    expect((await login(user.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('does not let a batch of parallel guesses past the delay', async () => {
    const { email } = await signUp(t.app);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(email, `Parallel-${i}-guess!`)));
    const checked = answers.filter((r) => r.statusCode === 401).length;
    expect(checked + answers.filter((r) => r.statusCode === 429).length).toBe(12);
    expect(checked).toBeLessThanOrEqual(5);
    const failures = await t.db.selectFrom('login_attempts').select('id').where('email', '=', email).execute();
    expect(failures).toHaveLength(checked);
  });

  it('limits wrong current passwords when changing it per user, without delaying log-in', async () => {
    const user = await signUp(t.app);
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/me/password',
        headers: { cookie: user.cookie },
        payload: { currentPassword, newPassword: 'Fresh-pass-99' },
      });
    for (let i = 0; i < 10; i++) expect((await change(`Guess-${i}-wrong!`)).statusCode).toBe(422);
    const refused = await change(STRONG_PASSWORD);
    expectRefused(refused, 'too_many_attempts', limitMessages.passwordChange, 900);
    expect((await login(user.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });
});
