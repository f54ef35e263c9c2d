import { limitMessages, messages, waitText } from '@sundial/core';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import { audit } from '../../platform/audit.js';
import type { BackgroundQueue } from '../../platform/background.js';
import { AppError, type ConstraintTable, constraintViolation, validationError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import { checkNewPassword, hashPassword, verifyDecoy, verifyPassword } from '../../platform/passwords.js';
import { hashedKey, rateLimiter } from '../../platform/rate-limits.js';
import type { SessionStore, StartedSession } from '../../platform/sessions.js';
import type { TwoFactorService } from '../two-factor/two-factor.service.js';
import { usersService } from '../users/users.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { passwordResetMail } from './auth.mails.js';
import { authRepository } from './auth.repository.js';

const HOUR_MS = 60 * 60_000;

/** Two sign-ups racing for one address: the unique index decides. */
const USER_CONSTRAINTS: ConstraintTable = {
  users_email_key: { code: 'email_taken', message: messages.emailTaken, field: 'email' },
};
const RESET_LINK_MS = HOUR_MS;
/** The per-IP limit of log-in failures counts in windows of this length. */
const LOGIN_IP_WINDOW_MS = 15 * 60_000;
/**
 * Per account (OWASP: slow guesses down rather than lock the owner out): this many failures are
 * free, then each further guess waits for a delay from the last failure that doubles from
 * one second up to the cap. Failures count for a day, and never from before the last completed
 * password reset; a day (not the cap's 15 minutes) so that the doubling is not undone by waiting.
 */
const FREE_FAILURES = 5;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 15 * 60_000;
const FAILURE_MEMORY_MS = 24 * HOUR_MS;
/** A browser that signed in before skips the account's delay, for this many wrong passwords in a row. */
const DEVICE_FAILURE_BUDGET = 10;
const DEVICE_LIFETIME_MS = 180 * 24 * HOUR_MS;
/** Wrong current passwords a signed-in user may send per window when changing the password. */
const PASSWORD_CHANGE_FAILURES = 10;

/** How long an account must still wait before its next password guess, given its counted failures. */
export function loginDelayLeftMs(failures: number, msSinceLast: number | undefined): number {
  if (failures < FREE_FAILURES || msSinceLast === undefined) return 0;
  const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES));
  return Math.max(0, delay - msSinceLast);
}

export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

export interface AuthServiceDeps {
  db: Db;
  config: Pick<
    Config,
    | 'publicUrl'
    | 'RATE_LIMIT_SIGNUP_PER_IP'
    | 'RATE_LIMIT_LOGIN_PER_IP'
    | 'RATE_LIMIT_FORGOT_PER_IP'
    | 'RATE_LIMIT_FORGOT_PER_EMAIL'
  >;
  mailer: Mailer;
  sessions: SessionStore;
  workspaces: WorkspacesService;
  background: BackgroundQueue;
  /** Decides what a right password leads to: a second step, or a session (perhaps limited to enrolment). */
  twoFactor: Pick<TwoFactorService, 'startSignIn'>;
}

/** A browser's known-device token (for its cookie) and until when it is remembered. */
export interface KnownDevice {
  token: string;
  expiresAt: Date;
}

function assertAcceptablePassword(password: string, field: string): void {
  const problem = checkNewPassword(password);
  if (problem) throw validationError({ [field]: problem });
}

/** What a right password leads to: a session, or (a user with 2FA) the challenge of the second step and no session. */
export interface LoginResult {
  user: User;
  session?: StartedSession;
  /** The session may only set up 2FA: a workspace of the user requires it. */
  enrolmentOnly?: boolean;
  twoFactorChallenge?: { challenge: string; expiresAt: Date };
  device?: KnownDevice;
}

