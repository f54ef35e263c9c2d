// The baseline of bench/api.mjs: what a hand-written node:http + pg server does for the same three
// operations, with no framework. One query authenticates (session, user and membership together),
// then the operation's statements run (writes in a transaction), and the answer is JSON in the
// shape Sundial sends. Started by bench/api.mjs with DATABASE_URL and PORT.
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => undefined);

// The statements are Sundial's own, word for word (as PostgreSQL's log shows them), so both servers
// ask the database for the same work and parse the same columns.
const AUTH = `select "u".*, "s"."remember" as "session_remember", "s"."last_seen_at" as "session_last_seen_at",
  "s"."expires_at" as "session_expires_at", "s"."enrolment_only" as "session_enrolment_only",
  "m"."role" as "member_role", "m"."status" as "member_status", (
    select json_build_object('id', cr.id, 'name', cr.name, 'permissions', cr.permissions)
    from custom_roles cr where cr.id = m.custom_role_id) as "member_custom_role", (
    select json_agg(gcr.permissions) from group_members gm
    join groups g on g.id = gm.group_id
    join custom_roles gcr on gcr.id = g.custom_role_id
    where gm.user_id = m.user_id and gm.workspace_id = m.workspace_id) as "member_group_role_permissions", (
  m.role <> 'owner'
  and s.via_workspace_id is distinct from m.workspace_id
  and exists (select 1 from workspace_sso ws where ws.workspace_id = m.workspace_id and ws.require_sso)
  and exists (select 1 from user_identities ui
              where ui.user_id = m.user_id and ui.provider = 'workspace:' || m.workspace_id::text)) as "member_sso_unproved",
  "w"."id" as "workspace_id", "w"."name" as "workspace_name", "w"."plan" as "workspace_plan",
  "w"."trial_ends_at" as "workspace_trial_ends_at", "w"."licenses" as "workspace_licenses",
  "w"."hide_disabled_users" as "workspace_hide_disabled_users", "w"."created_at" as "workspace_created_at",
  "w"."updated_at" as "workspace_updated_at"
  from "sessions" as "s" inner join "users" as "u" on "u"."id" = "s"."user_id"
  left join "memberships" as "m" on "m"."user_id" = "s"."user_id" and "m"."workspace_id" = $1 and "m"."status" = $2
  left join "workspaces" as "w" on "w"."id" = "m"."workspace_id"
  where "s"."id_hash" = $3 and "s"."expires_at" > $4 and "s"."idle_expires_at" > $5`;
// The locks on time (lock date, submitted and approved periods), holding the owner's membership row
// until the write commits: every time write checks them before it changes anything.
const LOCKS = `with locked as materialized (
    select m.user_id from memberships m
    where m.workspace_id = $1 and m.user_id = any($2::uuid[])
    for key share skip locked
  ),
  t as (
    select t.user_id, coalesce(nullif(u.name, ''), u.email) as name, (t.at at time zone u.time_zone)::date as day
    from unnest($3::uuid[], $4::timestamptz[]) as t (user_id, at)
    join users u on u.id = t.user_id
  ),
  met as (
    select t.user_id, t.name, to_char(t.day, 'YYYY-MM-DD') as day, to_char(s.lock_date, 'YYYY-MM-DD') as lock_date,
      a.status, to_char(a.period_start, 'YYYY-MM-DD') as period_start, to_char(a.period_end, 'YYYY-MM-DD') as period_end,
      a.status = 'approved' as approved, t.day as sort_day
    from t
    left join approval_settings s on s.workspace_id = $5
    left join approvals a on a.workspace_id = $6 and a.user_id = t.user_id
      and a.status in ('submitted', 'approved') and a.period_start <= t.day and a.period_end >= t.day
    where t.day < s.lock_date or a.id is not null
  )
  select (select count(*) from locked)::int as held,
    (select count(*) from memberships m where m.workspace_id = $7 and m.user_id = any($8::uuid[]))::int as members,
    met.user_id, met.name, met.day, met.lock_date, met.status, met.period_start, met.period_end
  from (select 1) as one
  left join met on true
  order by met.approved desc nulls last, met.sort_day`;
/** 409 when the time at `at` is locked for its owner (the bench's people own their workspaces: no lock applies). */
async function assertUnlocked(client, workspaceId, userId, at) {
  const { rows } = await client.query(LOCKS, [
    workspaceId,
    [userId],
    [userId],
    [at.toISOString()],
    workspaceId,
    workspaceId,
    workspaceId,
    [userId],
  ]);
  return rows.every((row) => row.user_id === null);
}
const COLUMNS = `id, workspace_id, user_id, project_id, task_id, note, billable, start_at, end_at, duration_seconds,
  billable_rate_cents, cost_rate_cents, invoiced_at, created_by_user_id, created_at, updated_at`;
