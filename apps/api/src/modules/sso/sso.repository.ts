import { type Insertable, sql, type Updateable } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import type { SsoPendingLinksTable, SsoStatesTable, WorkspaceSsoTable } from '../../db/tables/sso.js';
import { newId } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';

export const ssoRepository = {
  async findIdentity(db: Db, provider: string, subject: string) {
    return db
      .selectFrom('user_identities')
      .selectAll()
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
  },

  /** Links an account to a provider's subject; false when that subject is already linked (a race). */
  async insertIdentity(db: Db, input: { userId: string; provider: string; subject: string; email: string }) {
    const row = await db
      .insertInto('user_identities')
      .values({
        id: newId(),
        user_id: input.userId,
        provider: input.provider,
        subject: input.subject,
        email: input.email,
      })
      .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** The user's linked identities, oldest first, with the name of the workspace a workspace provider belongs to. */
  async listIdentities(db: Db, userId: string) {
    return (
      db
        .selectFrom('user_identities as i')
        // By the workspace's primary key: the provider of a workspace's SSO is 'workspace:<its id>'.
        .leftJoin('workspaces as w', (join) =>
          join.on(sql<boolean>`w.id = case when i.provider like 'workspace:%' then substr(i.provider, 11)::uuid end`),
        )
        .select(['i.id', 'i.provider', 'i.email', 'i.created_at', 'w.id as workspace_id', 'w.name as workspace_name'])
        .where('i.user_id', '=', userId)
        .orderBy('i.created_at')
        .orderBy('i.id')
        .execute()
    );
  },

  async deleteIdentity(db: Db, userId: string, id: string) {
    return db
      .deleteFrom('user_identities')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returning(['provider'])
      .executeTakeFirst();
  },

  /** Unlinks every identity of the user and forgets their link requests; answers the providers unlinked. */
  async deleteIdentitiesOf(db: Db, userId: string): Promise<string[]> {
    await db.deleteFrom('sso_pending_links').where('user_id', '=', userId).execute();
    const rows = await db.deleteFrom('user_identities').where('user_id', '=', userId).returning('provider').execute();
    return rows.map((r) => r.provider);
  },

  async insertState(db: Db, state: Insertable<SsoStatesTable>): Promise<void> {
    await db.insertInto('sso_states').values(state).execute();
  },

  /** Takes a sign-in under way, once: deleted as it is read; undefined when unknown or expired. */
  async takeState(db: Db, idHash: string) {
    const row = await db.deleteFrom('sso_states').where('id_hash', '=', idHash).returningAll().executeTakeFirst();
    return row && new Date(row.expires_at) > new Date() ? row : undefined;
  },

  async insertPendingLink(db: Db, link: Insertable<SsoPendingLinksTable>): Promise<void> {
    await db.insertInto('sso_pending_links').values(link).execute();
  },

  async findPendingLink(db: Db, tokenHash: string) {
    return db
      .selectFrom('sso_pending_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
  },

  async deletePendingLink(db: Db, tokenHash: string): Promise<void> {
    await db.deleteFrom('sso_pending_links').where('token_hash', '=', tokenHash).execute();
  },

  /** Forgets sign-ins, link requests and seen assertions past their time. */
  async purgeExpired(db: Db): Promise<void> {
    const now = new Date();
    await db.deleteFrom('sso_states').where('expires_at', '<=', now).execute();
    await db.deleteFrom('sso_pending_links').where('expires_at', '<=', now).execute();
    await db.deleteFrom('saml_assertions_seen').where('expires_at', '<=', now).execute();
  },

  // ---- workspace SSO -------------------------------------------------------------------------

  async findWorkspaceSso(db: Db, workspaceId: string) {
    return db.selectFrom('workspace_sso').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  },

  async saveWorkspaceSso(db: Db, row: Insertable<WorkspaceSsoTable>, update: Updateable<WorkspaceSsoTable>) {
    await db
      .insertInto('workspace_sso')
      .values(row)
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(update))
      .execute();
  },

  async deleteWorkspaceSso(db: Db, workspaceId: string): Promise<boolean> {
    const result = await db.deleteFrom('workspace_sso').where('workspace_id', '=', workspaceId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async listDomains(db: Db, workspaceId: string) {
    return db
      .selectFrom('workspace_sso_domains')
      .select(['domain', 'proof_token', 'verified_at', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('domain')
      .execute();
  },

  async findDomain(db: Db, workspaceId: string, domain: string) {
    return db
      .selectFrom('workspace_sso_domains')
      .select(['domain', 'proof_token', 'verified_at'])
      .where('workspace_id', '=', workspaceId)
      .where('domain', '=', domain)
      .executeTakeFirst();
  },

  /** Adds a domain, unverified, with the token its TXT record must hold; false when the workspace has it already. */
  async insertDomain(db: Db, input: { workspaceId: string; domain: string; proofToken: string }): Promise<boolean> {
    const row = await db
      .insertInto('workspace_sso_domains')
      .values({ workspace_id: input.workspaceId, domain: input.domain, proof_token: input.proofToken })
      .onConflict((oc) => oc.columns(['workspace_id', 'domain']).doNothing())
      .returning('domain')
      .executeTakeFirst();
    return row !== undefined;
  },

  async deleteDomain(db: Db, workspaceId: string, domain: string): Promise<boolean> {
    const result = await db
      .deleteFrom('workspace_sso_domains')
      .where('workspace_id', '=', workspaceId)
      .where('domain', '=', domain)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /**
   * Marks the workspace's claim verified; false when it already was (or is gone). A unique index lets one
   * workspace at most have a domain verified: a second raises a unique violation (23505).
   */
  async markDomainVerified(
    db: Db,
    input: { workspaceId: string; domain: string; proofToken: string; userId: string },
  ): Promise<boolean> {
    const result = await db
      .updateTable('workspace_sso_domains')
      .set({ verified_at: new Date(), verified_by_user_id: input.userId })
      .where('workspace_id', '=', input.workspaceId)
      .where('domain', '=', input.domain)
      // The claim whose token was found: not one removed and listed again meanwhile.
      .where('proof_token', '=', input.proofToken)
      .where('verified_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** The workspace that has the domain verified (one at most), when one has. */
  async findVerifiedDomainOwner(db: Db, domain: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('workspace_sso_domains')
      .select('workspace_id')
      .where('domain', '=', domain)
      .where('verified_at', 'is not', null)
      .executeTakeFirst();
    return row?.workspace_id;
  },

  /** Remembers an accepted SAML assertion until it expires; false when it was seen before (a replay). */
  async markAssertionSeen(db: Db, assertionId: string, expiresAt: Date): Promise<boolean> {
    const row = await db
      .insertInto('saml_assertions_seen')
      .values({ assertion_id: assertionId, expires_at: expiresAt })
      .onConflict((oc) => oc.column('assertion_id').doNothing())
      .returning('assertion_id')
      .executeTakeFirst();
    return row !== undefined;
  },
};

/** Forgets sign-ins under way, link requests and seen SAML assertions once past their time. */
export const purgeSsoJob = defineJob('sso.purge', z.object({}));

export function scheduleSsoPurge(jobs: JobRunner, db: Db): void {
  jobs.register(purgeSsoJob, () => ssoRepository.purgeExpired(db));
  jobs.schedule(purgeSsoJob, '19 * * * *', {});
}