export function createAuthService({
  db,
  config,
  mailer,
  sessions,
  workspaces,
  background,
  twoFactor,
}: AuthServiceDeps) {
  /**
   * Records a password guess for an account and answers its id; 429 with Retry-After while the
   * account's delay runs. The attempt is written down as a failure before it is counted and
   * before the password is checked, so guesses sent in parallel all see each other: no batch
   * slips past the delay.
   */
  async function startAttempt(email: string, ip: string): Promise<number> {
    const attemptId = await authRepository.recordAttempt(db, { email, ip, success: false });
    const { failures, msSinceLast } = await authRepository.countAccountFailures(db, {
      email,
      since: new Date(Date.now() - FAILURE_MEMORY_MS),
      exceptId: attemptId,
    });
    const waitMs = loginDelayLeftMs(failures, msSinceLast);
    if (waitMs > 0) {
      // A refused attempt checked no password: it is not a guess and does not extend the delay.
      await authRepository.deleteAttempt(db, attemptId);
      const seconds = Math.ceil(waitMs / 1000);
      throw new AppError('too_many_attempts', limitMessages.loginDelayed(waitText(seconds)), {
        status: 429,
        headers: { 'retry-after': String(seconds) },
      });
    }
    return attemptId;
  }

  /** Keeps the browser known to the user: the token it presented when it is the user's, else a new one. */
  async function rememberDevice(userId: string, presentedToken: string | undefined): Promise<KnownDevice> {
    const expiresAt = new Date(Date.now() + DEVICE_LIFETIME_MS);
    if (presentedToken) {
      const tokenHash = hashSecret(presentedToken);
      if (await authRepository.refreshDevice(db, { tokenHash, userId, expiresAt })) {
        return { token: presentedToken, expiresAt };
      }
    }
    const token = newSecret();
    await authRepository.insertDevice(db, { tokenHash: hashSecret(token), userId, expiresAt });
    return { token, expiresAt };
  }

  /** Finds the account and, when there is one, stores a reset link and e-mails it. Runs after the answer. */
  async function sendResetLink(email: string): Promise<void> {
    const user = await usersService.findByEmail(db, email);
    if (!user) return;
    const token = newSecret();
    await authRepository.insertReset(db, {
      tokenHash: hashSecret(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_LINK_MS),
    });
    const link = `${config.publicUrl}/password?token=${encodeURIComponent(token)}`;
    await mailer.send({ to: user.email, ...passwordResetMail(link) });
  }

  /**
   * Inserts the user and a workspace they own (14-day Pro trial), audited as a sign-up, in the
   * caller's transaction: the password sign-up and a first sign-in through an identity provider.
   */
  async function createAccount(
    tx: Db,
    input: { email: string; passwordHash: string; phone?: string; timeZone?: string; via?: string },
  ): Promise<User> {
    const userId = newId();
    await usersService.insert(tx, {
      id: userId,
      email: input.email,
      password_hash: input.passwordHash,
      phone: input.phone ?? null,
      time_zone: input.timeZone ?? 'UTC',
    });
    const { workspace } = await workspaces.createOwned({
      userId,
      name: `${input.email.split('@')[0]}'s workspace`,
      tx,
    });
    const user = await usersService.update(tx, userId, { current_workspace_id: workspace.id });
    await audit(tx, {
      action: 'user.signed_up',
      actorUserId: userId,
      workspaceId: workspace.id,
      ...(input.via ? { detail: { via: input.via } } : {}),
    });
    return user;
  }

  return {
    createAccount,

    /**
     * Creates the user and a workspace they own (14-day Pro trial) in one transaction, and
     * signs them in. Throws 409 email_taken when the address has an account, 429 past
     * RATE_LIMIT_SIGNUP_PER_IP sign-ups an hour from one address.
     */
    async signup(
      input: { email: string; password: string; phone?: string; timeZone?: string },
      client: ClientInfo,
    ): Promise<{ user: User; session: StartedSession }> {
      assertAcceptablePassword(input.password, 'password');
      await rateLimiter.hit(db, {
        bucket: `signup:ip:${client.ip}`,
        limit: config.RATE_LIMIT_SIGNUP_PER_IP,
        windowMs: HOUR_MS,
        message: limitMessages.signupPerIp,
      });
      const passwordHash = await hashPassword(input.password);
      const emailTaken = () =>
        new AppError('email_taken', messages.emailTaken, { status: 409, fields: { email: messages.emailTaken } });
      try {
        return await db.transaction().execute(async (tx) => {
          if (await usersService.findByEmail(tx, input.email)) throw emailTaken();
          const user = await createAccount(tx, { ...input, passwordHash });
          const session = await sessions.start({ userId: user.id, remember: false, ...client, db: tx });
          return { user, session };
        });
      } catch (error) {
        // Two sign-ups racing for one address: the unique index decides.
        throw constraintViolation(error, USER_CONSTRAINTS) ?? error;
      }
    },

    /**
     * Signs in with e-mail and password and, with rememberDevice, keeps the browser as a known
     * device of the user. Never tells which of the two was wrong. 429 with Retry-After past
     * RATE_LIMIT_LOGIN_PER_IP failures from one address in 15 minutes, and while the account's
     * delay runs (after five failures) unless the browser presents a known-device token of the
     * account: that one has its own budget, so guesses from elsewhere cannot lock the owner out.
     */
    async login(
      input: { email: string; password: string; remember?: boolean },
      client: ClientInfo,
      options: { deviceToken?: string; rememberDevice?: boolean } = {},
    ): Promise<LoginResult> {
      // Counted before the password is checked, given back when it was right: failures per address.
      const ipHit = await rateLimiter.hit(db, {
        bucket: `login:ip:${client.ip}`,
        limit: config.RATE_LIMIT_LOGIN_PER_IP,
        windowMs: LOGIN_IP_WINDOW_MS,
        message: limitMessages.loginPerIp,
        code: 'too_many_attempts',
      });
      const user = await usersService.findByEmail(db, input.email);
      const fromKnownDevice =
        user !== undefined &&
        options.deviceToken !== undefined &&
        (await authRepository.countDeviceAttempt(db, {
          tokenHash: hashSecret(options.deviceToken),
          userId: user.id,
          budget: DEVICE_FAILURE_BUDGET,
        }));
      let attemptId: number | undefined;
      if (!fromKnownDevice) {
        try {
          attemptId = await startAttempt(input.email, client.ip);
        } catch (error) {
          await rateLimiter.release(db, ipHit);
          throw error;
        }
      }
      let ok = false;
      if (user) ok = await verifyPassword(user.password_hash, input.password);
      else await verifyDecoy(input.password);
      if (!user || !ok) throw new AppError('wrong_credentials', messages.wrongCredentials, { status: 401 });
      await rateLimiter.release(db, ipHit);
      if (attemptId !== undefined) await authRepository.markAttemptSucceeded(db, attemptId);
      // A workspace's "require SSO" does not refuse the password: it refuses this session its own
      // pages (app.ts), so the person's other workspaces stay theirs (issue 29).
      const device = options.rememberDevice ? await rememberDevice(user.id, options.deviceToken) : undefined;
      const remember = input.remember ?? false;
      const next = await twoFactor.startSignIn(user, { remember, client });
      if (next.kind === 'challenge') {
        return { user, device, twoFactorChallenge: { challenge: next.challenge, expiresAt: next.expiresAt } };
      }
      const { session } = next;
      await audit(db, {
        action: 'user.signed_in',
        actorUserId: user.id,
        subjectId: user.id,
        detail: { with: 'password' },
      });
      return { user, session, device, enrolmentOnly: next.enrolmentOnly };
    },

    logout(secret: string): Promise<void> {
      return sessions.end(secret);
    },

    /**
     * E-mails a single-use link valid for one hour when the account exists. Whether it does or
     * not, the answer does the same work (the limits, then queueing the rest to run after it), so
     * its timing tells nothing. 429 past RATE_LIMIT_FORGOT_PER_IP requests an hour from one
     * address or RATE_LIMIT_FORGOT_PER_EMAIL for one e-mail (any e-mail, account or not).
     */
    async forgotPassword(email: string, client: ClientInfo): Promise<void> {
      await rateLimiter.hit(db, {
        bucket: `forgot:ip:${client.ip}`,
        limit: config.RATE_LIMIT_FORGOT_PER_IP,
        windowMs: HOUR_MS,
        message: limitMessages.forgotPerIp,
      });
      await rateLimiter.hit(db, {
        bucket: `forgot:email:${hashedKey(email)}`,
        limit: config.RATE_LIMIT_FORGOT_PER_EMAIL,
        windowMs: HOUR_MS,
        message: limitMessages.forgotPerEmail,
      });
      background.run('password reset link', () => sendResetLink(email));
    },

    /** Throws when a reset link cannot be used: 404 unknown, 410 used or expired. */
    async checkResetToken(token: string): Promise<void> {
      const reset = await authRepository.findReset(db, hashSecret(token));
      assertResetUsable(reset);
    },

    /** Sets a new password from a reset link, uses the link up and ends every session of the user. */
    async resetPassword(input: { token: string; password: string }): Promise<void> {
      assertAcceptablePassword(input.password, 'password');
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (tx) => {
        const tokenHash = hashSecret(input.token);
        const reset = await authRepository.findResetForUpdate(tx, tokenHash);
        assertResetUsable(reset);
        await usersService.update(tx, reset.user_id, { password_hash: passwordHash });
        await authRepository.markResetUsed(tx, tokenHash, reset.user_id);
        await sessions.endAllForUser(reset.user_id, { db: tx });
        await audit(tx, { action: 'user.password_reset', actorUserId: reset.user_id, subjectId: reset.user_id });
      });
    },

    /**
     * Changes the password of a signed-in user and ends their other sessions. 429 past ten wrong
     * current passwords in 15 minutes (per user: the account-wide log-in delay is not theirs to trip).
     */
    async changePassword(input: {
      user: User;
      currentPassword: string;
      newPassword: string;
      /** The session that asked (kept signed in); none when a token asked. */
      keepSessionSecret?: string;
      client: ClientInfo;
    }): Promise<void> {
      const hit = await rateLimiter.hit(db, {
        bucket: `password-change:user:${input.user.id}`,
        limit: PASSWORD_CHANGE_FAILURES,
        windowMs: LOGIN_IP_WINDOW_MS,
        message: limitMessages.passwordChange,
        code: 'too_many_attempts',
      });
      if (!(await verifyPassword(input.user.password_hash, input.currentPassword))) {
        throw validationError({ currentPassword: messages.currentPasswordWrong });
      }
      await rateLimiter.release(db, hit);
      assertAcceptablePassword(input.newPassword, 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction().execute(async (tx) => {
        await usersService.update(tx, input.user.id, { password_hash: passwordHash });
        await sessions.endAllForUser(input.user.id, { keepSecret: input.keepSessionSecret, db: tx });
        await audit(tx, { action: 'user.password_changed', actorUserId: input.user.id, subjectId: input.user.id });
      });
    },
  };
}

function assertResetUsable<T extends { used_at: Date | null; expires_at: Date }>(
  reset: T | undefined,
): asserts reset is T {
  if (!reset) throw new AppError('reset_link_invalid', messages.resetLinkInvalid, { status: 404 });
  if (reset.used_at) throw new AppError('reset_link_used', messages.resetLinkUsed, { status: 410 });
  if (new Date(reset.expires_at).getTime() <= Date.now()) {
    throw new AppError('reset_link_expired', messages.resetLinkExpired, { status: 410 });
  }
}

export type AuthService = ReturnType<typeof createAuthService>;