const E_COLUMNS = COLUMNS.replaceAll(/(\w+)/g, 'e.$1');
const TAG_IDS = `coalesce((select array_agg(t.tag_id::text order by t.tag_id) from time_entry_tags t
  where t.workspace_id = e.workspace_id and t.entry_id = e.id), '{}')`;
const BREAKS = `coalesce((select json_agg(json_build_object(
  'start_at', b.start_at, 'end_at', b.end_at) order by b.start_at) from time_entry_breaks b
  where b.workspace_id = e.workspace_id and b.entry_id = e.id), '[]')`;
// The week: finished entries (and zero-length ones at its start) bounded below by the workspace's longest
// entry, and the running one.
const LIST = `select e.*, ${TAG_IDS} as tag_ids, ${BREAKS} as breaks
  from ((select ${E_COLUMNS} from time_entries as e where e.workspace_id = $1 and e.user_id in ($2)
    and e.start_at < $3 and ((e.end_at > $4 or (e.end_at = e.start_at and e.start_at >= $5::timestamptz))
    and e.start_at >= $6::timestamptz - make_interval(secs => coalesce(
      (select x.longest_seconds from time_entry_extents x where x.workspace_id = $7), 0)))
    order by e.start_at desc, e.id desc limit $8)
  union all (select ${E_COLUMNS} from time_entries as e where e.workspace_id = $9 and e.user_id in ($10)
    and e.start_at < $11 and e.end_at is null) order by start_at desc, id desc limit $12) e
  order by e.start_at desc, e.id desc`;
// What locks the page's entries (lock date, a submitted or approved period, a client invoice), as Sundial
// reads it for the list: entries under no lock give no row.
const LOCK_FACTS = `select e.id, e.user_id, to_char(d.day, 'YYYY-MM-DD') as day, to_char(s.lock_date, 'YYYY-MM-DD') as lock_date,
    a.status, to_char(a.period_start, 'YYYY-MM-DD') as period_start, to_char(a.period_end, 'YYYY-MM-DD') as period_end,
    l.entry_id is not null as on_invoice, i.number as invoice_number
  from time_entries e
  join users u on u.id = e.user_id
  cross join lateral (select (e.start_at at time zone u.time_zone)::date as day) d
  left join approval_settings s on s.workspace_id = e.workspace_id
  left join lateral (select a.status, a.period_start, a.period_end from approvals a
    where a.workspace_id = e.workspace_id and a.user_id = e.user_id and a.status in ('submitted', 'approved')
      and a.period_start <= d.day and a.period_end >= d.day
    order by a.status = 'approved' desc limit 1) a on true
  left join client_invoice_entries l on l.entry_id = e.id
  left join client_invoices i on i.id = l.invoice_id
  where e.workspace_id = $1 and e.id = any($2::uuid[])
    and (d.day < s.lock_date or a.status is not null or l.entry_id is not null)`;
const RUNNING_FOR_UPDATE = `select ${E_COLUMNS}, ${TAG_IDS} as tag_ids, ${BREAKS} as breaks from time_entries as e
  where e.workspace_id = $1 and e.user_id = $2 and e.end_at is null for update of e`;
// An entry copies the rates in force at its start, as Sundial's insert does.
const INSERT = `insert into time_entries (id, workspace_id, user_id, project_id, task_id, note, billable, start_at,
  end_at, duration_seconds, billable_rate_cents, cost_rate_cents, created_by_user_id)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
    rate_in_force($11, $12::uuid, $13::uuid, $14::uuid, $15::uuid, $16::timestamptz),
    rate_in_force($17, $18::uuid, $19::uuid, $20::uuid, $21::uuid, $22::timestamptz), $23)
  returning ${COLUMNS}`;
// The project with the tag lists it requires (unarchived, by name), as Sundial reads it for a new entry.
const PROJECT = `select "id", "archived_at", "billable_default", coalesce((select json_agg(json_build_object('listId', l.id, 'listName', l.name)
  order by l.name) from project_required_tag_lists r join tag_lists l on l.workspace_id = r.workspace_id
  and l.id = r.tag_list_id where r.workspace_id = projects.workspace_id and r.project_id = projects.id
  and l.archived_at is null), '[]') as "required_tag_lists" from "projects" where "workspace_id" = $1 and "id" = $2`;
const insertValues = (id, ws, user, project, note, billable, start, end, duration) => [
  ...[id, ws, user, project, null, note, billable, start, end, duration],
  ...['billable', ws, user, project, null, start, 'cost', ws, user, project, null, start, user],
];

