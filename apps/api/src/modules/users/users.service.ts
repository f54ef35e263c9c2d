import type { Db } from '../../db/connection.js';
import type { NewUser, User, UserUpdate } from '../../db/tables.js';
import { usersRepository } from './users.repository.js';

/**
 * The users table's one door for other modules (auth, me, invites, scim, sso): they read and write accounts
 * through these, inside their own transaction when they pass one.
 */
export const usersService = {
  /** By address, whatever its case. */
  findByEmail: (db: Db, email: string): Promise<User | undefined> => usersRepository.findByEmail(db, email),
  findById: (db: Db, id: string): Promise<User | undefined> => usersRepository.findById(db, id),
  /** The user's row, locked until the caller's transaction ends (changes that depend on what the account has left). */
  lockById: (tx: Db, id: string): Promise<User | undefined> => usersRepository.findById(tx, id, { lock: true }),
  insert: (db: Db, user: NewUser): Promise<User> => usersRepository.insert(db, user),
  update: (db: Db, id: string, changes: UserUpdate): Promise<User> => usersRepository.update(db, id, changes),
  /** Where the user lands after signing in (SSO's just-in-time join). */
  setCurrentWorkspace: (db: Db, id: string, workspaceId: string): Promise<void> =>
    usersRepository.setCurrentWorkspace(db, id, workspaceId),
};
