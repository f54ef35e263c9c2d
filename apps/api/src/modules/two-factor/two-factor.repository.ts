import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';

/** SQL of two-factor authentication: seeds, recovery codes, sign-in challenges, workspace policies. */
export const twoFactorRepository = {
  findTotp(db: Db, userId: string) {
    return db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
  },

  /** A new seed waiting for its first code (replacing one that waited). */
  async saveUnconfirmedTotp(db: Db, userId: string, secretSealed: string): Promise<void> {
    await db
      .insertInto('user_totp')
      .values({ user_id: userId, secret_sealed: secretSealed, enabled_at: null, last_time_step: null })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ secret_sealed: secretSealed, enabled_at: null, last_time_step: null }),
      )
      .execute();
  },

  /**
   * Records that a code of `timeStep` was accepted; false when this or a later step was accepted
   * already (a code used twice, or two requests racing with one code).
   */
  async claimTimeStep(db: Db, userId: string, timeStep: number): Promise<boolean> {
    const result = await db
      .updateTable('user_totp')
      .set({ last_time_step: timeStep })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', timeStep)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async markEnabled(db: Db, userId: string, at: Date): Promise<void> {
    await db.updateTable('user_totp').set({ enabled_at: at }).where('user_id', '=', userId).execute();
  },

  /** Forgets the seed, the recovery codes and the devices that proved a code. */
  async removeAll(db: Db, userId: string): Promise<void> {
    await db.deleteFrom('two_factor_devices').where('user_id', '=', userId).execute();
    await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
    await db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
  },

  /** Remembers that the user completed a second step on the device; forgets their devices that have not since `forgetBefore`. */
  async markDeviceProved(
    db: Db,
    input: { userId: string; deviceHash: string; at: Date; forgetBefore: Date },
  ): Promise<void> {
    await db
      .deleteFrom('two_factor_devices')
      .where('user_id', '=', input.userId)
      .where('proved_at', '<', input.forgetBefore)
      .execute();
    await db
      .insertInto('two_factor_devices')
      .values({ user_id: input.userId, device_hash: input.deviceHash, proved_at: input.at })
      .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doUpdateSet({ proved_at: input.at }))
      .execute();
  },

  /** Whether the user completed a second step on the device since `since`. */
  async isProvedDevice(db: Db, input: { userId: string; deviceHash: string; since: Date }): Promise<boolean> {
    const row = await db
      .selectFrom('two_factor_devices')
      .select('device_hash')
      .where('user_id', '=', input.userId)
      .where('device_hash', '=', input.deviceHash)
      .where('proved_at', '>=', input.since)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Replaces the user's recovery codes: the old ones stop working. */
  async replaceRecoveryCodes(db: Db, userId: string, codeHashes: string[]): Promise<void> {
    await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
    await db
      .insertInto('user_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ code_hash, user_id: userId, used_at: null })))
      .execute();
  },

  /** Uses a recovery code up; false when it is not the user's or was used. */
  async useRecoveryCode(db: Db, userId: string, codeHash: string, at: Date): Promise<boolean> {
    const result = await db
      .updateTable('user_recovery_codes')
      .set({ used_at: at })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
    const row = await db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insertChallenge(
    db: Db,
    challenge: { tokenHash: string; userId: string; remember: boolean; expiresAt: Date; viaWorkspaceId?: string },
  ): Promise<void> {
    await db
      .insertInto('two_factor_challenges')
      .values({
        token_hash: challenge.tokenHash,
        user_id: challenge.userId,
        remember: challenge.remember,
        expires_at: challenge.expiresAt,
        via_workspace_id: challenge.viaWorkspaceId ?? null,
      })
      .execute();
  },

  findChallenge(db: Db, tokenHash: string, now: Date) {
    return db
      .selectFrom('two_factor_challenges')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  },

  /** Uses a challenge up; false when another request did first. */
  async deleteChallenge(db: Db, tokenHash: string): Promise<boolean> {
    const result = await db.deleteFrom('two_factor_challenges').where('token_hash', '=', tokenHash).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async purgeChallenges(db: Db, now: Date): Promise<void> {
    await db.deleteFrom('two_factor_challenges').where('expires_at', '<=', now).execute();
  },

  /** The active memberships' workspaces of a user that require two-factor authentication. */
  workspacesRequiring(db: Db, userId: string) {
    return db
      .selectFrom('memberships as m')
      .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .innerJoin('workspace_two_factor_policies as p', 'p.workspace_id', 'w.id')
      .select(['w.id', 'w.plan', 'w.trial_ends_at'])
      .where('m.user_id', '=', userId)
      .where('m.status', '=', 'active')
      .where('p.required', '=', true)
      .execute();
  },

  async findPolicy(db: Db, workspaceId: string): Promise<boolean> {
    const row = await db
      .selectFrom('workspace_two_factor_policies')
      .select('required')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.required ?? false;
  },

  async savePolicy(db: Db, workspaceId: string, required: boolean): Promise<void> {
    await db
      .insertInto('workspace_two_factor_policies')
      .values({ workspace_id: workspaceId, required })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ required, updated_at: sql`now()` }))
      .execute();
  },

  /** The membership of a user in a workspace (any status), for an admin's reset. */
  findMembership(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('memberships')
      .select(['role', 'status'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('status', '!=', 'removed')
      .executeTakeFirst();
  },
};
