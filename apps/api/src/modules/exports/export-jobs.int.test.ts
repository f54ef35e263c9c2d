import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  createTestApp,
  insertBulkEntries,
  type SignedUp,
  signUp,
  type TestApp,
  workspaceCalls,
} from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

/**
 * Export jobs: a report over EXPORT_JOB_MIN_ROWS (10 here) is refused by the synchronous export
 * and runs as a job on the real runner, written in 1 KiB chunks; the file read back equals the
 * report, a killed or failing run is retried and leaves one file, only the owner reads it, and
 * the purge removes expired files. Jobs run when a test drains the runner (JOBS_ENABLED=false).
 */
let t: TestApp;
let call: ReturnType<typeof caller>;
/** The runner's clock runs ahead by this much, so a retry's backoff can pass at once. */
let ahead = 0;
let owner: SignedUp;
let member: SignedUp;
let ws: string;
let projectId: string;
const { ok } = workspaceCalls({ call: (...args) => call(...args) }, () => ws);
const ENTRIES = 24;
const RANGE = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';
const DETAILED = `kind=detailed&${RANGE}&sort=start&order=asc`;

beforeAll(async () => {
  t = await createTestApp(
    { EXPORT_JOB_MIN_ROWS: '10', EXPORT_JOB_CHUNK_BYTES: '1024', EXPORT_PAGE_ROWS: '5', JOBS_ENABLED: 'false' },
    { now: () => new Date(Date.now() + ahead) },
  );
  call = caller(t.app);
  owner = await signUp(t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  member = await signUp(t.app);
  await membersRepository.add(t.db, { workspaceId: owner.workspaceId, userId: member.userId, role: 'member' });
  projectId = (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true })).id;
  for (let i = 0; i < ENTRIES; i++) {
    const start = new Date(Date.UTC(2026, 10, 2, 6) + i * 3_600_000);
    await ok(owner, 'POST', '/time-entries', {
      start: start.toISOString(),
      end: new Date(start.getTime() + (20 + i) * 60_000).toISOString(),
      // Random words, so that the gzipped file still takes several chunks.
      note: `Entry number ${i} with a fairly long description: ${randomBytes(150).toString('base64')}`,
      ...(i < 5 ? { projectId } : {}),
    });
  }
});
afterAll(() => t?.close());

