import { Readable } from 'node:stream';
import {
  type AuditEntryView,
  type AuditLogPage,
  type AuditLogQuery,
  type AuditSettingsBody,
  type AuditSettingsView,
  type AuditVerifyView,
  auditLogQuery,
  auditSettingsBody,
} from '@sundial/core';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import {
  auditChain,
  type ChainHead,
  chainHash,
  GENESIS,
  pruneAuditChain,
  sealAuditChain,
} from '../../platform/audit-chain.js';
import { validationError } from '../../platform/errors.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import { safeText } from '../exports/exports.format.js';
import { type AuditRow, auditLogRepository as repo } from './audit-log.repository.js';

/** Seals each workspace's new audit records into its hash chain, every minute. */
export const sealAuditJob = defineJob('audit-log.seal', z.object({}));

/** Removes records older than each workspace's retention, once a day. */
export const pruneAuditJob = defineJob('audit-log.prune', z.object({}));

const DAY_MS = 86_400_000;

/** Records read per page while a chain is walked, and per page of a CSV. */
const BATCH = 2_000;

const encodeCursor = (row: AuditRow) => Buffer.from(`${row.created_exact}|${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { exact: string; id: string } {
  const [exact = '', id = ''] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(exact) || !/^[0-9a-f-]{36}$/.test(id)) {
    throw validationError({ cursor: 'This cursor is not one this list gave.' });
  }
  return { exact, id };
}

const view = (row: AuditRow): AuditEntryView => ({
  id: row.id,
  action: row.action,
  actor:
    row.actor_user_id && row.actor_email
      ? { id: row.actor_user_id, name: row.actor_name ?? '', email: row.actor_email }
      : null,
  apiKey: row.api_key_id ? { id: row.api_key_id, name: row.api_key_name } : null,
  ip: row.ip,
  subjectId: row.subject_id,
  detail: row.detail,
  createdAt: new Date(row.created_at).toISOString(),
  seq: row.seq === null ? null : Number(row.seq),
});

/**
 * The audit log people read (issue 34): a workspace's owners and admins page through it with
 * filters, and check its hash chain; a job seals new records into the chain every minute.
 */
export function createAuditLogService(deps: { db: Db; jobs?: JobRunner }) {
  const { db } = deps;

  /** Seals the workspace's records not sealed yet; answers how many. */
  const sealWorkspace = (workspaceId: string) => sealAuditChain(db, workspaceId);

  /** Walks the workspace's chain from its first record to its head. */
  async function verifyWorkspace(workspaceId: string): Promise<AuditVerifyView> {
    await sealWorkspace(workspaceId);
    const head = (await auditChain.head(db, workspaceId)) ?? null;
    // Records pruned by the retention setting are gone by design: the walk starts after them.
    const prunedThrough = head?.prunedSeq ?? 0;
    let previous = head?.prunedHash ?? GENESIS;
    let expected = prunedThrough + 1;
    for (;;) {
      const page = await auditChain.sealedAfter(db, workspaceId, expected - 1, BATCH);
      for (const record of page) {
        if (record.seq !== expected) {
          return broken(head, expected - 1 - prunedThrough, {
            seq: expected,
            id: null,
            reason: 'missing',
            message: `Record ${expected} of the chain is missing: it was deleted.`,
          });
        }
        if (chainHash(previous, record.seq, record) !== record.hash) {
          return broken(head, expected - 1 - prunedThrough, {
            seq: record.seq,
            id: record.id,
            reason: 'altered',
            message: `Record ${record.seq} (${record.action}) does not match its seal: it was changed after it was written.`,
          });
        }
        previous = record.hash;
        expected += 1;
      }
      if (page.length < BATCH) break;
    }
    const last = expected - 1;
    if (head && (head.seq !== last || head.hash !== previous)) {
      return broken(head, last - prunedThrough, {
        seq: last + 1,
        id: null,
        reason: 'truncated',
        message: `The chain ends at record ${last}, but ${head.seq} were sealed: the newest were deleted.`,
      });
    }
    return { ok: true, checked: last - prunedThrough, prunedThrough, head: head && headView(head), broken: null };
  }

  const headView = (head: ChainHead) => ({ seq: head.seq, hash: head.hash });
  const broken = (
    head: ChainHead | null,
    checked: number,
    found: NonNullable<AuditVerifyView['broken']>,
  ): AuditVerifyView => ({
    ok: false,
    checked,
    prunedThrough: head?.prunedSeq ?? 0,
    head: head && headView(head),
    broken: found,
  });

  return {
    sealWorkspace,
    verifyWorkspace,

    /** Seals every workspace's new records (the minute's job). */
    async sealAll(): Promise<number> {
      let sealed = 0;
      for (const workspaceId of await auditChain.unsealedWorkspaces(db, 1_000))
        sealed += await sealWorkspace(workspaceId);
      return sealed;
    },

    async list(actor: Actor, input: AuditLogQuery): Promise<AuditLogPage> {
      assertCan(actor, 'audit:view');
      const { limit, cursor, ...filter } = auditLogQuery.parse(input);
      const rows = await repo.list(db, actor.membership.workspace.id, {
        ...filter,
        limit: limit + 1,
        ...(cursor ? { before: decodeCursor(cursor) } : {}),
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { items: page.map(view), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    /**
     * The records the filters match, oldest last as listed, as CSV: read a page at a time and
     * streamed, text a spreadsheet would run as a formula made inert.
     */
    exportCsv(actor: Actor, input: AuditLogQuery): Readable {
      assertCan(actor, 'audit:view');
      const { limit: _limit, cursor: _cursor, ...filter } = auditLogQuery.parse(input);
      const workspaceId = actor.membership.workspace.id;
      async function* lines() {
        yield stringify([
          [
            'Time (UTC)',
            'Person',
            'E-mail',
            'API key',
            'IP address',
            'Action',
            'Object',
            'Details',
            'Sealed as',
            'Record',
          ],
        ]);
        let before: { exact: string; id: string } | undefined;
        for (;;) {
          const rows = await repo.list(db, workspaceId, { ...filter, limit: BATCH, ...(before ? { before } : {}) });
          yield stringify(
            rows.map((row) => [
              row.created_exact,
              safeText(row.actor_name ?? ''),
              safeText(row.actor_email ?? ''),
              safeText(row.api_key_id ? (row.api_key_name ?? row.api_key_id) : ''),
              row.ip ?? '',
              row.action,
              row.subject_id ?? '',
              safeText(JSON.stringify(row.detail)),
              row.seq ?? '',
              row.id,
            ]),
          );
          const last = rows.at(-1);
          if (!last || rows.length < BATCH) return;
          before = { exact: last.created_exact, id: last.id };
        }
      }
      return Readable.from(lines());
    },

    /** How long the workspace keeps its records. */
    async settings(actor: Actor): Promise<AuditSettingsView> {
      assertCan(actor, 'audit:view');
      return { retentionDays: await repo.retention(db, actor.membership.workspace.id) };
    },

    /** Sets the retention (the owner's call: a shorter one removes history at the next daily prune). */
    async saveSettings(actor: Actor, input: AuditSettingsBody): Promise<AuditSettingsView> {
      assertCan(actor, 'audit:settings');
      const { retentionDays } = auditSettingsBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const before = await repo.retention(tx, workspaceId);
        if (before === retentionDays) return;
        await repo.setRetention(tx, workspaceId, retentionDays);
        await audit(tx, {
          action: 'audit_settings.updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: { changes: changesOf({ retentionDays: before }, { retentionDays }) },
        });
      });
      return { retentionDays };
    },

    /** Removes, in every workspace with a retention, the records older than it; answers how many. */
    async pruneAll(now: Date): Promise<number> {
      let removed = 0;
      for (const { workspace_id, retention_days } of await repo.withRetention(db)) {
        if (retention_days === null) continue;
        removed += await pruneAuditChain(db, workspace_id, new Date(now.getTime() - retention_days * DAY_MS));
      }
      return removed;
    },

    async verify(actor: Actor): Promise<AuditVerifyView> {
      assertCan(actor, 'audit:view');
      return verifyWorkspace(actor.membership.workspace.id);
    },

    registerJobs(): void {
      const jobs = deps.jobs;
      if (!jobs) return;
      jobs.register(sealAuditJob, async () => {
        await this.sealAll();
      });
      jobs.schedule(sealAuditJob, '* * * * *', {});
      jobs.register(pruneAuditJob, async (_payload, { now }) => {
        await this.pruneAll(now);
      });
      jobs.schedule(pruneAuditJob, '41 3 * * *', {});
    },
  };
}
