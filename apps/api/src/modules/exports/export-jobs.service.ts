import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { type CreateExportJobBody, type ExportJobView, exportQuery } from '@sundial/core';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError, notFound } from '../../platform/errors.js';
import { idempotent } from '../../platform/idempotency.js';
import { newId } from '../../platform/ids.js';
import { defineJob, type JobContext, type JobRunner } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import { usersService } from '../users/users.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { type ExportJobRow, exportJobsRepository as repo } from './export-jobs.repository.js';
import type { ExportsService } from './exports.service.js';

/** Runs one export job (docs/decisions/0009-export-jobs.md). */
export const runExportJob = defineJob('exports.run', z.object({ exportJobId: z.uuid(), workspaceId: z.uuid() }));
/** Removes expired files every hour, and old job records. */
const purgeExportsJob = defineJob('exports.purge', z.object({}));

/** A file is kept this long after it is ready. */
export const EXPORT_FILE_TTL_MS = 24 * 3_600_000;
/** A job's record (status, error) stays on Recent exports this long. */
const RECORD_KEEP_MS = 7 * 24 * 3_600_000;
/** Recent exports lists at most this many. */
const RECENT_LIMIT = 50;
/** Progress is written at most this often while a file streams. */
const PROGRESS_EVERY_MS = 500;
/**
 * A text file (CSV) is stored gzipped at a fast level: a seventh of the bytes to store and read
 * back, sent as stored to a client that accepts gzip (every browser). XLSX and PDF are compressed
 * already.
 */
const GZIP_LEVEL = 1;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function view(row: ExportJobRow, now: Date): ExportJobView {
  const total = row.rows_total;
  const expired = row.expires_at !== null && new Date(row.expires_at) <= now;
  const percent =
    row.status === 'done' ? 100 : total ? Math.min(99, Math.floor((row.rows_done * 100) / Math.max(1, total))) : 0;
  return {
    id: row.id,
    kind: row.kind,
    format: row.format,
    query: row.query,
    status: row.status,
    rowsDone: row.rows_done,
    rowsTotal: total,
    percent,
    fileName: row.file_name,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    error: row.error,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: iso(row.finished_at),
    expiresAt: iso(row.expires_at),
    downloadable: row.status === 'done' && !expired,
  };
}

export interface ExportJobFile {
  fileName: string;
  contentType: string;
  /** The bytes `stream` gives. */
  sizeBytes: number;
  /** `gzip`: the stream is the file gzipped (asked for with `acceptsGzip`). */
  contentEncoding?: 'gzip';
  stream: Readable;
}

/** Counts the bytes that pass. */
async function* counting(source: Readable, count: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const piece of source) {
    const buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string);
    count.bytes += buffer.length;
    yield buffer;
  }
}

/**
 * Export jobs: a report too large to download at once is exported in the background as its
 * owner, into the database in chunks, for the owner alone to download for 24 hours. The job
 * re-reads the owner's membership and runs the same export (the same permission checks) as the
 * synchronous download; a retry starts the file again, so a job leaves exactly one file.
 */