/** The breaks column (JSON, its times as text) with its times as dates, as Sundial reads it. */
const breaksOf = (e) =>
  e.breaks.map((b) => ({ start_at: new Date(b.start_at), end_at: b.end_at === null ? null : new Date(b.end_at) }));

const iso = (d) => (d ? new Date(d).toISOString() : null);
function view(e, tagIds, breaks, now) {
  const end = e.end_at ? new Date(e.end_at) : null;
  const pauses = breaks.map((b) => ({ start: iso(b.start_at), end: iso(b.end_at) }));
  let duration = e.duration_seconds;
  if (duration === null) {
    const until = (end ?? now).getTime();
    const paused = breaks.reduce(
      (sum, b) => sum + ((b.end_at ? new Date(b.end_at).getTime() : until) - new Date(b.start_at).getTime()),
      0,
    );
    duration = Math.max(0, Math.floor((until - new Date(e.start_at).getTime() - paused) / 1000));
  }
  return {
    id: e.id,
    workspaceId: e.workspace_id,
    userId: e.user_id,
    projectId: e.project_id,
    taskId: e.task_id,
    tagIds,
    note: e.note,
    billable: e.billable,
    start: iso(e.start_at),
    end: iso(end),
    isRunning: end === null,
    isPaused: end === null && pauses.some((b) => b.end === null),
    breaks: pauses,
    durationSeconds: duration,
    createdAt: iso(e.created_at),
    updatedAt: iso(e.updated_at),
    // What an owner sees of money: the rates copied on the entry and their amounts.
    billableRateCents: e.billable_rate_cents,
    billableAmountCents:
      e.billable_rate_cents === null ? null : e.billable ? Math.round((e.billable_rate_cents * duration) / 3600) : 0,
    costRateCents: e.cost_rate_cents,
    costAmountCents: e.cost_rate_cents === null ? null : Math.round((e.cost_rate_cents * duration) / 3600),
    // No lock holds the bench's entries (LOCK_FACTS finds none).
    lock: null,
  };
}

async function authenticate(req, workspaceId, now) {
  const secret = /(?:^|;\s*)sundial_sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  if (!secret) return null;
  const hash = createHash('sha256').update(decodeURIComponent(secret)).digest('hex');
  const { rows } = await pool.query(AUTH, [workspaceId, 'active', hash, now, now]);
  const row = rows[0];
  if (!row) return null;
  if (now - row.session_last_seen_at > 60_000) {
    const idle = row.session_remember ? 30 * 86_400_000 : 30 * 60_000;
    await pool.query('update sessions set last_seen_at = $2, idle_expires_at = $3 where id_hash = $1', [
      hash,
      now,
      new Date(Math.min(now.getTime() + idle, row.session_expires_at.getTime())),
    ]);
  }
  return row;
}

async function inTransaction(work) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function publish(client, name, workspaceId, actorUserId, entryId) {
  const detail = { userId: actorUserId, entryIds: [entryId], count: 1 };
  await client.query(
    `insert into audit_log (id, action, actor_user_id, workspace_id, subject_id, detail) values ($1, $2, $3, $4, $5, $6)`,
    [randomUUID(), name, actorUserId, workspaceId, entryId, JSON.stringify(detail)],
  );
  // The budget check of the changed entries, queued in the same transaction (the budget alerts' job).
  await client.query(
    `insert into "jobs" ("id", "name", "payload", "max_attempts", "run_at", "singleton_key") values ($1, $2, $3, $4, $5, $6) on conflict ("name", "singleton_key") where singleton_key is not null and state in ('queued', 'running') do nothing returning "id"`,
    [randomUUID(), 'budgets.evaluate', JSON.stringify({ workspaceId, entryIds: [entryId] }), 5, new Date(), null],
  );
  const event = { name, workspaceId, actorUserId, payload: { userId: actorUserId, entryIds: [entryId] } };
  await client.query('select pg_notify($1, $2)', ['sundial_events', JSON.stringify(event)]);
}

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {}));
    req.on('error', reject);
  });

const settingsOf = async (client, workspaceId) =>
  (await client.query('select * from time_settings where workspace_id = $1', [workspaceId])).rows[0];

