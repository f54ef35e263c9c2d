import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sendCsv, signUp, useTestApp } from '../../../test/harness.js';

// Small limits, so files past them stay small in a test.
const ctx = useTestApp({ IMPORT_MAX_ROWS: '3000', IMPORT_MAX_BYTES: '400000' });
const call: typeof ctx.call = (...args) => ctx.call(...args);

const HEADER =
  'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags';
/** A Toggl Track detailed export of `rows` entries over 10 projects; `bad` lines (file lines) get a broken date. */
function toggl(rows: number, bad: number[] = []): string {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const day = bad.includes(i + 2) ? '2026-13-40' : `2026-10-${String((i % 28) + 1).padStart(2, '0')}`;
    lines.push(
      `Ann,ann@example.test,Acme,Project ${i % 10},Task ${i % 3},Entry ${i},Yes,${day},09:00:00,,,01:00:00,t${i % 4}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const upload = (ws: string, cookie: string, payload: string | Readable, headers: Record<string, string> = {}) =>
  sendCsv(ctx.t.app, `${ws}/imports?source=toggl`, cookie, payload, headers);

const count = async (table: 'imports' | 'import_rows' | 'time_entries', column: string, value: string) =>
  Number(
    (
      await ctx.t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where(column as never, '=', value as never)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('imports as streams', () => {
  it('reads a file over several batches, imports it in the background with progress, once however often asked', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const file = toggl(2500);
    const read = await upload(ws, owner.cookie, file);
    expect(read.statusCode, read.body).toBe(201);
    const id = read.json().id;
    expect(read.json()).toMatchObject({
      status: 'ready',
      rowsRead: 2500,
      bytesRead: Buffer.byteLength(file),
      rowsImported: 0,
      errorCount: 0,
      summary: { clients: 1, projects: 10, tasks: 30, tags: 4, timeEntries: 2500 },
    });
    expect(read.json().rows).toHaveLength(100);
    expect(await count('import_rows', 'import_id', id)).toBe(2500);

    const first = await call('POST', `${ws}/imports/${id}/run`, owner.cookie);
    expect([first.statusCode, first.json().status]).toEqual([202, 'queued']);
    // A retried click (or a lost answer) queues nothing more. The app's worker may already have
    // picked the job up between the two clicks, so the second answer is the import as it stands.
    const again = await call('POST', `${ws}/imports/${id}/run`, owner.cookie);
    expect(again.statusCode).toBe(202);
    expect(['queued', 'importing', 'done']).toContain(again.json().status);
    const queued = await ctx.t.db.selectFrom('jobs').select('id').where('singleton_key', '=', id).execute();
    expect(queued).toHaveLength(1);

    await ctx.t.app.services.jobs.drain();
    const done = (await call('GET', `${ws}/imports/${id}`, owner.cookie)).json();
    expect(done).toMatchObject({ status: 'done', rowsRead: 2500, rowsImported: 2500 });
    expect(done.summary).toEqual({ clients: 1, projects: 10, tasks: 30, tags: 4, timeEntries: 2500 });
    expect(await count('time_entries', 'workspace_id', owner.workspaceId)).toBe(2500);
    expect(await count('import_rows', 'import_id', id)).toBe(0);

    // Asking once more after it is done, or running its job again, imports nothing twice.
    const late = await call('POST', `${ws}/imports/${id}/run`, owner.cookie);
    expect([late.statusCode, late.json().status]).toEqual([202, 'done']);
    await ctx.t.db
      .updateTable('jobs')
      .set({ state: 'queued', run_at: new Date(0) })
      .where('singleton_key', '=', id)
      .execute();
    await ctx.t.app.services.jobs.drain();
    expect(await count('time_entries', 'workspace_id', owner.workspaceId)).toBe(2500);

    // A day later the record of the import goes; the entries stay.
    const unread = (await upload(ws, owner.cookie, toggl(10))).json().id;
    await ctx.t.app.services.imports.purge(new Date(Date.now() + 2 * 86_400_000));
    expect(await count('imports', 'workspace_id', owner.workspaceId)).toBe(0);
    expect(await count('import_rows', 'import_id', unread)).toBe(0);
    expect(await count('time_entries', 'workspace_id', owner.workspaceId)).toBe(2500);
  });

  it('reports the first errors with their lines, and keeps none of the rows', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const read = await upload(ws, owner.cookie, toggl(2500, [1502, 2401]));
    expect(read.json()).toMatchObject({
      status: 'invalid',
      rowsRead: 2500,
      errorCount: 2,
      errors: [
        { line: 1502, error: 'The date “2026-13-40” is not understood.' },
        { line: 2401, error: 'The date “2026-13-40” is not understood.' },
      ],
    });
    // The preview shows the first rows, then the rows with errors.
    expect(
      read
        .json()
        .rows.map((r: { line: number }) => r.line)
        .slice(-2),
    ).toEqual([1502, 2401]);
    expect(await count('import_rows', 'import_id', read.json().id)).toBe(0);
    const refused = await call('POST', `${ws}/imports/${read.json().id}/run`, owner.cookie);
    expect([refused.statusCode, refused.json().error.message]).toEqual([
      422,
      '2 rows have errors (first: line 1502: The date “2026-13-40” is not understood.). Nothing was imported.',
    ]);
  });

  it('stops a file with too many rows or bytes while it streams, and keeps nothing of it', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const many = await upload(ws, owner.cookie, toggl(3001));
    expect([many.statusCode, many.json().error.message]).toEqual([
      413,
      'The file has more than 3,000 rows; split it. Nothing was imported.',
    ]);

    // Without a length announced, the bytes are counted as they come, and the reading stops past the limit.
    let sent = 0;
    const endless = Readable.from(
      (function* () {
        yield Buffer.from(`${HEADER}\n`);
        for (;;) {
          sent += 1;
          yield Buffer.from('x'.repeat(10_000));
        }
      })(),
    );
    const large = await upload(ws, owner.cookie, endless);
    expect([large.statusCode, large.json().error.message]).toEqual([413, 'The file is larger than 0.4 MB; split it.']);
    expect(sent).toBeLessThan(100);

    // Announced too large: refused before reading.
    const announced = await upload(ws, owner.cookie, 'Project\nA\n', { 'content-length': '400001' });
    expect(announced.statusCode).toBe(413);
    expect(await count('imports', 'workspace_id', owner.workspaceId)).toBe(0);
  });

  it('refuses a body that is not a file', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const json = await call('POST', `${ws}/imports?source=csv`, owner.cookie, { csv: 'Project\nA\n' });
    expect(json.statusCode).toBe(415);
  });
});
