import { randomBytes } from 'node:crypto';
import { type BillingMode, limitMessages, workspaceHasFeature } from '@sundial/core';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import { assertCan, assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { hashSecret, newSecret } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import { type RateLimit, type RateLimitHit, rateLimiter } from '../../platform/rate-limits.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { SessionStore, StartedSession } from '../../platform/sessions.js';
import { usersService } from '../users/users.service.js';
import { recoveryCodeUsedMail, twoFactorResetMail } from './two-factor.mails.js';
import { twoFactorRepository } from './two-factor.repository.js';

/** RFC 6238 as authenticator apps do it: 30-second steps, 6 digits, SHA-1; one step of clock skew either way. */
const STEP_SECONDS = 30;
const SKEW_SECONDS = STEP_SECONDS;
const ISSUER = 'Sundial';
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** How long the second step of a sign-in may wait after the password. */
const CHALLENGE_MS = 5 * 60_000;
/**
 * Wrong codes per 15-minute window: a signed-in user's (turning 2FA off, new recovery codes), and
 * each device's at the sign-in's second step (its known-device cookie, else its address), so a
 * stranger who has the password uses up their own device's tries, not the owner's.
 */
export const CODE_FAILURES_ALLOWED = 5;
/**
 * Wrong second-step codes per account per window, all devices together: the ceiling on guessing.
 * A device on which the user completed a second step (within PROVED_DEVICE_MS) is not held to it.
 */
export const SIGN_IN_CODE_FAILURES_PER_ACCOUNT = 20;
const PROVED_DEVICE_MS = 180 * 24 * 60 * 60_000;
const CODE_WINDOW_MS = 15 * 60_000;

const wrongCode = () =>
  validationError({ code: 'That code is not right (or was used already). Try the next code from your app.' });
const wrongRecoveryCode = () => validationError({ recoveryCode: 'That recovery code is not right or was used.' });

export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

/** A fresh code to prove it is the user: from the app, or (where allowed) a recovery code. */
export interface SecondFactor {
  code?: string;
  recoveryCode?: string;
}

/** What a proved first factor leads to: a second step, or a session (limited to enrolment when a workspace requires 2FA). */
export type SignInStart =
  | { kind: 'challenge'; challenge: string; expiresAt: Date }
  | { kind: 'session'; session: StartedSession; enrolmentOnly: boolean };

export function createTwoFactorService(deps: {
  db: Db;
  secrets: SecretBox;
  sessions: SessionStore;
  mailer: Mailer;
  billing: BillingMode;
  publicUrl: string;
  now?: () => Date;
}) {
  const { db, secrets, sessions, mailer } = deps;
  const now = deps.now ?? (() => new Date());
  const context = (userId: string) => `totp:${userId}`;
  const securityUrl = `${deps.publicUrl}/homepage/profile#security`;

  /** Whether an active workspace of the user, on a plan with two-factor authentication, requires it. */
  async function requiredByWorkspace(executor: Db, userId: string): Promise<boolean> {
    const workspaces = await twoFactorRepository.workspacesRequiring(executor, userId);
    return workspaces.some((w) => workspaceHasFeature(w, 'two_factor', now(), deps.billing));
  }

  const codeLimit = (bucket: string, limit: number): RateLimit => ({
    bucket,
    limit,
    windowMs: CODE_WINDOW_MS,
    message: limitMessages.twoFactorCodes,
    code: 'too_many_attempts',
  });
  /** A signed-in user's code checks. */
  const userLimits = (userId: string) => [codeLimit(`two-factor:user:${userId}`, CODE_FAILURES_ALLOWED)];
  /**
   * A sign-in's second step: the device's own budget first, then the account's ceiling, except
   * for a device that proved a code before (the owner's; strangers who fill the ceiling have none).
   */
  async function signInLimits(userId: string, deviceHash: string | undefined, ip: string): Promise<RateLimit[]> {
    const own = codeLimit(
      `two-factor:sign-in:user:${userId}:${deviceHash ? `device:${deviceHash}` : `ip:${ip}`}`,
      CODE_FAILURES_ALLOWED,
    );
    const since = new Date(now().getTime() - PROVED_DEVICE_MS);
    if (deviceHash && (await twoFactorRepository.isProvedDevice(db, { userId, deviceHash, since }))) return [own];
    return [own, codeLimit(`two-factor:sign-in:user:${userId}`, SIGN_IN_CODE_FAILURES_PER_ACCOUNT)];
  }

  /**
   * Runs work that checks a code as one counted attempt in each limit: counted before (so parallel
   * guesses see each other), given back when the work succeeded, and by the limits already counted
   * when a later one refuses (no code was checked). Outside the work's transaction, so a wrong code
   * still counts when its transaction rolls back.
   */
  async function asAttempt<T>(limits: RateLimit[], work: () => Promise<T>): Promise<T> {
    const hits: RateLimitHit[] = [];
    const releaseAll = async () => {
      for (const hit of hits) await rateLimiter.release(db, hit);
    };
    try {
      for (const limit of limits) hits.push(await rateLimiter.hit(db, limit));
    } catch (error) {
      await releaseAll();
      throw error;
    }
    const result = await work();
    await releaseAll();
    return result;
  }

  /** Checks a code of the app against the seed, and uses its time step up so it never works twice. */
  async function checkTotp(executor: Db, userId: string, code: string): Promise<boolean> {
    const totp = await twoFactorRepository.findTotp(executor, userId);
    if (!totp) return false;
    const result = await verify({
      secret: secrets.open(totp.secret_sealed, context(userId)),
      token: code,
      epoch: Math.floor(now().getTime() / 1000),
      epochTolerance: SKEW_SECONDS,
      ...(totp.last_time_step === null ? {} : { afterTimeStep: Number(totp.last_time_step) }),
    });
    if (!result.valid || !('timeStep' in result)) return false;
    return twoFactorRepository.claimTimeStep(executor, userId, result.timeStep);
  }

  /** Proves a fresh factor of an enabled user (call it inside `asAttempt`); throws 422 naming the field when wrong. */
  async function proveFactor(
    tx: Db,
    user: User,
    factor: SecondFactor,
    options: { allowRecovery: boolean },
  ): Promise<'code' | 'recovery_code'> {
    if (factor.code !== undefined) {
      if (!(await checkTotp(tx, user.id, factor.code))) throw wrongCode();
      return 'code';
    }
    if (!options.allowRecovery || factor.recoveryCode === undefined) throw wrongCode();
    if (!(await twoFactorRepository.useRecoveryCode(tx, user.id, hashSecret(factor.recoveryCode), now()))) {
      throw wrongRecoveryCode();
    }
    const left = await twoFactorRepository.countRecoveryCodesLeft(tx, user.id);
    await mailer.send({ to: user.email, ...recoveryCodeUsedMail({ left, securityUrl }) }, { db: tx });
    return 'recovery_code';
  }

  async function enabledTotp(executor: Db, userId: string) {
    const totp = await twoFactorRepository.findTotp(executor, userId);
    if (!totp?.enabled_at) {
      throw new AppError('two_factor_not_enabled', 'Two-factor authentication is not turned on.', { status: 409 });
    }
    return totp;
  }

  /** Ten new codes (`xxxxx-xxxxx`), stored by their hash only; the old ones stop working. */
  async function newRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const bytes = randomBytes(10);
      const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % 32]).join('');
      return `${chars.slice(0, 5)}-${chars.slice(5)}`;
    });
    await twoFactorRepository.replaceRecoveryCodes(
      tx,
      userId,
      codes.map((c) => hashSecret(c.replace('-', ''))),
    );
    return codes;
  }

  return {
    /** Where the user stands; `enrolmentOnly` is the asking session's limit. */
    async status(user: User, enrolmentOnly: boolean) {
      const totp = await twoFactorRepository.findTotp(db, user.id);
      const enabledAt = totp?.enabled_at ?? null;
      return {
        enabled: enabledAt !== null,
        enabledAt: enabledAt && new Date(enabledAt).toISOString(),
        recoveryCodesLeft: enabledAt ? await twoFactorRepository.countRecoveryCodesLeft(db, user.id) : 0,
        requiredByWorkspace: await requiredByWorkspace(db, user.id),
        enrolmentOnly,
      };
    },

    /** A new seed to scan; it works once its first code is confirmed (`enable`). 409 when 2FA is on already. */
    async setup(user: User) {
      const existing = await twoFactorRepository.findTotp(db, user.id);
      if (existing?.enabled_at) {
        throw new AppError('two_factor_enabled', 'Two-factor authentication is on already.', { status: 409 });
      }
      const secret = generateSecret();
      await twoFactorRepository.saveUnconfirmedTotp(db, user.id, secrets.seal(secret, context(user.id)));
      const otpauthUrl = generateURI({ issuer: ISSUER, label: user.email, secret });
      const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
      return { otpauthUrl, qrCodeDataUrl, secret };
    },

    /** Confirms the seed with a first code, turns 2FA on, lifts enrolment-only sessions; answers the recovery codes. */
    async enable(user: User, code: string): Promise<string[]> {
      return asAttempt(userLimits(user.id), () =>
        db.transaction().execute(async (tx) => {
          const totp = await twoFactorRepository.findTotp(tx, user.id);
          if (!totp) {
            throw new AppError('two_factor_not_set_up', 'Start the set-up first: scan the QR code.', { status: 409 });
          }
          if (totp.enabled_at) {
            throw new AppError('two_factor_enabled', 'Two-factor authentication is on already.', { status: 409 });
          }
          if (!(await checkTotp(tx, user.id, code))) throw wrongCode();
          await twoFactorRepository.markEnabled(tx, user.id, now());
          const codes = await newRecoveryCodes(tx, user.id);
          await sessions.liftEnrolmentOnly(user.id, { db: tx });
          await audit(tx, { action: 'two_factor.enabled', actorUserId: user.id, subjectId: user.id });
          return codes;
        }),
      );
    },

    /** New recovery codes for a fresh code of the app; the old ones stop working. */
    async regenerateRecoveryCodes(user: User, factor: SecondFactor): Promise<string[]> {
      return asAttempt(userLimits(user.id), () =>
        db.transaction().execute(async (tx) => {
          await enabledTotp(tx, user.id);
          await proveFactor(tx, user, factor, { allowRecovery: false });
          const codes = await newRecoveryCodes(tx, user.id);
          await audit(tx, {
            action: 'two_factor.recovery_codes_regenerated',
            actorUserId: user.id,
            subjectId: user.id,
          });
          return codes;
        }),
      );
    },

    /** Turns 2FA off with a fresh code; 409 while a workspace of the user requires it. */
    async disable(user: User, factor: SecondFactor): Promise<void> {
      await asAttempt(userLimits(user.id), () =>
        db.transaction().execute(async (tx) => {
          await enabledTotp(tx, user.id);
          if (await requiredByWorkspace(tx, user.id)) {
            throw new AppError(
              'two_factor_required',
              'A workspace you belong to requires two-factor authentication, so it cannot be turned off.',
              { status: 409 },
            );
          }
          await proveFactor(tx, user, factor, { allowRecovery: false });
          await twoFactorRepository.removeAll(tx, user.id);
          await audit(tx, { action: 'two_factor.disabled', actorUserId: user.id, subjectId: user.id });
        }),
      );
    },

    /**
     * The one gate of every sign-in once its first factor is proved (a password, a social provider,
     * a workspace's identity provider): a user with 2FA gets a challenge for the second step (5
     * minutes, single use) and no session; one without it whom a workspace requires to use it gets
     * a session limited to enrolment; anyone else a full session. `db` is the caller's transaction
     * (a just-in-time membership made in it counts). `viaWorkspaceId`: the workspace whose identity
     * provider proved the first factor; the session (after the second step too) keeps it.
     */
    async startSignIn(
      user: User,
      options: { remember: boolean; client: ClientInfo; db?: Db; viaWorkspaceId?: string },
    ): Promise<SignInStart> {
      const executor = options.db ?? db;
      const totp = await twoFactorRepository.findTotp(executor, user.id);
      if (totp?.enabled_at) {
        const challenge = newSecret();
        const expiresAt = new Date(now().getTime() + CHALLENGE_MS);
        await twoFactorRepository.purgeChallenges(executor, now());
        await twoFactorRepository.insertChallenge(executor, {
          tokenHash: hashSecret(challenge),
          userId: user.id,
          remember: options.remember,
          expiresAt,
          ...(options.viaWorkspaceId ? { viaWorkspaceId: options.viaWorkspaceId } : {}),
        });
        return { kind: 'challenge', challenge, expiresAt };
      }
      const enrolmentOnly = await requiredByWorkspace(executor, user.id);
      const session = await sessions.start({
        userId: user.id,
        remember: options.remember,
        enrolmentOnly,
        viaWorkspaceId: options.viaWorkspaceId,
        ...options.client,
        db: executor,
      });
      return { kind: 'session', session, enrolmentOnly };
    },

    /**
     * The second step of a sign-in: a code (or a recovery code) for the challenge, then the session.
     * 429 past CODE_FAILURES_ALLOWED wrong codes from this device (`deviceToken`, the browser's
     * known-device cookie, else its address) or SIGN_IN_CODE_FAILURES_PER_ACCOUNT from all devices
     * in 15 minutes; a device that completes the step is remembered as one that proved a code.
     */
    async completeSignIn(
      input: { challenge: string | undefined; deviceToken?: string } & SecondFactor,
      client: ClientInfo,
    ): Promise<{ user: User; session: StartedSession }> {
      // No challenge at all (no cookie, nothing in the body) reads as one that ran out.
      const tokenHash = input.challenge ? hashSecret(input.challenge) : undefined;
      const challenge = tokenHash ? await twoFactorRepository.findChallenge(db, tokenHash, now()) : undefined;
      if (!tokenHash || !challenge) {
        throw new AppError('challenge_expired', 'The sign-in took too long. Enter your password again.', {
          status: 401,
        });
      }
      const user = await usersService.findById(db, challenge.user_id);
      if (!user) throw notFound('Account not found.');
      const deviceHash = input.deviceToken ? hashSecret(input.deviceToken) : undefined;
      return asAttempt(await signInLimits(user.id, deviceHash, client.ip), () =>
        db.transaction().execute(async (tx) => {
          const used = await proveFactor(tx, user, input, { allowRecovery: true });
          if (!(await twoFactorRepository.deleteChallenge(tx, tokenHash))) {
            throw new AppError('challenge_expired', 'This sign-in was completed already. Enter your password again.', {
              status: 401,
            });
          }
          const session = await sessions.start({
            userId: user.id,
            remember: challenge.remember,
            viaWorkspaceId: challenge.via_workspace_id ?? undefined,
            ...client,
            db: tx,
          });
          if (deviceHash) {
            const at = now();
            const forgetBefore = new Date(at.getTime() - PROVED_DEVICE_MS);
            await twoFactorRepository.markDeviceProved(tx, { userId: user.id, deviceHash, at, forgetBefore });
          }
          await audit(tx, {
            action: 'user.signed_in',
            actorUserId: user.id,
            subjectId: user.id,
            detail: { with: used },
          });
          return { user, session };
        }),
      );
    },

    /** The workspace's "members must use 2FA". */
    async policy(actor: Actor): Promise<{ required: boolean }> {
      assertCan(actor, 'workspace:view');
      return { required: await twoFactorRepository.findPolicy(db, actor.membership.workspace.id) };
    },

    /** Owners and admins, on a plan with two-factor authentication (Pro). Members without it enrol at their next sign-in. */
    async setPolicy(actor: Actor, required: boolean): Promise<{ required: boolean }> {
      assertCan(actor, 'workspace:update');
      assertFeature(actor, 'two_factor');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        await twoFactorRepository.savePolicy(tx, workspaceId, required);
        await audit(tx, {
          action: 'workspace.two_factor_policy_updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: { required },
        });
      });
      return { required };
    },

    /**
     * An owner or admin turns a member's 2FA off (a lost phone and lost codes): the member's
     * sessions end and they are told by e-mail. Only the owner may reset an owner's or their own admins'.
     */
    async resetForMember(actor: Actor, userId: string): Promise<void> {
      assertCan(actor, 'members:manage');
      const workspace = actor.membership.workspace;
      await db.transaction().execute(async (tx) => {
        const membership = await twoFactorRepository.findMembership(tx, workspace.id, userId);
        if (!membership) throw notFound('Member not found.');
        if (membership.role === 'owner' && actor.membership.role !== 'owner') {
          throw new AppError('forbidden', 'Only the owner may reset the owner’s two-factor authentication.', {
            status: 403,
          });
        }
        const user = await usersService.findById(tx, userId);
        if (!user) throw notFound('Member not found.');
        await twoFactorRepository.removeAll(tx, userId);
        await sessions.endAllForUser(userId, { db: tx });
        await mailer.send(
          { to: user.email, ...twoFactorResetMail({ workspaceName: workspace.name, securityUrl }) },
          {
            db: tx,
          },
        );
        await audit(tx, {
          action: 'two_factor.reset_by_admin',
          actorUserId: actor.userId,
          workspaceId: workspace.id,
          subjectId: userId,
        });
      });
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