const routes = {
  async list(_req, url, auth, ws, now) {
    const from = new Date(url.searchParams.get('from'));
    const to = new Date(url.searchParams.get('to'));
    const { rows } = await pool.query(LIST, [ws, auth.id, to, from, from, from, ws, 201, ws, auth.id, to, 201]);
    const page = rows.slice(0, 200);
    // The bench's people own their workspaces, with no lock date, approvals or invoices: no entry is locked.
    const locked = await pool.query(LOCK_FACTS, [ws, page.map((e) => e.id)]);
    if (locked.rows.length > 0) return [500, { error: { code: 'unexpected_lock' } }];
    const items = page.map((e) => view(e, e.tag_ids, breaksOf(e), now));
    return [200, { items, nextCursor: null }];
  },

  async create(req, _url, auth, ws, now) {
    const body = await readBody(req);
    const start = new Date(Math.floor(Date.parse(body.start) / 1000) * 1000);
    const end = new Date(start.getTime() + body.duration * 1000);
    return inTransaction(async (client) => {
      await settingsOf(client, ws);
      if (!(await assertUnlocked(client, ws, auth.id, start))) return [409, { error: { code: 'time_locked' } }];
      const project = (await client.query(PROJECT, [ws, body.projectId])).rows[0];
      if (!project) return [422, { error: { code: 'validation_failed' } }];
      // The entry carries no tags: a list the project requires refuses it, as Sundial's tag rules do.
      if (project.required_tag_lists.length > 0) return [422, { error: { code: 'validation_failed' } }];
      const values = [ws, auth.id, project.id, body.note ?? '', project.billable_default, start, end, body.duration];
      const entry = (await client.query(INSERT, insertValues(randomUUID(), ...values))).rows[0];
      await publish(client, 'time_entry.created', ws, auth.id, entry.id);
      return [201, view(entry, [], [], now)];
    });
  },

  async start(req, _url, auth, ws, now) {
    const body = await readBody(req);
    return inTransaction(async (client) => {
      const running = (await client.query(RUNNING_FOR_UPDATE, [ws, auth.id])).rows[0];
      if (!(await assertUnlocked(client, ws, auth.id, now))) return [409, { error: { code: 'time_locked' } }];
      if (running) {
        await client.query(
          'update time_entries set end_at = $3, duration_seconds = 0 where workspace_id = $1 and id = $2',
          [ws, running.id, now],
        );
      }
      const values = [ws, auth.id, null, body.note ?? '', false, now, null, null];
      const entry = (await client.query(INSERT, insertValues(randomUUID(), ...values))).rows[0];
      await publish(client, 'time_entry.created', ws, auth.id, entry.id);
      return [201, { entry: view(entry, [], [], now), stopped: null }];
    });
  },

  async stop(_req, _url, auth, ws, now) {
    return inTransaction(async (client) => {
      const running = (await client.query(RUNNING_FOR_UPDATE, [ws, auth.id])).rows[0];
      if (!running) return [409, { error: { code: 'no_running_timer' } }];
      if (!(await assertUnlocked(client, ws, auth.id, running.start_at))) {
        return [409, { error: { code: 'time_locked' } }];
      }
      await settingsOf(client, ws);
      const duration = Math.floor((now.getTime() - running.start_at.getTime()) / 1000);
      const entry = (
        await client.query(
          `update time_entries set end_at = $1, duration_seconds = $2, updated_at = $3
            where workspace_id = $4 and id = $5 and end_at is null returning ${COLUMNS}`,
          [now, duration, now, ws, running.id],
        )
      ).rows[0];
      await publish(client, 'time_entry.updated', ws, auth.id, entry.id);
      return [200, view(entry, running.tag_ids, breaksOf(running), now)];
    });
  },
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

const ROUTE = /^\/api\/v1\/workspaces\/([0-9a-f-]{36})\/(time-entries|timer\/start|timer\/stop)$/;
const names = { 'GET time-entries': 'list', 'POST time-entries': 'create', 'POST timer/start': 'start' };
names['POST timer/stop'] = 'stop';

http
  .createServer(async (req, res) => {
    const send = (status, body) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
        // The headers every Sundial answer carries: its request id and the security headers.
        'x-request-id': randomUUID(),
        ...SECURITY_HEADERS,
      });
      res.end(text);
    };
    try {
      const url = new URL(req.url, 'http://localhost');
      const match = ROUTE.exec(url.pathname);
      const name = match && names[`${req.method} ${match[2]}`];
      if (!name) return send(404, { error: { code: 'not_found' } });
      // A write sent by another site's page is refused, as Sundial's origin check does.
      const origin = req.headers.origin;
      if (req.method !== 'GET' && origin && new URL(origin).host !== req.headers.host) {
        return send(403, { error: { code: 'cross_origin' } });
      }
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const auth = await authenticate(req, match[1], now);
      if (!auth) return send(401, { error: { code: 'unauthenticated' } });
      if (!auth.member_role) return send(404, { error: { code: 'not_found' } });
      const [status, body] = await routes[name](req, url, auth, match[1], now);
      send(status, body);
    } catch (error) {
      send(500, { error: { code: 'internal_error', message: String(error) } });
    }
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
// Ends cleanly on the bench's SIGTERM, so --cpu-prof (BARE_ARGS) writes its profile.
process.on('SIGTERM', () => process.exit(0));
