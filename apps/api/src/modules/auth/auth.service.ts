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
import { dropLinkedIdentities } from '../sso/sso.service.js';
import type { TwoFactorService } from '../two-factor/two-factor.service.js';
import { usersService } from '../users/users.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { emailVerificationMail, passwordResetMail } from './auth.mails.js';
import { authRepository, type LinkTable } from './auth.repository.js';

const HOUR_MS = 60 * 60_000;

/** Two sign-ups racing for one address: the unique index decides. */
const USER_CONSTRAINTS: ConstraintTable = {
  users_email_key: { code: 'email_taken', message: messages.emailTaken, field: 'email' },
};
const RESET_LINK_MS = HOUR_MS;
/** A link confirming an address lasts a day: sign-up mail is often read later than a reset's. */
const VERIFY_LINK_MS = 24 * HOUR_MS;
/** "Send again" of the confirmation link: this many an hour per account. */
const VERIFY_RESENDS_PER_HOUR = 5;

/** What each kind of e-mailed link answers when it cannot be used: 404 unknown, 410 used or expired. */
const LINK_REFUSALS = {
  password_resets: {
    invalid: ['reset_link_invalid', messages.resetLinkInvalid],
    used: ['reset_link_used', messages.resetLinkUsed],
    expired: ['reset_link_expired', messages.resetLinkExpired],
  },
  email_verifications: {
    invalid: ['verify_link_invalid', messages.verifyLinkInvalid],
    used: ['verify_link_used', messages.verifyLinkUsed],
    expired: ['verify_link_expired', messages.verifyLinkExpired],
  },
} as const;
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

  /** Stores a new single-use link of the kind for the user; answers its URL (the token only travels in it). */
  async function issueLink(tx: Db, table: LinkTable, userId: string): Promise<string> {
    const token = newSecret();
    const lifetime = table === 'password_resets' ? RESET_LINK_MS : VERIFY_LINK_MS;
    await authRepository.insertLink(tx, table, {
      tokenHash: hashSecret(token),
      userId,
      expiresAt: new Date(Date.now() + lifetime),
    });
    const page = table === 'password_resets' ? 'password' : 'verify-email';
    return `${config.publicUrl}/${page}?token=${encodeURIComponent(token)}`;
  }

  /** Finds the account and, when there is one, stores a reset link and e-mails it. Runs after the answer. */
  async function sendResetLink(email: string): Promise<void> {
    const user = await usersService.findByEmail(db, email);
    if (!user) return;
    const link = await issueLink(db, 'password_resets', user.id);
    await mailer.send({ to: user.email, ...passwordResetMail(link) });
  }

  /** Stores a link confirming the user's address and e-mails it, both in the caller's transaction. */
  async function sendVerificationLink(tx: Db, user: Pick<User, 'id' | 'email'>): Promise<void> {
    const link = await issueLink(tx, 'email_verifications', user.id);
    await mailer.send({ to: user.email, ...emailVerificationMail(link) }, { db: tx });
  }

  /**
   * Uses a link up in the caller's transaction and answers its user's id; throws as LINK_REFUSALS
   * says when it cannot be used. Every other unused link of the same kind of the user goes with it.
   */
  async function takeLink(tx: Db, table: LinkTable, token: string): Promise<string> {
    const link = await authRepository.findLink(tx, table, hashSecret(token), { lock: true });
    assertLinkUsable(table, link);
    await authRepository.markLinkUsed(tx, table, link.user_id);
    return link.user_id;
  }

  /**
   * Inserts the user and a workspace they own (14-day Pro trial), audited as a sign-up, in the
   * caller's transaction: the password sign-up and a first sign-in through an identity provider.
   */
  async function createAccount(
    tx: Db,
    input: {
      email: string;
      passwordHash: string;
      phone?: string;
      timeZone?: string;
      via?: string;
      /** The provider asserted the address verified (a social provider's email_verified: true). */
      emailVerified?: boolean;
    },
  ): Promise<User> {
    const userId = newId();
    // Until the person gives a name (the welcome screen asks right after sign-up), the e-mail's
    // local part stands for it: on invoices, the team screen and the shell, never "Unnamed member".
    const localPart = input.email.split('@')[0]?.slice(0, 100) ?? '';
    await usersService.insert(tx, {
      id: userId,
      email: input.email,
      name: localPart,
      password_hash: input.passwordHash,
      phone: input.phone ?? null,
      time_zone: input.timeZone ?? 'UTC',
      // An identity provider made it: nobody knows its random password until a reset sets one.
      has_password: input.via === undefined,
      email_verified_at: input.emailVerified ? new Date() : null,
    });
    const { workspace } = await workspaces.createOwned({
      userId,
      name: `${localPart}'s workspace`.slice(0, 100),
      tx,
    });
    const user = await usersService.enterWorkspace(tx, userId, workspace.id);
    await audit(tx, {
      action: 'user.signed_up',
      actorUserId: userId,
      workspaceId: workspace.id,
      ...(input.via ? { detail: { via: input.via } } : {}),
    });
    if (!user.email_verified_at) await sendVerificationLink(tx, user);
    return user;
  }

  return {
    createAccount,
    sendVerificationLink,

    /**
     * Creates the user and a workspace they own (14-day Pro trial) in one transaction, e-mails a
     * link to confirm the address, and signs them in (unconfirmed: the app works, but the address
     * matches nothing by e-mail until it is confirmed). Throws 409 email_taken when the address has an account, 429 past
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
      assertLinkUsable('password_resets', await authRepository.findLink(db, 'password_resets', hashSecret(token)));
    },

    /**
     * Sets a new password from a reset link and takes the account back whole (issue 29): uses the
     * link up, ends every session, drops every linked identity (social and workspace SSO: whoever
     * linked one before the owner had the mailbox keeps nothing), and counts the address as
     * proved, since the link reached that mailbox.
     */
    async resetPassword(input: { token: string; password: string }): Promise<void> {
      assertAcceptablePassword(input.password, 'password');
      const passwordHash = await hashPassword(input.password);
      await db.transaction().execute(async (tx) => {
        const userId = await takeLink(tx, 'password_resets', input.token);
        const before = await usersService.findById(tx, userId);
        await usersService.resetPassword(tx, userId, {
          passwordHash,
          emailVerifiedAt: before?.email_verified_at ?? new Date(),
        });
        await sessions.endAllForUser(userId, { db: tx });
        const dropped = await dropLinkedIdentities(tx, userId);
        await audit(tx, {
          action: 'user.password_reset',
          actorUserId: userId,
          subjectId: userId,
          ...(dropped.length > 0 ? { detail: { identitiesRemoved: dropped } } : {}),
        });
      });
    },

    /** Confirms the address a link was sent to; 404 unknown link, 410 used or expired. */
    async verifyEmail(token: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        const userId = await takeLink(tx, 'email_verifications', token);
        const user = await usersService.findById(tx, userId);
        if (user?.email_verified_at) return;
        await usersService.markEmailVerified(tx, userId);
        await audit(tx, { action: 'user.email_verified', actorUserId: userId, subjectId: userId });
      });
    },

    /**
     * "Send again": a new link confirming the signed-in user's address. Nothing is sent when it is
     * confirmed already; 429 past VERIFY_RESENDS_PER_HOUR an hour.
     */
    async resendVerification(user: User): Promise<void> {
      if (user.email_verified_at) return;
      await rateLimiter.hit(db, {
        bucket: `verify-email:user:${user.id}`,
        limit: VERIFY_RESENDS_PER_HOUR,
        windowMs: HOUR_MS,
        message: limitMessages.verifyEmail,
      });
      await db.transaction().execute((tx) => sendVerificationLink(tx, user));
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
        await usersService.changePassword(tx, input.user.id, passwordHash);
        await sessions.endAllForUser(input.user.id, { keepSecret: input.keepSessionSecret, db: tx });
        await audit(tx, { action: 'user.password_changed', actorUserId: input.user.id, subjectId: input.user.id });
      });
    },
  };
}

function assertLinkUsable<T extends { used_at: Date | null; expires_at: Date }>(
  table: LinkTable,
  link: T | undefined,
): asserts link is T {
  const refusals = LINK_REFUSALS[table];
  const refuse = ([code, message]: readonly [string, string], status: number) =>
    new AppError(code, message, { status });
  if (!link) throw refuse(refusals.invalid, 404);
  if (link.used_at) throw refuse(refusals.used, 410);
  if (new Date(link.expires_at).getTime() <= Date.now()) throw refuse(refusals.expired, 410);
}

export type AuthService = ReturnType<typeof createAuthService>;
