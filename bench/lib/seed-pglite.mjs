import { sql } from 'kysely';

/**
 * The shape of bench:seed-large (members, clients, projects, finished entries 15-45 minutes, daytime UTC), smaller:
 * `entries` over three years for the signed-up owner's workspace, 100 members, 200 projects.
 */
export async function seedPglite(db, { ownerEmail, entries }) {
  const users = 100;
  const days = 3 * 365;
  const owner = (
    await sql`select u.id, m.workspace_id, u.password_hash from users u join memberships m on m.user_id = u.id
      where u.email = ${ownerEmail}`.execute(db)
  ).rows[0];
  const w = owner.workspace_id;
  await sql`insert into users (id, email, password_hash, name, time_zone, current_workspace_id)
    select gen_random_uuid(), 'member' || i || '@large.example.org', ${owner.password_hash}, 'Member ' || i, 'UTC', ${w}
    from generate_series(1, ${users - 1}) i`.execute(db);
  await sql`insert into memberships (workspace_id, user_id, role)
    select ${w}, id, 'member' from users where email like 'member%@large.example.org'`.execute(db);
  await sql`insert into projects (id, workspace_id, owner_user_id, name, is_public, created_at, updated_at)
    select gen_random_uuid(), ${w}, ${owner.id}, 'Project ' || lpad(i::text, 3, '0'), true, now(), now()
    from generate_series(1, 200) i`.execute(db);
  await sql`create temp table bench_users as select row_number() over (order by user_id) - 1 as rn, user_id as id
    from memberships where workspace_id = ${w}`.execute(db);
  await sql`create temp table bench_projects as select row_number() over (order by name) - 1 as rn, id
    from projects where workspace_id = ${w}`.execute(db);
  const perUser = Math.ceil(entries / users);
  await sql`insert into time_entries (id, workspace_id, user_id, project_id, note, billable, start_at, end_at,
      duration_seconds, created_by_user_id, billable_rate_cents, cost_rate_cents)
    select gen_random_uuid(), ${w}, u.id, p.id, 'Seeded work ' || s.n, s.n % 3 = 0, x.start_at,
      x.start_at + x.seconds * interval '1 second', x.seconds, u.id, 5000 + (s.n % 5) * 1000, 3000 + (uk.user_rn % 4) * 500
    from generate_series(0, ${entries - 1}::int) s(n)
    cross join lateral (select s.n % ${users}::int as user_rn, s.n / ${users}::int as k) uk
    cross join lateral (select (uk.k::bigint * ${days}::int / ${perUser}::int)::int as day) d
    cross join lateral (
      select (current_date - ${days}::int + d.day)::timestamp at time zone 'UTC' + interval '7 hours'
        + (uk.k - (d.day::bigint * ${perUser}::int + ${days - 1}::int) / ${days}::int) * interval '50 minutes' as start_at,
        (900 + (s.n::bigint * 7919) % 1800)::int as seconds
    ) x
    join bench_users u on u.rn = uk.user_rn
    join bench_projects p on p.rn = (s.n * 37 + uk.k) % 200`.execute(db);
  await sql`analyze`.execute(db);
}
