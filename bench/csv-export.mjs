// The Detailed CSV as a user gets it (issue 33), against the COPY floor, paired per round. The API
// runs in a child process in production mode with its default settings; the owner of the large
// workspace exports, as the Detailed page does:
//   direct  a range of at most 50,000 rows (EXPORT_DIRECT_MAX_ROWS): GET …/reports/export, read to
//           its last byte;
//   job     a larger range: POST …/export-jobs, GET the job every 100 ms until it is done, then GET
//           its file to the last byte (the time a person waits, from the click to the file);
//   both download as Chromium does (Accept-Encoding: gzip, deflate, br, zstd), decoded to the file's
//   own bytes: a direct export is compressed on the way, a job's CSV is sent gzipped as stored;
//   copy    the floor: the same rows and columns as a DBA would COPY them to a client (entries joined
//           to their person, client, project, task and tags, dates and durations as text, newest
//           first), read to the last byte, on one connection.
// Each round runs the three (copy first, then the export) and prints export / copy.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=bench_sum npm run bench:seed-large -- --users 1000
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=bench_sum npm run bench:csv-export
// (-- --rounds N, default 3)
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { numberArg, seededDatabaseUrl } from './lib/args.mjs';
import { startServer } from './lib/server.mjs';

const ROUNDS = numberArg('rounds', 3);
const databaseUrl = seededDatabaseUrl('sundial_bench_summaries');
const server = await startServer(databaseUrl);
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
try {
  const me = await (await server.call('/api/v1/me')).json();
  const ws = me.currentWorkspaceId;
  const api = `/api/v1/workspaces/${ws}/reports`;
  const last = (await client.query('select max(start_at) as at from time_entries where workspace_id = $1', [ws]))
    .rows[0].at;
  const day = (offset) => new Date(last.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

  /** The floor: the same rows as text, by COPY, read to the end (no file written). */
  const copy = (from, to) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      let bytes = 0;
      const stream = client.query(
        // COPY takes no bind parameters: the values are quoted as literals.
        copyTo(`copy (
          select to_char(e.start_at at time zone 'UTC', 'YYYY-MM-DD'),
            to_char(e.start_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI'),
            to_char(e.end_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI'),
            u.name, c.name, p.name, t.name, nullif(e.note, ''),
            (select string_agg(g.name, ', ' order by g.name) from time_entry_tags et join tags g on g.id = et.tag_id
              where et.workspace_id = e.workspace_id and et.entry_id = e.id),
            case when e.billable then 'Yes' else 'No' end,
            case when e.invoiced_at is null then 'No' else 'Yes' end,
            (e.duration_seconds / 3600)::text || ':' || lpad((e.duration_seconds % 3600 / 60)::text, 2, '0') || ':' ||
              lpad((e.duration_seconds % 60)::text, 2, '0'),
            round(e.duration_seconds / 3600.0, 2),
            round(e.duration_seconds * coalesce(e.billable_rate_cents, 0) / 360000.0, 2),
            round(e.duration_seconds * coalesce(e.cost_rate_cents, 0) / 360000.0, 2)
          from time_entries e
          join users u on u.id = e.user_id
          left join projects p on p.id = e.project_id
          left join clients c on c.id = p.client_id
          left join tasks t on t.id = e.task_id
          where e.workspace_id = ${client.escapeLiteral(ws)}
            and e.start_at >= ${client.escapeLiteral(from)}::date and e.start_at < ${client.escapeLiteral(to)}::date + 1
          order by e.start_at desc, e.id desc
        ) to stdout with (format csv, header)`),
      );
      stream.on('data', (chunk) => {
        bytes += chunk.length;
      });
      stream.on('end', () => resolve({ ms: performance.now() - started, bytes }));
      stream.on('error', reject);
    });

  /** What Chromium sends: the answer comes compressed and fetch decodes it, as the browser does. */
  const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
  const read = async (response) => {
    if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
    return (await response.arrayBuffer()).byteLength;
  };
  const query = (from, to) => `kind=detailed&preset=custom&from=${from}&to=${to}&timeZone=UTC`;

  const direct = async (from, to) => {
    const started = performance.now();
    const bytes = await read(await server.call(`${api}/export?format=csv&${query(from, to)}`, { headers: browser }));
    return { ms: performance.now() - started, bytes };
  };

  const job = async (from, to) => {
    const started = performance.now();
    const created = await server.call(`${api}/export-jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'csv', query: query(from, to) }),
    });
    if (created.status !== 202) throw new Error(`job ${created.status}: ${await created.text()}`);
    const { id } = await created.json();
    let state;
    for (;;) {
      state = await (await server.call(`${api}/export-jobs/${id}`)).json();
      if (state.status === 'done') break;
      if (state.status === 'failed') throw new Error(`job failed: ${JSON.stringify(state)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ready = performance.now();
    const bytes = await read(await server.call(`${api}/export-jobs/${id}/file`, { headers: browser }));
    const ms = performance.now() - started;
    // The job's own time (the server's clock: queued to file written) and the download's.
    const parts = { job: Date.parse(state.finishedAt) - Date.parse(state.createdAt), download: ms - (ready - started) };
    return { ms, bytes, parts };
  };

  const cases = [
    { name: '30 days, direct', from: day(-29), to: day(0), run: direct },
    { name: 'a year, background job', from: day(-364), to: day(0), run: job },
  ];
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[0].toFixed(2)} / ${s[Math.floor(s.length / 2)].toFixed(2)} / ${s.at(-1).toFixed(2)}`;
  };
  console.log(`${ROUNDS} rounds; seed ${new URL(databaseUrl).pathname.slice(1)}; last day ${day(0)}`);
  for (const c of cases) {
    const rows = (
      await client.query(
        'select count(*)::int as n from time_entries where workspace_id = $1 and start_at >= $2::date and start_at < $3::date + 1',
        [ws, c.from, c.to],
      )
    ).rows[0].n;
    // A warm-up of each, not counted.
    await copy(c.from, c.to);
    await c.run(c.from, c.to);
    const ratios = [];
    const times = { copy: [], run: [], job: [], download: [] };
    let sizes = {};
    for (let r = 0; r < ROUNDS; r++) {
      const floor = await copy(c.from, c.to);
      const got = await c.run(c.from, c.to);
      ratios.push(got.ms / floor.ms);
      times.copy.push(floor.ms);
      times.run.push(got.ms);
      if (got.parts) {
        times.job.push(got.parts.job);
        times.download.push(got.parts.download);
      }
      sizes = { copy: floor.bytes, run: got.bytes };
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(0);
    console.log(
      `${c.name}: ${rows.toLocaleString()} rows; COPY median ${median(times.copy)} ms (${sizes.copy.toLocaleString()} B), ` +
        `export median ${median(times.run)} ms (${sizes.run.toLocaleString()} B); export / COPY ${stats(ratios)}` +
        (times.job.length
          ? `\n  of which the job ${median(times.job)} ms, the download ${median(times.download)} ms`
          : ''),
    );
  }
} finally {
  await client.end();
  server.stop();
}
