import { type Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, createTestApp, signUp, type TestApp } from '../../../test/harness.js';
import { migrateToLatest } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';

/**
 * 202612060200_prove_sso_domains_by_dns on a database that has domains verified the old way (an
 * admin's own address, vouched for by the workspace's own identity provider: issue 29): they are
 * verified no longer, each gets a token for its TXT record, and the un-verification is audited.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the migration to domains proved by DNS', () => {
  it('un-verifies domains verified by the identity provider alone, gives each a token and audits it', async () => {
    const owner = await signUp(t.app, 'admin@old-proof.test');
    const migrator = new Migrator({
      db: t.db as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
    });
    const down = await migrator.migrateTo('202612050100_create_work_rollups');
    expect(down.error).toBeUndefined();
    await sql`insert into workspace_sso_domains (workspace_id, domain, verified_at, verified_by_user_id)
              values (${owner.workspaceId}, 'old-proof.test', now(), ${owner.userId}),
                     (${owner.workspaceId}, 'pending.test', null, null)`.execute(t.db);

    expect(await migrateToLatest(t.db)).toContain('202612060200_prove_sso_domains_by_dns');
    const rows = await t.db
      .selectFrom('workspace_sso_domains')
      .select(['domain', 'verified_at', 'verified_by_user_id', 'proof_token'])
      .where('workspace_id', '=', owner.workspaceId)
      .orderBy('domain')
      .execute();
    expect(rows).toEqual([
      { domain: 'old-proof.test', verified_at: null, verified_by_user_id: null, proof_token: expect.any(String) },
      { domain: 'pending.test', verified_at: null, verified_by_user_id: null, proof_token: expect.any(String) },
    ]);
    expect(rows[0]?.proof_token).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.proof_token).not.toBe(rows[1]?.proof_token);
    const audited = await auditTrail(t.db, { workspaceId: owner.workspaceId, action: 'sso.domain_unverified' });
    expect(audited).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ domain: 'old-proof.test' }) }),
    ]);
  });
});
