// Buffers and time of the list queries on PostgreSQL at a real team's size (issue 13), as the
// repositories build them, against the week-list statement before it had a lower bound on
// start_at. Usage: npm run bench:plans [-- --entries 1000000 --people 100 --projects 200]
// Needs DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): it creates a
// throw-away database beside it and drops it at the end.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { clientsRepository } from '../apps/api/src/modules/clients/clients.repository.ts';
import { membersRepository } from '../apps/api/src/modules/members/members.repository.ts';
import { timeEntriesRepository } from '../apps/api/src/modules/time-entries/time-entries.repository.ts';
import { explain, lateWeek, seedHistory, statementsOf, unboundedWeekList } from '../apps/api/test/query-plans.ts';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    people: { type: 'string', default: '100' },
    projects: { type: 'string', default: '200' },
    runs: { type: 'string', default: '5' },
  },
});
const entries = Number(values.entries);
const people = Number(values.people);
const runs = Number(values.runs);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `sundial_bench_plans_${process.pid}`;

async function admin(statement) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(statement);
  await client.end();
}

await admin(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const handle = openDb({ databaseUrl: url.toString() });
const { db } = handle;
try {
  await migrateToLatest(db);
  const seeded = performance.now();
  // About three years each, whatever the count.
  const everyHours = (3 * 365 * 24) / (entries / people);
  const h = await seedHistory(db, {
    workspaces: 1,
    peoplePerWorkspace: people,
    projects: Number(values.projects),
    entries,
    everyHours,
  });
  const [ws] = h.workspaceIds;
  const [person] = h.people[0];
  const { from, to } = lateWeek(h);
  await sql`insert into time_entries (id, workspace_id, user_id, start_at)
    values (gen_random_uuid(), ${ws}, ${person}, ${new Date(from.getTime() - 240 * 3_600_000)})`.execute(db);
  await sql`vacuum analyze`.execute(db);
  console.log(`Seeded ${entries} entries, ${people} people in ${((performance.now() - seeded) / 1000).toFixed(0)} s`);

  /** Buffers (one run) and median time of `runs` after a warm-up: the first statement a call sends, or all summed. */
  async function measure(call, all) {
    const sent = await statementsOf(db, call);
    let buffers = 0;
    let ms = 0;
    for (const statement of all ? sent : sent.slice(0, 1)) {
      await explain(db, statement);
      const plans = [];
      for (let i = 0; i < runs; i++) plans.push(await explain(db, statement));
      buffers += plans[0].buffers;
      ms += plans.map((p) => p.ms).sort((a, b) => a - b)[Math.floor(runs / 2)];
    }
    return { buffers, ms };
  }

  const week = { from, to, limit: 501 };
  const rows = [
    [
      'week list, one person (entries statement)',
      (tx) => unboundedWeekList(tx, { workspaceId: ws, userIds: [person], ...week }),
      (tx) => timeEntriesRepository.list(tx, ws, { userIds: [person], ...week }),
    ],
    [
      'week list, everyone (entries statement)',
      (tx) => unboundedWeekList(tx, { workspaceId: ws, ...week }),
      (tx) => timeEntriesRepository.list(tx, ws, week),
    ],
    ['history page (51, no range)', null, (tx) => timeEntriesRepository.list(tx, ws, { userIds: [person], limit: 51 })],
    ['task delete (detach entries)', null, (tx) => timeEntriesRepository.detachTasks(tx, ws, [h.taskId])],
    ['project delete (its entries)', null, (tx) => timeEntriesRepository.deleteOnProject(tx, ws, h.projectIds[1])],
    ['members list (count and page)', null, (tx) => membersRepository.list(tx, ws, {}), true],
    [
      'clients list (count and page)',
      null,
      (tx) => clientsRepository.list(tx, ws, { archived: 'false', sort: 'name', order: 'asc', limit: 50, offset: 0 }),
      true,
    ],
  ];
  console.log('\n| statement | before: buffers | before: ms | after: buffers | after: ms | buffers after/before |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [label, before, after, all] of rows) {
    const b = before ? await measure(before, all) : null;
    const a = await measure(after, all);
    const ratio = b ? `${(a.buffers / b.buffers).toFixed(4)}x` : '';
    console.log(
      `| ${label} | ${b?.buffers ?? ''} | ${b ? b.ms.toFixed(2) : ''} | ${a.buffers} | ${a.ms.toFixed(2)} | ${ratio} |`,
    );
  }
} finally {
  await handle.close();
  await admin(`drop database if exists ${name} with (force)`);
}