export function createExportJobsService(deps: {
  db: Db;
  exports: ExportsService;
  workspaces: Pick<WorkspacesService, 'getMembership'>;
  jobs: JobRunner;
  mailer: Mailer;
  publicUrl: string;
  /** Bytes per stored chunk (about 1 MiB). */
  chunkBytes: number;
  now?: () => Date;
}) {
  const { db, jobs } = deps;
  const clock = deps.now ?? (() => new Date());

  async function get(actor: Actor, id: string): Promise<ExportJobRow> {
    const row = z.uuid().safeParse(id).success ? await repo.find(db, actor.membership.workspace.id, id) : undefined;
    // Someone else's export does not exist for the caller, whatever their role.
    if (!row || row.owner_user_id !== actor.userId) throw notFound('Export not found.');
    return row;
  }

  /** The owner acting in the workspace now, or undefined when they are no longer an active member. */
  async function ownerActor(row: ExportJobRow): Promise<Actor | undefined> {
    const [user, membership] = await Promise.all([
      usersService.findById(db, row.owner_user_id),
      deps.workspaces.getMembership(row.workspace_id, row.owner_user_id).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 404) return undefined;
        throw error;
      }),
    ]);
    if (!user || !membership) return undefined;
    return { user, userId: user.id, membership, via: 'session' };
  }

  async function run(payload: { exportJobId: string; workspaceId: string }, context: JobContext): Promise<void> {
    const { exportJobId: id, workspaceId } = payload;
    const found = await repo.find(db, workspaceId, id);
    if (!found || found.status === 'done' || found.status === 'failed') return;
    const failed = (message: string) => repo.fail(db, workspaceId, id, message, clock());
    const actor = await ownerActor(found);
    if (!actor) return failed('You are no longer a member of this workspace.');
    const attempt = context.attempt;
    // A run killed mid-way left chunks behind: they go before this run writes its own.
    await db.transaction().execute((tx) => repo.start(tx, workspaceId, id, attempt, clock()));
    let rowsDone = 0;
    try {
      const params = new URLSearchParams(found.query);
      params.set('format', found.format);
      const file = await deps.exports.export(actor, params, { onRow: () => rowsDone++ });
      // A stream not read holds its temporary file: a count that failed ends it too.
      const rows = await file.rows.catch((error: unknown) => {
        file.stream.destroy();
        throw error;
      });
      await repo.progress(db, workspaceId, id, attempt, { done: 0, total: rows });
      const plain = { bytes: 0 };
      const gzipped = file.contentType.startsWith('text/');
      let stored: Readable = file.stream;
      let compressing: Promise<void> = Promise.resolve();
      if (gzipped) {
        const gzip = zlib.createGzip({ level: GZIP_LEVEL });
        // An error on either side ends the other; the loop below then throws it.
        compressing = pipeline(counting(file.stream, plain), gzip).catch(() => {});
        stored = gzip;
      }
      let seq = 0;
      let size = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let lastProgress = Date.now();
      try {
        for await (const piece of stored) {
          const buffer = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string);
          pending.push(buffer);
          pendingBytes += buffer.length;
          if (pendingBytes >= deps.chunkBytes) {
            // Pieces of chunkBytes each: a writer may hand over a thousand lines at once.
            let data = Buffer.concat(pending);
            while (data.length >= deps.chunkBytes) {
              const piece = data.subarray(0, deps.chunkBytes);
              await repo.insertChunk(db, { workspaceId, jobId: id, attempt, seq: seq++, data: piece });
              size += piece.length;
              data = data.subarray(deps.chunkBytes);
            }
            pending = data.length ? [data] : [];
            pendingBytes = data.length;
          }
          if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
            lastProgress = Date.now();
            await repo.progress(db, workspaceId, id, attempt, { done: rowsDone });
          }
        }
      } finally {
        // A failed store ends the report's stream (and its temporary file) too.
        file.stream.destroy();
        stored.destroy();
        await compressing;
      }
      const now = clock();
      const last = Buffer.concat(pending);
      const storedBytes = size + last.length;
      await db.transaction().execute(async (tx) => {
        if (last.length > 0 || seq === 0)
          await repo.insertChunk(tx, { workspaceId, jobId: id, attempt, seq: seq++, data: last });
        const done = await repo.finish(
          tx,
          { workspaceId, id, attempt },
          {
            fileName: file.fileName,
            contentType: file.contentType,
            sizeBytes: gzipped ? plain.bytes : storedBytes,
            contentEncoding: gzipped ? 'gzip' : null,
            storedBytes,
            rows,
            now,
            expiresAt: new Date(now.getTime() + EXPORT_FILE_TTL_MS),
          },
        );
        if (done) await deps.mailer.send(readyMail(actor, file.fileName), { db: tx });
      });
    } catch (error) {
      // The report refused (permissions changed, a filter went away): retrying cannot help.
      if (error instanceof AppError && error.status < 500) return failed(error.message);
      if (attempt >= context.maxAttempts) await failed('The export failed. Start it again, or narrow the report.');
      throw error;
    }
  }

  function readyMail(actor: Actor, fileName: string) {
    const link = `${deps.publicUrl}/homepage/exports`;
    const workspace = actor.membership.workspace.name;
    return {
      to: actor.user.email,
      subject: `Your export ${fileName} is ready`,
      text:
        `Your export ${fileName} from ${workspace} is ready.\n\n` +
        `Download it from Recent exports within 24 hours (then it is removed):\n${link}\n`,
    };
  }

  jobs.register(runExportJob, run, { maxAttempts: 3, backoffMs: 5_000 });
  jobs.register(purgeExportsJob, (_payload, { now }) => repo.purge(db, now, RECORD_KEEP_MS).then(() => undefined));
  jobs.schedule(purgeExportsJob, '17 * * * *', {});

  return {
    /**
     * Queues an export of the report `body.query` names as `body.format`, owned by the actor.
     * Throws 422 for a query that is not an export's. With an Idempotency-Key, a retry answers
     * the same job.
     */
    async create(actor: Actor, body: CreateExportJobBody, key: string | undefined): Promise<ExportJobView> {
      assertFeature(actor, 'export');
      const workspaceId = actor.membership.workspace.id;
      const params = new URLSearchParams(body.query.replace(/^\?/, ''));
      params.set('format', body.format);
      // A wrong query is refused now, not when the job runs; permissions are checked when it runs.
      deps.exports.validate(params);
      const kind = exportQuery.parse(Object.fromEntries(params)).kind;
      params.delete('format');
      const id = newId();
      const request = { key, workspaceId, userId: actor.userId, operation: 'exports.jobs.create', body };
      let queued = false;
      const result = await db.transaction().execute((tx) =>
        idempotent(tx, request, async () => {
          await repo.insert(tx, {
            id,
            workspaceId,
            ownerUserId: actor.userId,
            kind,
            format: body.format,
            query: params.toString(),
          });
          await jobs.enqueue(tx, runExportJob, { exportJobId: id, workspaceId }, { singletonKey: id });
          queued = true;
          const row = await repo.find(tx, workspaceId, id);
          if (!row) throw new Error('export job vanished');
          return { status: 202, body: view(row, clock()) };
        }),
      );
      if (queued) jobs.wake();
      // A replay answers the job as it is now, not as it was queued.
      const current = await repo.find(db, workspaceId, result.body.id);
      return current ? view(current, clock()) : result.body;
    },

    /** The actor's recent exports, newest first. */
    async list(actor: Actor): Promise<ExportJobView[]> {
      const rows = await repo.listForOwner(db, actor.membership.workspace.id, actor.userId, RECENT_LIMIT);
      const now = clock();
      return rows.map((r) => view(r, now));
    },

    /** One of the actor's exports; 404 for anyone else's. */
    async find(actor: Actor, id: string): Promise<ExportJobView> {
      return view(await get(actor, id), clock());
    },

    /**
     * The finished file, streamed chunk by chunk from the database: a CSV as stored (gzipped) when
     * the client accepts gzip, else unzipped on the way. 403 plan_limit_reached once the
     * plan has no exports (the job list stays readable), 404 for anyone else's, 409
     * while it is not ready, 410 once it has expired.
     */
    async file(actor: Actor, id: string, options: { acceptsGzip: boolean }): Promise<ExportJobFile> {
      assertFeature(actor, 'export');
      const row = await get(actor, id);
      if (row.status !== 'done')
        throw new AppError(
          'export_not_ready',
          row.status === 'failed' ? 'This export failed: start it again.' : 'This export is not ready yet.',
          { status: 409 },
        );
      if (row.expires_at !== null && new Date(row.expires_at) <= clock())
        throw new AppError('export_expired', 'This export has expired (files are kept for 24 hours): start it again.', {
          status: 410,
        });
      const workspaceId = row.workspace_id;
      const seqs = await repo.chunkSeqs(db, workspaceId, id, row.attempt);
      if (seqs.length === 0)
        throw new AppError('export_expired', 'This export’s file was removed: start it again.', { status: 410 });
      async function* chunks(): AsyncGenerator<Buffer> {
        for (const seq of seqs) yield await repo.chunk(db, workspaceId, id, row.attempt, seq);
      }
      const file = {
        fileName: row.file_name ?? `export-${id}.${row.format}`,
        contentType: row.content_type ?? 'application/octet-stream',
      };
      const size = Number(row.size_bytes ?? 0);
      if (row.content_encoding !== 'gzip') return { ...file, sizeBytes: size, stream: Readable.from(chunks()) };
      if (options.acceptsGzip) {
        return {
          ...file,
          sizeBytes: Number(row.stored_bytes),
          contentEncoding: 'gzip',
          stream: Readable.from(chunks()),
        };
      }
      // A client that takes no gzip gets the file itself, unzipped as it goes.
      const gunzip = zlib.createGunzip();
      pipeline(Readable.from(chunks()), gunzip).catch(() => {});
      return { ...file, sizeBytes: size, stream: gunzip };
    },

    /** Removes expired files now (the hourly purge); answers how many chunks went. */
    purge(now = clock()): Promise<number> {
      return repo.purge(db, now, RECORD_KEEP_MS);
    },
  };
}

export type ExportJobsService = ReturnType<typeof createExportJobsService>;
