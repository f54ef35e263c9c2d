import { messages } from '@sundial/core';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import { audit } from '../../platform/audit.js';
import { AppError, validationError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import { checkNewPassword, hashPassword, verifyDecoy, verifyPassword } from '../../platform/passwords.js';
import type { SessionStore, StartedSession } from '../../platform/sessions.js';
import { usersRepository } from '../users/users.repository.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { passwordResetMail } from './auth.mails.js';
import { authRepository } from './auth.repository.js';

const LOGIN_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_EMAIL = 10;
const MAX_FAILURES_PER_IP = 50;
const RESET_LINK_MS = 60 * 60_000;
const MAX_RESET_MAILS_PER_HOUR = 5;

export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

export interface AuthServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  mailer: Mailer;
  sessions: SessionStore;
  workspaces: WorkspacesService;
}

function assertAcceptablePassword(password: string, field: string): void {
  const problem = checkNewPassword(password);
  if (problem) throw validationError({ [field]: problem });
}

export function createAuthService({ db, config, mailer, sessions, workspaces }: AuthServiceDeps) {
  /**
   * Records a password guess for an account and an address, and answers its id; 429 with
   * Retry-After when either had too many failures lately. The attempt is written down as a
   * failure before it is counted and before the password is checked, so guesses sent in
   * parallel all see each other: no batch slips past the limit.
   */
  async function startAttempt(email: string, ip: string): Promise<number> {
    const since = new Date(Date.now() - LOGIN_WINDOW_MS);
    const attemptId = await authRepository.recordAttempt(db, { email, ip, success: false });
    const failures = await authRepository.countFailuresSince(db, { email, ip, since, exceptId: attemptId });
    if (failures.byEmail >= MAX_FAILURES_PER_EMAIL || failures.byIp >= MAX_FAILURES_PER_IP) {
      // A refused attempt checked no password: it is not a guess and does not extend the lock.
      await authRepository.deleteAttempt(db, attemptId);
      throw new AppError('too_many_attempts', messages.tooManyAttempts, {
        status: 429,
        headers: { 'retry-after': String(LOGIN_WINDOW_MS / 1000) },
      });
    }
    return attemptId;
  }

  return {
    /**
     * Creates the user and a workspace they own (14-day Pro trial) in one transaction, and
     * signs them in. Throws 409 email_taken when the address has an account.
     */
    async signup(
      input: { email: string; password: string; phone?: string; timeZone?: string },
      client: ClientInfo,
    ): Promise<{ user: User; session: StartedSession }> {
      assertAcceptablePassword(input.password, 'password');
      const passwordHash = await hashPassword(input.password);
      const emailTaken = () =>
        new AppError('email_taken', messages.emailTaken, { status: 409, fields: { email: messages.emailTaken } });
      try {
        return await db.transaction().execute(async (tx) => {
          if (await usersRepository.findByEmail(tx, input.email)) throw emailTaken();
          const userId = newId();
          await usersRepository.insert(tx, {
            id: userId,
            email: input.email,
            password_hash: passwordHash,
            phone: input.phone ?? null,
            time_zone: input.timeZone ?? 'UTC',
          });
          const { workspace } = await workspaces.createOwned({
            userId,
            name: `${input.email.split('@')[0]}'s workspace`,
            tx,
          });
          const user = await usersRepository.update(tx, userId, { current_workspace_id: workspace.id });
          await audit(tx, { action: 'user.signed_up', actorUserId: userId, workspaceId: workspace.id });
          const session = await sessions.start({ userId, remember: false, ...client, db: tx });
          return { user, session };
        });
      } catch (error) {
        // Two sign-ups racing for one address: the unique index decides.
        if ((error as { code?: string }).code === '23505') throw emailTaken();
        throw error;
      }
    },

    /**
     * Signs in with e-mail and password. Never tells which of the two was wrong; after too many
     * failures for the account or the address it answers 429 with Retry-After.
     */
    async login(
      input: { email: string; password: string; remember?: boolean },
      client: ClientInfo,
    ): Promise<{ user: User; session: StartedSession }> {
      const attemptId = await startAttempt(input.email, client.ip);
      const user = await usersRepository.findByEmail(db, input.email);
      let ok = false;
      if (user) ok = await verifyPassword(user.password_hash, input.password);
      else await verifyDecoy(input.password);
      if (ok) await authRepository.markAttemptSucceeded(db, attemptId);
      if (!user || !ok) throw new AppError('wrong_credentials', messages.wrongCredentials, { status: 401 });
      const session = await sessions.start({ userId: user.id, remember: input.remember ?? false, ...client });
      return { user, session };
    },

    logout(secret: string): Promise<void> {
      return sessions.end(secret);
    },

    /** E-mails a single-use link valid for one hour; silent when the account does not exist. */
    async forgotPassword(email: string): Promise<void> {
      const user = await usersRepository.findByEmail(db, email);
      if (!user) return;
      const recent = await authRepository.countResetsSince(db, user.id, new Date(Date.now() - 60 * 60_000));
      if (recent >= MAX_RESET_MAILS_PER_HOUR) return;
      const token = newSecret();
      await authRepository.insertReset(db, {
        tokenHash: hashSecret(token),
        userId: user.id,
        expiresAt: new Date(Date.now() + RESET_LINK_MS),
      });
      const link = `${config.publicUrl}/password?token=${encodeURIComponent(token)}`;
      await mailer.send({ to: user.email, ...passwordResetMail(link) });
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
        await usersRepository.update(tx, reset.user_id, { password_hash: passwordHash });
        await authRepository.markResetUsed(tx, tokenHash, reset.user_id);
        await sessions.endAllForUser(reset.user_id, { db: tx });
        await audit(tx, { action: 'user.password_reset', actorUserId: reset.user_id, subjectId: reset.user_id });
      });
    },

    /** Changes the password of a signed-in user and ends their other sessions; guesses share the log-in limit (429). */
    async changePassword(input: {
      user: User;
      currentPassword: string;
      newPassword: string;
      keepSessionSecret: string;
      client: ClientInfo;
    }): Promise<void> {
      // Guessing the current password counts against the same limit as log-in guesses.
      const attemptId = await startAttempt(input.user.email.toLowerCase(), input.client.ip);
      if (!(await verifyPassword(input.user.password_hash, input.currentPassword))) {
        throw validationError({ currentPassword: messages.currentPasswordWrong });
      }
      await authRepository.markAttemptSucceeded(db, attemptId);
      assertAcceptablePassword(input.newPassword, 'newPassword');
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction().execute(async (tx) => {
        await usersRepository.update(tx, input.user.id, { password_hash: passwordHash });
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
