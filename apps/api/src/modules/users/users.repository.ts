import type { Db } from '../../db/connection.js';
import type { NewUser, User, UserUpdate } from '../../db/tables.js';

export const usersRepository = {
  findByEmail(db: Db, email: string): Promise<User | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
  },

  findById(db: Db, id: string, options: { lock?: boolean } = {}): Promise<User | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .$if(options.lock === true, (q) => q.forUpdate())
      .executeTakeFirst();
  },

  async insert(db: Db, user: NewUser): Promise<User> {
    return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  },

  async update(db: Db, id: string, changes: UserUpdate): Promise<User> {
    return db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** The workspace the user lands in; not a change of their account, so updated_at stays. */
  async setCurrentWorkspace(db: Db, id: string, workspaceId: string): Promise<void> {
    await db.updateTable('users').set({ current_workspace_id: workspaceId }).where('id', '=', id).execute();
  },
};
