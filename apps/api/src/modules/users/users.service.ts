import type { Db } from '../../db/connection.js';
import type { NewUser, User, UserUpdate } from '../../db/tables.js';
import { usersRepository } from './users.repository.js';

/**
 * The users table's one door for other modules (auth, me, invites, scim, sso): they read and write accounts
 * through these, inside their own transaction when they pass one.
 */
/** What a person changes of their own account in their settings. */
export type ProfileChanges = Pick<
  UserUpdate,
  'name' | 'time_zone' | 'week_start' | 'date_format' | 'time_format' | 'duration_format' | 'current_workspace_id'
>;

export const usersService = {
  /** By address, whatever its case. */
  findByEmail: (db: Db, email: string): Promise<User | undefined> => usersRepository.findByEmail(db, email),
  findById: (db: Db, id: string): Promise<User | undefined> => usersRepository.findById(db, id),
  /** The user's row, locked until the caller's transaction ends (changes that depend on what the account has left). */
  lockById: (tx: Db, id: string): Promise<User | undefined> => usersRepository.findById(tx, id, { lock: true }),
  /** A new account: signing up, accepting an invitation, or made by SCIM. */
  insert: (db: Db, user: NewUser): Promise<User> => usersRepository.insert(db, user),
  /** The person's own settings (modules/me). */
  updateProfile: (db: Db, id: string, changes: ProfileChanges): Promise<User> =>
    usersRepository.update(db, id, changes),
  /** The workspace the user works in next (signed up, joined by invitation); answers the account. */
  enterWorkspace: (db: Db, id: string, workspaceId: string): Promise<User> =>
    usersRepository.update(db, id, { current_workspace_id: workspaceId }),
  /** The address and name of an account SCIM made (it alone may change them). */
  changeIdentity: (db: Db, id: string, changes: { email: string; name: string }): Promise<User> =>
    usersRepository.update(db, id, changes),
  /** A new password the person chose, knowing the old one. */
  changePassword: (db: Db, id: string, passwordHash: string): Promise<User> =>
    usersRepository.update(db, id, { password_hash: passwordHash }),
  /** A password set through a reset link, which also proves the address (`emailVerifiedAt`: kept when it was). */
  resetPassword: (db: Db, id: string, input: { passwordHash: string; emailVerifiedAt: Date }): Promise<User> =>
    usersRepository.update(db, id, {
      password_hash: input.passwordHash,
      has_password: true,
      email_verified_at: input.emailVerifiedAt,
    }),
  /** The address proved by its confirmation link. */
  markEmailVerified: (db: Db, id: string): Promise<User> =>
    usersRepository.update(db, id, { email_verified_at: new Date() }),
  /** Where the user lands after signing in (SSO's just-in-time join). */
  setCurrentWorkspace: (db: Db, id: string, workspaceId: string): Promise<void> =>
    usersRepository.setCurrentWorkspace(db, id, workspaceId),
};