const start = (who: SignedUp, query: string, format = 'csv', key?: string) =>
  t.app.inject({
    method: 'POST',
    url: `${ws}/reports/export-jobs`,
    headers: { cookie: who.cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload: { query, format },
  });
const download = (who: SignedUp, id: string) =>
  t.app.inject({ method: 'GET', url: `${ws}/reports/export-jobs/${id}/file`, headers: { cookie: who.cookie } });
const chunksOf = (id: string) =>
  t.db.selectFrom('export_job_chunks').select(['attempt', 'seq']).where('job_id', '=', id).orderBy('seq').execute();

describe('the synchronous export', () => {
  it('answers 409 export_too_large past EXPORT_JOB_MIN_ROWS, before the first byte', async () => {
    const response = await call('GET', `${ws}/reports/export?format=csv&${DETAILED}`, owner.cookie);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('export_too_large');
    expect(response.json().error.message).toMatch(/more than 10 rows/);
  });
});

describe('an export job', () => {
  it('writes the whole Detailed report in chunks, with progress, and e-mails its owner a link', async () => {
    const queued = await start(owner, DETAILED);
    expect(queued.statusCode, queued.body).toBe(202);
    const id = queued.json().id;
    expect(queued.json()).toMatchObject({ status: 'queued', percent: 0, downloadable: false });
    expect((await download(owner, id)).statusCode).toBe(409);
    await t.app.services.jobs.drain();

    const job = await ok(owner, 'GET', `/reports/export-jobs/${id}`);
    expect(job).toMatchObject({ status: 'done', percent: 100, rowsDone: ENTRIES + 1, rowsTotal: ENTRIES + 1 });
    expect(Date.parse(job.expiresAt) - Date.parse(job.finishedAt)).toBe(24 * 3_600_000);
    expect((await chunksOf(id)).length).toBeGreaterThan(2);

    const file = await download(owner, id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('.csv');
    expect(file.rawPayload.length).toBe(job.sizeBytes);
    const rows: string[][] = parse(file.rawPayload, { bom: true });
    const header = rows.findIndex((r) => r[0] === 'Date');
    const body = rows.slice(header + 1);
    expect(body).toHaveLength(ENTRIES + 1);
    const summary = await ok(owner, 'GET', `/reports/summary?${RANGE}&groupBy=project`);
    const hours = rows[header]?.indexOf('Duration (hours)') ?? -1;
    const total = body.at(-1)?.[hours] ?? '';
    expect(Math.round(Number(total) * 3600)).toBe(summary.totals.trackedSeconds);
    expect(body.filter((r) => r[7]?.startsWith('Entry number'))).toHaveLength(ENTRIES);

    const mail = await t.db
      .selectFrom('outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', owner.email)
      .where('subject', 'like', '%export%')
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text_body).toContain('http://localhost:3000/homepage/exports');
  });

  it('holds exactly what the synchronous export holds, below the threshold', async () => {
    const query = `kind=detailed&${RANGE}&projects=${projectId}&sort=start&order=asc`;
    const id = (await start(owner, query)).json().id;
    await t.app.services.jobs.drain();
    const sync = await call('GET', `${ws}/reports/export?format=csv&${query}`, owner.cookie);
    expect(sync.statusCode).toBe(200);
    expect((await download(owner, id)).rawPayload.equals(sync.rawPayload)).toBe(true);
  });

  it('writes an XLSX that reads back with every row', async () => {
    const id = (await start(owner, DETAILED, 'xlsx')).json().id;
    await t.app.services.jobs.drain();
    const file = await download(owner, id);
    expect(file.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(1 + ENTRIES + 1);
    expect(String(sheet?.getRow(2).getCell(8).value)).toMatch(/^Entry number 0 with a fairly long description: /);
  });

  it('refuses a query that is not an export’s at once, with the report’s own message', async () => {
    const bad = await start(owner, 'kind=matrix&rows=user&columns=user&preset=lastMonth');
    expect(bad.statusCode).toBe(422);
    expect((await start(owner, 'kind=nothing')).statusCode).toBe(422);
  });

  it('answers the same job to a retry with the same Idempotency-Key', async () => {
    const first = await start(owner, DETAILED, 'csv', 'export-key-1');
    const again = await start(owner, DETAILED, 'csv', 'export-key-1');
    expect(again.statusCode).toBe(202);
    expect(again.json().id).toBe(first.json().id);
    const reused = await start(owner, DETAILED, 'pdf', 'export-key-1');
    expect(reused.statusCode).toBe(422);
    await t.app.services.jobs.drain();
  });

  it('is its owner’s alone: another member gets 404, another workspace 404, signed out 401', async () => {
    const id = (await start(owner, DETAILED)).json().id;
    await t.app.services.jobs.drain();
    expect((await call('GET', `${ws}/reports/export-jobs/${id}`, member.cookie)).statusCode).toBe(404);
    expect((await download(member, id)).statusCode).toBe(404);
    const list = await ok(member, 'GET', '/reports/export-jobs');
    expect(list.items.map((j: { id: string }) => j.id)).not.toContain(id);
    const outsider = await signUp(t.app);
    expect((await call('GET', `${ws}/reports/export-jobs/${id}`, outsider.cookie)).statusCode).toBe(404);
    const own = `/api/v1/workspaces/${outsider.workspaceId}/reports/export-jobs/${id}`;
    expect((await call('GET', own, outsider.cookie)).statusCode).toBe(404);
    expect((await call('GET', `${ws}/reports/export-jobs/${id}`)).statusCode).toBe(401);
    expect((await ok(owner, 'GET', '/reports/export-jobs')).items[0].id).toBe(id);
  });

  it('runs with its owner’s permissions, checked again when it runs', async () => {
    // Queued by the member, who then loses the workspace: the job fails with a reason, no file.
    const id = (await start(member, DETAILED)).json().id;
    await t.db
      .updateTable('memberships')
      .set({ status: 'disabled' })
      .where('user_id', '=', member.userId)
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
    await t.app.services.jobs.drain();
    const row = await t.db
      .selectFrom('export_jobs')
      .select(['status', 'error'])
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row).toMatchObject({ status: 'failed', error: 'You are no longer a member of this workspace.' });
    expect(await chunksOf(id)).toHaveLength(0);
    await t.db
      .updateTable('memberships')
      .set({ status: 'active' })
      .where('user_id', '=', member.userId)
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
  });

  it('lists a member only the time they reach, as the report does', async () => {
    const id = (await start(member, DETAILED)).json().id;
    await t.app.services.jobs.drain();
    const rows: string[][] = parse((await download(member, id)).rawPayload, { bom: true });
    expect(rows.filter((r) => r[7]?.startsWith('Entry number'))).toHaveLength(0);
  });
});

describe('a job larger than one batch of the writer', () => {
  it('stores the file in chunks of EXPORT_JOB_CHUNK_BYTES, though the CSV writer hands over 1,000 lines at a time', async () => {
    // 2,500 entries in October: about 250 KB, handed over in three pieces, stored in 1 KiB chunks
    // while the report is still being read (progress and chunks are written between reads).
    await insertBulkEntries(t.db, {
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      from: '2026-10-05T00:00:00Z',
      count: 2500,
      everySeconds: 60,
      seconds: 30,
      note: 'October',
    });
    const october = 'kind=detailed&preset=custom&from=2026-10-01&to=2026-10-31&timeZone=UTC&sort=start&order=asc';
    const queued = await start(owner, october);
    expect(queued.statusCode, queued.body).toBe(202);
    await t.app.services.jobs.drain();
    const job = await ok(owner, 'GET', `/reports/export-jobs/${queued.json().id}`);
    expect(job).toMatchObject({ status: 'done', rowsTotal: 2501 });
    const rows: string[][] = parse((await download(owner, job.id)).rawPayload, { bom: true });
    const header = rows.findIndex((r) => r[0] === 'Date');
    expect(rows.slice(header + 1)).toHaveLength(2501);
    expect(rows.at(-1)?.[0]).toBe('Total');
    // Stored gzipped: about a twentieth of its 250 KB, still in chunks of 1 KiB written as it was read.
    const stored = await t.db
      .selectFrom('export_jobs')
      .select(['size_bytes', 'stored_bytes', 'content_encoding'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(stored.content_encoding).toBe('gzip');
    expect(Number(stored.size_bytes)).toBe(job.sizeBytes);
    expect(Number(stored.stored_bytes)).toBeLessThan(job.sizeBytes / 4);
    expect((await chunksOf(job.id)).length).toBe(Math.ceil(Number(stored.stored_bytes) / 1024));
    expect((await chunksOf(job.id)).length).toBeGreaterThan(5);
  });

  it('sends the CSV as stored, gzipped, to a client that accepts gzip, and unzipped to one that does not', async () => {
    const id = (await start(owner, DETAILED)).json().id;
    await t.app.services.jobs.drain();
    const plain = await download(owner, id);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await t.app.inject({
      method: 'GET',
      url: `${ws}/reports/export-jobs/${id}/file`,
      headers: { cookie: owner.cookie, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('accept-encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    // A browser that takes only brotli gets the file itself, whatever compresses it on the way.
    const brotli = await t.app.inject({
      method: 'GET',
      url: `${ws}/reports/export-jobs/${id}/file`,
      headers: { cookie: owner.cookie, 'accept-encoding': 'br' },
    });
    const body =
      brotli.headers['content-encoding'] === 'br' ? brotliDecompressSync(brotli.rawPayload) : brotli.rawPayload;
    expect(body.equals(plain.rawPayload)).toBe(true);
  });
});

describe('a job killed mid-export', () => {
  it('is retried by the runner after its handler fails mid-file, and leaves one complete file', async () => {
    // The third chunk of the first run fails to store, as a crash mid-export would leave it.
    await sql
      .raw(`create function fail_first_run() returns trigger language plpgsql as $$
      begin
        if new.attempt = 1 and new.seq = 2 then raise exception 'disk on fire'; end if;
        return new;
      end $$`)
      .execute(t.db);
    await sql
      .raw(`create trigger fail_first_run before insert on export_job_chunks
        for each row execute function fail_first_run()`)
      .execute(t.db);
    try {
      const id = (await start(owner, DETAILED)).json().id;
      await t.app.services.jobs.drain();
      const failed = await ok(owner, 'GET', `/reports/export-jobs/${id}`);
      expect(failed.status).toBe('running');
      expect(await chunksOf(id)).toEqual([
        { attempt: 1, seq: 0 },
        { attempt: 1, seq: 1 },
      ]);
      const [runnerJob] = await t.app.services.jobs.list({ name: 'exports.run', state: 'queued', limit: 1 });
      expect(runnerJob?.lastError).toBe('disk on fire');

      ahead += 60_000;
      await t.app.services.jobs.drain();
      const job = await ok(owner, 'GET', `/reports/export-jobs/${id}`);
      expect(job.status).toBe('done');
      const chunks = await chunksOf(id);
      expect(new Set(chunks.map((c) => c.attempt))).toEqual(new Set([2]));
      expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
      const rows: string[][] = parse((await download(owner, id)).rawPayload, { bom: true });
      expect(rows.filter((r) => r[7]?.startsWith('Entry number'))).toHaveLength(ENTRIES);
    } finally {
      await sql.raw('drop trigger fail_first_run on export_job_chunks').execute(t.db);
      await sql.raw('drop function fail_first_run()').execute(t.db);
    }
  });

  it('is taken up again when its worker died (its lease lapsed), without the dead run’s chunks', async () => {
    const id = (await start(owner, DETAILED)).json().id;
    // A worker claimed it, wrote two chunks and died: the job is "running" under a lapsed lease.
    await t.db
      .updateTable('jobs')
      .set({ state: 'running', attempts: 1, locked_by: 'dead-worker', locked_until: new Date(Date.now() - 1000) })
      .where('singleton_key', '=', id)
      .execute();
    await t.db.updateTable('export_jobs').set({ status: 'running', attempt: 1 }).where('id', '=', id).execute();
    for (const seq of [0, 1])
      await t.db
        .insertInto('export_job_chunks')
        .values({ workspace_id: owner.workspaceId, job_id: id, attempt: 1, seq, data: Buffer.from('partial') })
        .execute();
    await t.app.services.jobs.drain();
    expect((await ok(owner, 'GET', `/reports/export-jobs/${id}`)).status).toBe('done');
    const chunks = await chunksOf(id);
    expect(chunks.every((c) => c.attempt === 2)).toBe(true);
    const text = (await download(owner, id)).rawPayload.toString('utf8');
    expect(text).not.toContain('partial');
    expect(parse(text, { bom: true }).filter((r: string[]) => r[7]?.startsWith('Entry number'))).toHaveLength(ENTRIES);
  });
});

describe('expiry', () => {
  it('answers 410 after 24 hours, and the purge removes the file', async () => {
    const id = (await start(owner, DETAILED)).json().id;
    await t.app.services.jobs.drain();
    expect((await chunksOf(id)).length).toBeGreaterThan(0);
    const later = new Date(Date.now() + ahead + 25 * 3_600_000);
    await t.db
      .updateTable('export_jobs')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    expect((await download(owner, id)).statusCode).toBe(410);
    expect((await ok(owner, 'GET', `/reports/export-jobs/${id}`)).downloadable).toBe(false);
    expect(await t.app.services.exportJobs.purge(later)).toBeGreaterThan(0);
    expect(await chunksOf(id)).toHaveLength(0);
    expect((await download(owner, id)).statusCode).toBe(410);
  });
});
