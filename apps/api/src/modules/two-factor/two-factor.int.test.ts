import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  type SignedUp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  type TestApp,
} from '../../../test/harness.js';
import { type Inbox, startInbox } from '../../../test/smtp.js';
import { membersRepository } from '../members/members.repository.js';
import { CODE_FAILURES_ALLOWED, SIGN_IN_CODE_FAILURES_PER_ACCOUNT } from './two-factor.service.js';

/**
 * Two-factor authentication against the real app, database and SMTP, on a clock the test moves:
 * codes are made with otplib at the test's time, as an authenticator app would.
 */
let t: TestApp;
let inbox: Inbox;
let clock = new Date();
const STEP = 30_000;
const tick = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url }, { now: () => clock });
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: cookie ? { cookie } : {} });
/** The code an app shows `offsetSteps` steps from the test's now. */
const codeAt = (secret: string, offsetSteps = 0) =>
  generate({ secret, epoch: Math.floor((clock.getTime() + offsetSteps * STEP) / 1000) });
const secretOf = (otpauthUrl: string) => new URL(otpauthUrl).searchParams.get('secret') ?? '';

/** Signs up and turns 2FA on; the clock then moves a step, so the enrolment's code is spent. */
async function enrolled(): Promise<SignedUp & { secret: string; recoveryCodes: string[] }> {
  const user = await signUp(t.app);
  const setup = await call('POST', '/me/two-factor/setup', user.cookie);
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = secretOf(setup.json().otpauthUrl);
  const enabled = await call('POST', '/me/two-factor/enable', user.cookie, { code: await codeAt(secret) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  tick(STEP);
  return { ...user, secret, recoveryCodes: enabled.json().recoveryCodes };
}

const login = (email: string) => call('POST', '/auth/login', undefined, { email, password: STRONG_PASSWORD });
async function challengeFor(email: string): Promise<string> {
  const response = await login(email);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
  return response.json().twoFactor.challenge;
}
const secondStep = (challenge: string, factor: { code?: string; recoveryCode?: string }) =>
  call('POST', '/auth/login/two-factor', undefined, { challenge, ...factor });
const auditOf = (action: string, subjectId: string) =>
  t.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('subject_id', '=', subjectId).execute();
const fieldError = (response: LightMyRequestResponse) => response.json().error;

describe('enrolment', () => {
  it('shows a QR code and otpauth link, turns on with a first code, and keeps the seed sealed', async () => {
    const user = await signUp(t.app);
    const setup = await call('POST', '/me/two-factor/setup', user.cookie);
    const { otpauthUrl, qrCodeDataUrl, secret } = setup.json();
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Sundial:/);
    expect(new URL(otpauthUrl).searchParams.get('issuer')).toBe('Sundial');
    expect(qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(secretOf(otpauthUrl)).toBe(secret);
    const [row] = await t.db.selectFrom('user_totp').selectAll().where('user_id', '=', user.userId).execute();
    expect(row?.secret_sealed).toMatch(/^v1\./);
    expect(row?.secret_sealed).not.toContain(secret);

    const wrong = await call('POST', '/me/two-factor/enable', user.cookie, { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect((await call('GET', '/me/two-factor', user.cookie)).json().enabled).toBe(false);

    const enabled = await call('POST', '/me/two-factor/enable', user.cookie, { code: await codeAt(secret) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const codes: string[] = enabled.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const stored = await t.db
      .selectFrom('user_recovery_codes')
      .selectAll()
      .where('user_id', '=', user.userId)
      .execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(codes[0]?.replace('-', ''));
    expect((await call('GET', '/me/two-factor', user.cookie)).json()).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    expect(await auditOf('two_factor.enabled', user.userId)).toHaveLength(1);
    expect((await call('POST', '/me/two-factor/setup', user.cookie)).statusCode).toBe(409);
  });
});

describe('signing in with a second step', () => {
  it('gives no session for the password alone, then one for a code; the same code never works twice', async () => {
    const user = await enrolled();
    const code = await codeAt(user.secret);
    const done = await secondStep(await challengeFor(user.email), { code });
    expect(done.statusCode, done.body).toBe(200);
    expect((await call('GET', '/me', sessionCookie(done))).statusCode).toBe(200);
    const signedIn = await auditOf('user.signed_in', user.userId);
    expect(signedIn.map((r) => r.detail)).toContainEqual({ with: 'code' });

    const again = await secondStep(await challengeFor(user.email), { code });
    expect(again.statusCode).toBe(422);
    expect(fieldError(again).fields.code).toMatch(/used already/);
  });

  it('accepts one step of clock skew either way and refuses two', async () => {
    const user = await enrolled();
    tick(10 * STEP);
    expect((await secondStep(await challengeFor(user.email), { code: await codeAt(user.secret, -1) })).statusCode).toBe(
      200,
    );
    tick(10 * STEP);
    expect((await secondStep(await challengeFor(user.email), { code: await codeAt(user.secret, 1) })).statusCode).toBe(
      200,
    );
    tick(10 * STEP);
    const challenge = await challengeFor(user.email);
    expect((await secondStep(challenge, { code: await codeAt(user.secret, -2) })).statusCode).toBe(422);
    expect((await secondStep(challenge, { code: await codeAt(user.secret, 2) })).statusCode).toBe(422);
    expect((await secondStep(challenge, { code: await codeAt(user.secret) })).statusCode).toBe(200);
  });

  it('refuses a challenge used once or older than five minutes', async () => {
    const user = await enrolled();
    const challenge = await challengeFor(user.email);
    expect((await secondStep(challenge, { code: await codeAt(user.secret) })).statusCode).toBe(200);
    tick(STEP);
    expect((await secondStep(challenge, { code: await codeAt(user.secret) })).statusCode).toBe(401);
    const late = await challengeFor(user.email);
    tick(5 * 60_000 + 1000);
    const expired = await secondStep(late, { code: await codeAt(user.secret) });
    expect(expired.statusCode).toBe(401);
    expect(fieldError(expired).code).toBe('challenge_expired');
    // No challenge at all, neither in the body nor in a cookie.
    const none = await call('POST', '/auth/login/two-factor', undefined, { code: await codeAt(user.secret) });
    expect([none.statusCode, fieldError(none).code]).toEqual([401, 'challenge_expired']);
  });

  it('takes a recovery code once, and e-mails the user when one is used', async () => {
    const user = await enrolled();
    const recovery = user.recoveryCodes[3] ?? '';
    const done = await secondStep(await challengeFor(user.email), { recoveryCode: recovery.toUpperCase() });
    expect(done.statusCode, done.body).toBe(200);
    const mail = await inbox.waitFor(user.email);
    expect(mail.subject).toBe('A recovery code was used to sign in to Sundial');
    expect(mail.text).toContain('9 recovery codes left');
    const reused = await secondStep(await challengeFor(user.email), { recoveryCode: recovery });
    expect(reused.statusCode).toBe(422);
    expect(fieldError(reused).fields.recoveryCode).toBeDefined();
    expect((await call('GET', '/me/two-factor', sessionCookie(done))).json().recoveryCodesLeft).toBe(9);
  });

  it(`refuses codes past ${CODE_FAILURES_ALLOWED} wrong ones (429), even a right one`, async () => {
    const user = await enrolled();
    const challenge = await challengeFor(user.email);
    for (let i = 0; i < CODE_FAILURES_ALLOWED; i++) {
      expect((await secondStep(challenge, { code: '000000' })).statusCode).toBe(422);
    }
    const blocked = await secondStep(challenge, { code: await codeAt(user.secret) });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});

describe('the second step’s limits, per device', () => {
  /** A browser at an address: its log-in sets its known-device cookie, which it sends from then on. */
  function browser(ip: string) {
    let device = '';
    const send = (url: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        payload,
        remoteAddress: ip,
        headers: device ? { cookie: device } : {},
      });
    return {
      async challengeFor(email: string): Promise<string> {
        const response = await send('/auth/login', { email, password: STRONG_PASSWORD });
        expect(response.statusCode, response.body).toBe(200);
        const set = response.cookies.find((c) => c.name === 'sundial_device');
        if (set) device = `sundial_device=${set.value}`;
        return response.json().twoFactor.challenge;
      },
      secondStep: (challenge: string, code: string) => send('/auth/login/two-factor', { challenge, code }),
    };
  }

  it('lets the owner’s device sign in after a stranger who knows the password used up their device’s tries', async () => {
    const user = await enrolled();
    const owner = browser('198.51.100.7');
    await owner.challengeFor(user.email);
    const stranger = browser('203.0.113.9');
    const guessing = await stranger.challengeFor(user.email);
    for (let i = 0; i < CODE_FAILURES_ALLOWED; i++) {
      expect((await stranger.secondStep(guessing, '000000')).statusCode).toBe(422);
    }
    const blocked = await stranger.secondStep(await stranger.challengeFor(user.email), await codeAt(user.secret));
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();

    const signedIn = await owner.secondStep(await owner.challengeFor(user.email), await codeAt(user.secret));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  /** Strangers who have the password guess from new devices, each within its own budget, up to the account's ceiling. */
  async function guessFromManyDevices(email: string): Promise<void> {
    let wrong = 0;
    for (let device = 0; wrong < SIGN_IN_CODE_FAILURES_PER_ACCOUNT; device++) {
      const guesser = browser(`203.0.113.${device + 10}`);
      const challenge = await guesser.challengeFor(email);
      for (let i = 0; i < CODE_FAILURES_ALLOWED && wrong < SIGN_IN_CODE_FAILURES_PER_ACCOUNT; i++, wrong++) {
        expect((await guesser.secondStep(challenge, '000000')).statusCode).toBe(422);
      }
    }
  }

  it(`stops guessing across devices at ${SIGN_IN_CODE_FAILURES_PER_ACCOUNT} wrong codes for the account`, async () => {
    const user = await enrolled();
    await guessFromManyDevices(user.email);
    // A new device, with the right code: the account's ceiling holds for every device that never proved a code.
    const another = browser('192.0.2.44');
    const blocked = await another.secondStep(await another.challengeFor(user.email), await codeAt(user.secret));
    expect(blocked.statusCode).toBe(429);
  });

  it('keeps signing in on a device that proved a code before, past the ceiling strangers reached', async () => {
    const user = await enrolled();
    const owner = browser('198.51.100.7');
    expect((await owner.secondStep(await owner.challengeFor(user.email), await codeAt(user.secret))).statusCode).toBe(
      200,
    );
    tick(STEP);
    await guessFromManyDevices(user.email);
    const signedIn = await owner.secondStep(await owner.challengeFor(user.email), await codeAt(user.secret));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // Still only its own budget of wrong codes.
    const challenge = await owner.challengeFor(user.email);
    for (let i = 0; i < CODE_FAILURES_ALLOWED; i++) {
      expect((await owner.secondStep(challenge, '000000')).statusCode).toBe(422);
    }
    expect((await owner.secondStep(challenge, '000000')).statusCode).toBe(429);
  });
});

describe('managing two-factor authentication', () => {
  it('makes new recovery codes for a fresh code only; the old ones stop working', async () => {
    const user = await enrolled();
    expect((await call('POST', '/me/two-factor/recovery-codes', user.cookie, { code: '123456' })).statusCode).toBe(422);
    const fresh = await call('POST', '/me/two-factor/recovery-codes', user.cookie, { code: await codeAt(user.secret) });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const codes: string[] = fresh.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(codes).not.toContain(user.recoveryCodes[0]);
    tick(STEP);
    expect((await secondStep(await challengeFor(user.email), { recoveryCode: user.recoveryCodes[0] })).statusCode).toBe(
      422,
    );
    expect((await secondStep(await challengeFor(user.email), { recoveryCode: codes[0] })).statusCode).toBe(200);
    expect(await auditOf('two_factor.recovery_codes_regenerated', user.userId)).toHaveLength(1);
  });

  it('turns off with a fresh code only (not a spent one, not a recovery code); then a password signs in', async () => {
    const user = await enrolled();
    const spent = await codeAt(user.secret, -1);
    expect((await call('POST', '/me/two-factor/disable', user.cookie, { code: spent })).statusCode).toBe(422);
    expect(
      (await call('POST', '/me/two-factor/disable', user.cookie, { recoveryCode: user.recoveryCodes[0] })).statusCode,
    ).toBe(422);
    expect((await call('POST', '/me/two-factor/disable', user.cookie, {})).statusCode).toBe(422);
    const off = await call('POST', '/me/two-factor/disable', user.cookie, { code: await codeAt(user.secret) });
    expect(off.statusCode, off.body).toBe(204);
    expect(await auditOf('two_factor.disabled', user.userId)).toHaveLength(1);
    const plain = await login(user.email);
    expect(plain.json().user.email).toBe(user.email);
    expect(sessionCookie(plain)).toBeTruthy();
  });
});

describe('a workspace that requires two-factor authentication', () => {
  it('limits a member without it to enrolment at their next sign-in, enforced by the API', async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    await membersRepository.add(t.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    const ws = `/workspaces/${owner.workspaceId}`;
    expect((await call('PUT', `${ws}/two-factor-policy`, member.cookie, { required: true })).statusCode).toBe(403);
    const set = await call('PUT', `${ws}/two-factor-policy`, owner.cookie, { required: true });
    expect(set.statusCode, set.body).toBe(200);
    expect((await call('GET', `${ws}/two-factor-policy`, member.cookie)).json()).toEqual({ required: true });
    expect(
      (
        await t.db
          .selectFrom('audit_log')
          .selectAll()
          .where('action', '=', 'workspace.two_factor_policy_updated')
          .where('workspace_id', '=', owner.workspaceId)
          .execute()
      ).map((r) => r.detail),
    ).toEqual([{ required: true }]);

    const signedIn = await login(member.email);
    expect(signedIn.json().twoFactorEnrolmentRequired).toBe(true);
    const limited = sessionCookie(signedIn);
    const blocked = await call('GET', `${ws}/projects`, limited);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('two_factor_enrolment_required');
    expect((await call('GET', '/workspaces', limited)).statusCode).toBe(403);
    expect((await call('GET', '/me', limited)).statusCode).toBe(200);
    expect((await call('GET', '/me/two-factor', limited)).json()).toMatchObject({
      enrolmentOnly: true,
      requiredByWorkspace: true,
    });

    const setup = await call('POST', '/me/two-factor/setup', limited);
    const secret = secretOf(setup.json().otpauthUrl);
    expect((await call('POST', '/me/two-factor/enable', limited, { code: await codeAt(secret) })).statusCode).toBe(200);
    expect((await call('GET', `${ws}/projects`, limited)).statusCode).toBe(200);
    tick(STEP);
    const off = await call('POST', '/me/two-factor/disable', limited, { code: await codeAt(secret) });
    expect(off.statusCode).toBe(409);
    expect(off.json().error.code).toBe('two_factor_required');
  });

  it('lets an admin reset a member who lost their device: audited, their sessions end, they are told', async () => {
    const owner = await signUp(t.app);
    const user = await enrolled();
    await membersRepository.add(t.db, { workspaceId: owner.workspaceId, userId: user.userId, role: 'member' });
    const url = `/workspaces/${owner.workspaceId}/members/${user.userId}/two-factor/reset`;
    expect((await call('POST', url, user.cookie)).statusCode).toBe(403);
    const outsider = await signUp(t.app);
    expect(
      (await call('POST', `/workspaces/${owner.workspaceId}/members/${outsider.userId}/two-factor/reset`, owner.cookie))
        .statusCode,
    ).toBe(404);
    const reset = await call('POST', url, owner.cookie);
    expect(reset.statusCode, reset.body).toBe(204);
    const [entry] = await auditOf('two_factor.reset_by_admin', user.userId);
    expect(entry).toMatchObject({ actor_user_id: owner.userId, workspace_id: owner.workspaceId });
    expect((await call('GET', '/me', user.cookie)).statusCode).toBe(401);
    expect((await inbox.waitFor(user.email)).subject).toBe('Your two-factor authentication was reset');
    expect(sessionCookie(await login(user.email))).toBeTruthy();
  });
});

describe('when the workspace drops to Free', () => {
  it('keeps a person’s own 2FA working, and stops enforcing the requirement', async () => {
    const owner = await enrolled();
    const member = await signUp(t.app);
    await membersRepository.add(t.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    const policy = `/workspaces/${owner.workspaceId}/two-factor-policy`;
    expect((await call('PUT', policy, owner.cookie, { required: true })).statusCode).toBe(200);
    expect((await login(member.email)).json().twoFactorEnrolmentRequired).toBe(true);
    await t.db
      .updateTable('workspaces')
      .set({ plan: 'free', trial_ends_at: new Date(clock.getTime() - 86_400_000) })
      .where('id', '=', owner.workspaceId)
      .execute();
    const refused = await call('PUT', policy, owner.cookie, { required: false });
    expect(refused.json().error.code).toBe('plan_limit_reached');
    expect((await login(member.email)).json().twoFactorEnrolmentRequired).toBeUndefined();
    const done = await secondStep(await challengeFor(owner.email), { code: await codeAt(owner.secret) });
    expect(done.statusCode).toBe(200);
  });
});

describe('sessions', () => {
  const loginAs = (user: SignedUp, userAgent: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: STRONG_PASSWORD },
      headers: { 'user-agent': userAgent },
    });
  const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  const SAFARI =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

  it('lists the user’s sessions with device and last seen; signs one out, then every other', async () => {
    const user = await signUp(t.app);
    const firefox = sessionCookie(await loginAs(user, FIREFOX));
    const phone = sessionCookie(await loginAs(user, SAFARI));
    const stranger = await signUp(t.app);

    const list = await call('GET', '/me/sessions', firefox);
    expect(list.statusCode).toBe(200);
    const items: Array<{ id: string; device: string; current: boolean; lastSeenAt: string }> = list.json().items;
    expect(items).toHaveLength(3);
    expect(items.filter((s) => s.current).map((s) => s.device)).toEqual(['Firefox on Windows']);
    expect(items.map((s) => s.device)).toContain('Safari on iOS');
    for (const s of items) expect(Number.isNaN(Date.parse(s.lastSeenAt))).toBe(false);
    const phoneId = items.find((s) => s.device === 'Safari on iOS')?.id ?? '';

    expect((await call('DELETE', `/me/sessions/${phoneId}`, stranger.cookie)).statusCode).toBe(404);
    expect((await call('GET', '/me', phone)).statusCode).toBe(200);
    expect((await call('DELETE', `/me/sessions/${phoneId}`, firefox)).statusCode).toBe(204);
    expect((await call('GET', '/me', phone)).statusCode).toBe(401);
    expect((await call('DELETE', `/me/sessions/${phoneId}`, firefox)).statusCode).toBe(404);
    expect(await auditOf('session.revoked', user.userId)).toHaveLength(1);

    expect((await call('POST', '/me/sessions/sign-out-others', firefox)).statusCode).toBe(204);
    expect((await call('GET', '/me', user.cookie)).statusCode).toBe(401);
    expect((await call('GET', '/me', firefox)).statusCode).toBe(200);
    expect((await call('GET', '/me/sessions', firefox)).json().items).toHaveLength(1);
    expect((await call('GET', '/me', stranger.cookie)).statusCode).toBe(200);
    expect(await auditOf('session.others_revoked', user.userId)).toHaveLength(1);
    const signIns = await auditOf('user.signed_in', user.userId);
    expect(signIns.map((r) => r.detail)).toEqual([{ with: 'password' }, { with: 'password' }]);
  });
});
