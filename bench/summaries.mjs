// Large Summaries (issue 33): what the Summary page gets against what the database spends. For
// Summaries of 100,000s of groups (a year by project and person, by person, project and day, by
// description), each round times, alternated:
//   sql    the engine's own statement for that Summary (every group, labelled), run to its end in
//          the database, every column of every row made (`select count(*), sum(length(x::text))
//          from (...) x`, with the reports' settings) but nothing sent: its SQL;
//   page   the API's answer to the page's query (fold=2000, limit=1000: the first level, each
//          group's subgroups counted, the 1,000 largest under each parent, the rest summed);
//   whole  the API's answer to the same Summary without fold or limit (what a client asking for
//          every group gets; the page asked for this before issue 33);
// and, while each answer is on its way, how long GET /healthz (the event loop alone) and another
// user's GET /api/v1/me (the database too) wait, each every 50 ms from a process of its own
// (bench/lib/prober.mjs: probed from this process, the waits counted this process's own reading of
// a 90 MB answer). Prints each answer's ratio to its SQL per round (min/median/max), its bytes and
// the longest of those waits.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_summaries npm run bench:seed-large -- --users 1000
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_summaries npm run bench:summaries
// (-- --rounds N, default 5)
import { sql } from 'kysely';
import { openDb } from '../apps/api/src/db/connection.ts';
import { createReportScope } from '../apps/api/src/modules/reports/reports.scope.ts';
import { compileReport } from '../apps/api/src/modules/reports/reports.time-source.ts';
import { entitledMembership } from '../apps/api/src/platform/access.ts';
import { numberArg, seededDatabaseUrl } from './lib/args.mjs';
import { startProber } from './lib/probe.mjs';
import { OWNER, startServer } from './lib/server.mjs';

const ROUNDS = numberArg('rounds', 5);
const databaseUrl = seededDatabaseUrl('sundial_bench_summaries');

const server = await startServer(databaseUrl);
const { base, call } = server;
const { db, close } = openDb({ databaseUrl });
try {
  // The owner as the API sees them, to compile each Summary's statement as the API does.
  const user = await db.selectFrom('users').selectAll().where('email', '=', OWNER.email).executeTakeFirstOrThrow();
  const workspace = await db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', user.current_workspace_id)
    .executeTakeFirstOrThrow();
  const actor = {
    user,
    userId: user.id,
    membership: entitledMembership({ workspace, role: 'owner', status: 'active' }, { billing: true }),
    via: 'session',
  };
  const scope = createReportScope(db, { rollups: true });
  const last = await sql`select max(start_at) as at from time_entries where workspace_id = ${workspace.id}`.execute(db);
  const lastDay = new Date(last.rows[0].at);
  const day = (offset) => new Date(lastDay.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const MEASURES = ['trackedSeconds', 'billableSeconds', 'billableAmount'];
  const cases = [
    { name: 'year by project, person', groupBy: ['project', 'user'], from: day(-364) },
    { name: 'year by person, project, day', groupBy: ['user', 'project', 'day'], from: day(-364) },
    { name: 'year by description', groupBy: ['description'], from: day(-364) },
    { name: '30 days by project, person, day', groupBy: ['project', 'user', 'day'], from: day(-29) },
  ];

  const statementOf = async (c) => {
    const f = await scope.resolve(actor, {
      preset: 'custom',
      from: c.from,
      to: day(0),
      timeZone: 'UTC',
      tagMode: 'any',
      groupBy: c.groupBy,
    });
    const sets = [[], ...c.groupBy.map((_, i) => c.groupBy.slice(0, i + 1))];
    return compileReport(f, {
      sets,
      dimensions: c.groupBy,
      countEntries: false,
      sums: new Set(['billable_seconds', 'billable_cents']),
    });
  };
  const timeSql = async (statement) => {
    const started = performance.now();
    const groups = await db.transaction().execute(async (tx) => {
      await sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`.execute(tx);
      return (await sql`select count(*)::int as n, sum(length(x::text)) as chars from (${statement}) x`.execute(tx))
        .rows[0].n;
    });
    return { ms: performance.now() - started, groups };
  };
  const timeAnswer = async (q) => {
    const prober = await startProber(base, server.cookie);
    const started = performance.now();
    const response = await call(
      `/api/v1/workspaces/${workspace.id}/reports/summary?preset=custom&timeZone=UTC&measures=${MEASURES.join(',')}&${q}`,
      { headers: { 'accept-encoding': 'identity' } },
    );
    const body = await response.arrayBuffer();
    const ms = performance.now() - started;
    const waits = await prober.stop();
    if (response.status !== 200) throw new Error(`summary ${response.status}: ${Buffer.from(body).toString()}`);
    return { ms, bytes: body.byteLength, me: Math.max(0, ...waits.me), healthz: Math.max(0, ...waits.healthz) };
  };
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { min: s[0], median: s[Math.floor(s.length / 2)], max: s.at(-1) };
  };
  const fmt = (x, d = 2) => x.toFixed(d);

  console.log(`${ROUNDS} rounds; seed: ${new URL(databaseUrl).pathname.slice(1)}; last day ${day(0)}`);
  for (const c of cases) {
    const q = `from=${c.from}&to=${day(0)}&groupBy=${c.groupBy.join(',')}`;
    const statement = await statementOf(c);
    const runs = { sql: [], page: [], whole: [] };
    let groups = 0;
    let bytes = {};
    const waited = { page: { me: 0, healthz: 0 }, whole: { me: 0, healthz: 0 } };
    // One warm-up of each, not counted.
    await timeSql(statement);
    await timeAnswer(`${q}&fold=2000&limit=1000`);
    for (let r = 0; r < ROUNDS; r++) {
      const s = await timeSql(statement);
      groups = s.groups - 1;
      const page = await timeAnswer(`${q}&fold=2000&limit=1000`);
      const whole = await timeAnswer(q);
      runs.sql.push(s.ms);
      runs.page.push(page.ms / s.ms);
      runs.whole.push(whole.ms / s.ms);
      bytes = { page: page.bytes, whole: whole.bytes };
      for (const [k, answer] of [
        ['page', page],
        ['whole', whole],
      ])
        for (const probe of ['me', 'healthz']) waited[k][probe] = Math.max(waited[k][probe], answer[probe]);
    }
    const sqlMs = stats(runs.sql);
    const page = stats(runs.page);
    const whole = stats(runs.whole);
    console.log(
      `${c.name}: ${groups.toLocaleString()} groups; SQL median ${fmt(sqlMs.median, 0)} ms` +
        `\n  page  answer/SQL ${fmt(page.min)} / ${fmt(page.median)} / ${fmt(page.max)}, ${bytes.page.toLocaleString()} B, /healthz waited at most ${fmt(waited.page.healthz, 0)} ms, /me ${fmt(waited.page.me, 0)} ms` +
        `\n  whole answer/SQL ${fmt(whole.min)} / ${fmt(whole.median)} / ${fmt(whole.max)}, ${bytes.whole.toLocaleString()} B, /healthz waited at most ${fmt(waited.whole.healthz, 0)} ms, /me ${fmt(waited.whole.me, 0)} ms`,
    );
  }
} finally {
  server.stop();
  await close();
}
