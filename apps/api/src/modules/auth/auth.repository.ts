import type { Db } from '../../db/connection.js';

export const authRepository = {
  /** Records a log-in attempt; answers its id. */
  async recordAttempt(db: Db, attempt: { email: string; ip: string; success: boolean }): Promise<number> {
    const row = await db.insertInto('login_attempts').values(attempt).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  },

  async markAttemptSucceeded(db: Db, id: number): Promise<void> {
    await db.updateTable('login_attempts').set({ success: true }).where('id', '=', id).execute();
  },

  async deleteAttempt(db: Db, id: number): Promise<void> {
    await db.deleteFrom('login_attempts').where('id', '=', id).execute();
  },

  /** Failed attempts since a moment (leaving out one, when given), for one e-mail and for one IP address. */
  async countFailuresSince(db: Db, input: { email: string; ip: string; since: Date; exceptId?: number }) {
    const row = await db
      .selectFrom('login_attempts')
      .select((eb) => [
        eb.fn.countAll<number>().filterWhere('email', '=', input.email).as('byEmail'),
        eb.fn.countAll<number>().filterWhere('ip', '=', input.ip).as('byIp'),
      ])
      .where('success', '=', false)
      .where('created_at', '>', input.since)
      .where((eb) => eb.or([eb('email', '=', input.email), eb('ip', '=', input.ip)]))
      .$if(input.exceptId !== undefined, (q) => q.where('id', '!=', input.exceptId ?? 0))
      .executeTakeFirstOrThrow();
    return { byEmail: Number(row.byEmail), byIp: Number(row.byIp) };
  },

  async insertReset(db: Db, reset: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
    await db
      .insertInto('password_resets')
      .values({ token_hash: reset.tokenHash, user_id: reset.userId, expires_at: reset.expiresAt })
      .execute();
  },

  async countResetsSince(db: Db, userId: string, since: Date): Promise<number> {
    const row = await db
      .selectFrom('password_resets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The reset row, locked for the rest of the transaction so a link is used once only. */
  findResetForUpdate(db: Db, tokenHash: string) {
    return db
      .selectFrom('password_resets')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .forUpdate()
      .executeTakeFirst();
  },

  findReset(db: Db, tokenHash: string) {
    return db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  },

  async markResetUsed(db: Db, tokenHash: string, userId: string): Promise<void> {
    const now = new Date();
    await db.updateTable('password_resets').set({ used_at: now }).where('token_hash', '=', tokenHash).execute();
    // Older links of the same user stop working too.
    await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  },
};
