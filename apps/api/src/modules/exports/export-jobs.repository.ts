import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { ExportJobStatus } from '../../db/tables/export-jobs.js';

const COLUMNS = [
  'id',
  'workspace_id',
  'owner_user_id',
  'kind',
  'format',
  'query',
  'status',
  'attempt',
  'rows_done',
  'rows_total',
  'file_name',
  'content_type',
  'size_bytes',
  'content_encoding',
  'stored_bytes',
  'error',
  'created_at',
  'finished_at',
  'expires_at',
] as const;

export type ExportJobRow = NonNullable<Awaited<ReturnType<(typeof exportJobsRepository)['find']>>>;

/** SQL of export jobs and their file chunks; every query is scoped to a workspace. */
export const exportJobsRepository = {
  async insert(
    db: Db,
    row: {
      id: string;
      workspaceId: string;
      ownerUserId: string;
      kind: string;
      format: 'csv' | 'xlsx' | 'pdf';
      query: string;
    },
  ): Promise<void> {
    await db
      .insertInto('export_jobs')
      .values({
        id: row.id,
        workspace_id: row.workspaceId,
        owner_user_id: row.ownerUserId,
        kind: row.kind,
        format: row.format,
        query: row.query,
      })
      .execute();
  },

  find(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom('export_jobs')
      .select(COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  listForOwner(db: Db, workspaceId: string, ownerUserId: string, limit: number) {
    return db
      .selectFrom('export_jobs')
      .select(COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('owner_user_id', '=', ownerUserId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  /** Starts run `attempt`: the chunks of earlier runs go, progress starts again. */
  async start(db: Db, workspaceId: string, id: string, attempt: number, now: Date): Promise<void> {
    await db.deleteFrom('export_job_chunks').where('workspace_id', '=', workspaceId).where('job_id', '=', id).execute();
    await db
      .updateTable('export_jobs')
      .set({ status: 'running', attempt, rows_done: 0, rows_total: null, error: null, started_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async progress(db: Db, workspaceId: string, id: string, attempt: number, rows: { done: number; total?: number }) {
    await db
      .updateTable('export_jobs')
      .set({ rows_done: rows.done, ...(rows.total === undefined ? {} : { rows_total: rows.total }) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('attempt', '=', attempt)
      .where('status', '=', 'running')
      .execute();
  },

  async insertChunk(db: Db, chunk: { workspaceId: string; jobId: string; attempt: number; seq: number; data: Buffer }) {
    await db
      .insertInto('export_job_chunks')
      .values({
        workspace_id: chunk.workspaceId,
        job_id: chunk.jobId,
        attempt: chunk.attempt,
        seq: chunk.seq,
        data: chunk.data,
      })
      .execute();
  },

  /**
   * Marks run `attempt` done (in the caller's transaction, with its last chunk), and drops any
   * chunk another run left; answers false when another run owns the job now.
   */
  async finish(
    db: Db,
    job: { workspaceId: string; id: string; attempt: number },
    file: {
      fileName: string;
      contentType: string;
      sizeBytes: number;
      /** How the chunks hold the file, and how many bytes they hold. */
      contentEncoding: 'gzip' | null;
      storedBytes: number;
      rows: number;
      now: Date;
      expiresAt: Date;
    },
  ): Promise<boolean> {
    const result = await db
      .updateTable('export_jobs')
      .set({
        status: 'done',
        rows_done: file.rows,
        rows_total: file.rows,
        file_name: file.fileName,
        content_type: file.contentType,
        size_bytes: file.sizeBytes,
        content_encoding: file.contentEncoding,
        stored_bytes: file.storedBytes,
        finished_at: file.now,
        expires_at: file.expiresAt,
      })
      .where('workspace_id', '=', job.workspaceId)
      .where('id', '=', job.id)
      .where('attempt', '=', job.attempt)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await db
      .deleteFrom('export_job_chunks')
      .where('workspace_id', '=', job.workspaceId)
      .where('job_id', '=', job.id)
      .where('attempt', '!=', job.attempt)
      .execute();
    return true;
  },

  async fail(db: Db, workspaceId: string, id: string, error: string, now: Date): Promise<void> {
    await db.deleteFrom('export_job_chunks').where('workspace_id', '=', workspaceId).where('job_id', '=', id).execute();
    await db
      .updateTable('export_jobs')
      .set({ status: 'failed', error, finished_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  },

  /** The ids of the file's chunks in order (read one at a time while the download streams). */
  async chunkSeqs(db: Db, workspaceId: string, id: string, attempt: number): Promise<number[]> {
    const rows = await db
      .selectFrom('export_job_chunks')
      .select('seq')
      .where('workspace_id', '=', workspaceId)
      .where('job_id', '=', id)
      .where('attempt', '=', attempt)
      .orderBy('seq')
      .execute();
    return rows.map((r) => r.seq);
  },

  async chunk(db: Db, workspaceId: string, id: string, attempt: number, seq: number): Promise<Buffer> {
    const row = await db
      .selectFrom('export_job_chunks')
      .select('data')
      .where('workspace_id', '=', workspaceId)
      .where('job_id', '=', id)
      .where('attempt', '=', attempt)
      .where('seq', '=', seq)
      .executeTakeFirstOrThrow();
    return Buffer.from(row.data);
  },

  /** Removes expired files (chunks and job rows alike) and job records older than a week. */
  async purge(db: Db, now: Date, keepRecordsMs: number): Promise<number> {
    const expired = await db
      .deleteFrom('export_job_chunks')
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('export_jobs as j')
            .select(sql`1`.as('one'))
            .whereRef('j.id', '=', 'export_job_chunks.job_id')
            .where('j.expires_at', '<=', now),
        ),
      )
      .executeTakeFirst();
    await db
      .deleteFrom('export_jobs')
      .where('created_at', '<', new Date(now.getTime() - keepRecordsMs))
      .where('status', 'in', ['done', 'failed'])
      .execute();
    return Number(expired.numDeletedRows ?? 0);
  },

  countChunks(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom('export_job_chunks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('job_id', '=', id)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },
};

export type { ExportJobStatus };
