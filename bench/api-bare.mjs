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

const AUTH = `select u.id, u.email, u.name, u.time_zone, s.remember, s.last_seen_at, s.expires_at, m.role
  from sessions s join users u on u.id = s.user_id
  left join memberships m on m.user_id = s.user_id and m.workspace_id = $2 and m.status = 'active'
  left join workspaces w on w.id = m.workspace_id
  where s.id_hash = $1 and s.expires_at > $3 and s.idle_expires_at > $3`;
const COLUMNS = `id, workspace_id, user_id, project_id, task_id, note, billable, start_at, end_at, duration_seconds,
  created_by_user_id, created_at, updated_at`;
const WITH_RELATIONS = `${COLUMNS.replaceAll(/(\w+)/g, 'e.$1')},
  coalesce((select array_agg(t.tag_id::text order by t.tag_id) from time_entry_tags t
    where t.workspace_id = e.workspace_id and t.entry_id = e.id), '{}') as tag_ids,
  coalesce((select json_agg(json_build_object('start_at', b.start_at, 'end_at', b.end_at) order by b.start_at)
    from time_entry_breaks b where b.workspace_id = e.workspace_id and b.entry_id = e.id), '[]') as breaks`;

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
  };
}

async function authenticate(req, workspaceId, now) {
  const secret = /(?:^|;\s*)sundial_sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  if (!secret) return null;
  const hash = createHash('sha256').update(decodeURIComponent(secret)).digest('hex');
  const { rows } = await pool.query(AUTH, [hash, workspaceId, now]);
  const row = rows[0];
  if (!row) return null;
  if (now - row.last_seen_at > 60_000) {
    const idle = row.remember ? 30 * 86_400_000 : 30 * 60_000;
    await pool.query('update sessions set last_seen_at = $2, idle_expires_at = $3 where id_hash = $1', [
      hash,
      now,
      new Date(Math.min(now.getTime() + idle, row.expires_at.getTime())),
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
    const { rows } = await pool.query(
      `select ${COLUMNS} from time_entries where workspace_id = $1 and user_id = $2 and start_at < $3
        and (end_at is null or end_at > $4) order by start_at desc, id desc limit 201`,
      [ws, auth.id, to, from],
    );
    const ids = rows.map((r) => r.id);
    const [tags, breaks] = await Promise.all([
      pool.query(
        'select entry_id, tag_id from time_entry_tags where workspace_id = $1 and entry_id = any($2) order by tag_id',
        [ws, ids],
      ),
      pool.query(
        'select entry_id, start_at, end_at from time_entry_breaks where workspace_id = $1 and entry_id = any($2) order by start_at',
        [ws, ids],
      ),
    ]);
    const items = rows.slice(0, 200).map((e) =>
      view(
        e,
        tags.rows.filter((t) => t.entry_id === e.id).map((t) => t.tag_id),
        breaks.rows.filter((b) => b.entry_id === e.id),
        now,
      ),
    );
    return [200, { items, nextCursor: null }];
  },

  async create(req, _url, auth, ws, now) {
    const body = await readBody(req);
    const start = new Date(body.start);
    const end = new Date(start.getTime() + body.duration * 1000);
    return inTransaction(async (client) => {
      await settingsOf(client, ws);
      const project = (
        await client.query(
          'select id, archived_at, billable_default from projects where workspace_id = $1 and id = $2',
          [ws, body.projectId],
        )
      ).rows[0];
      if (!project) return [422, { error: { code: 'validation_failed' } }];
      const entry = (
        await client.query(
          `insert into time_entries (id, workspace_id, user_id, project_id, task_id, note, billable, start_at, end_at,
            duration_seconds, created_by_user_id) values ($1, $2, $3, $4, null, $5, $6, $7, $8, $9, $3) returning ${COLUMNS}`,
          [randomUUID(), ws, auth.id, project.id, body.note ?? '', project.billable_default, start, end, body.duration],
        )
      ).rows[0];
      await publish(client, 'time_entry.created', ws, auth.id, entry.id);
      return [201, view(entry, [], [], now)];
    });
  },

  async start(req, _url, auth, ws, now) {
    const body = await readBody(req);
    return inTransaction(async (client) => {
      const running = (
        await client.query(
          `select ${COLUMNS} from time_entries where workspace_id = $1 and user_id = $2 and end_at is null for update`,
          [ws, auth.id],
        )
      ).rows[0];
      if (running) {
        await client.query(
          'update time_entries set end_at = $3, duration_seconds = 0 where workspace_id = $1 and id = $2',
          [ws, running.id, now],
        );
      }
      const entry = (
        await client.query(
          `insert into time_entries (id, workspace_id, user_id, note, billable, start_at, created_by_user_id)
            values ($1, $2, $3, $4, false, $5, $3) returning ${COLUMNS}`,
          [randomUUID(), ws, auth.id, body.note ?? '', now],
        )
      ).rows[0];
      await publish(client, 'time_entry.created', ws, auth.id, entry.id);
      return [201, { entry: view(entry, [], [], now), stopped: null }];
    });
  },

  async stop(_req, _url, auth, ws, now) {
    return inTransaction(async (client) => {
      const running = (
        await client.query(
          `select ${WITH_RELATIONS} from time_entries e where e.workspace_id = $1 and e.user_id = $2 and e.end_at is null
            for update of e`,
          [ws, auth.id],
        )
      ).rows[0];
      if (!running) return [409, { error: { code: 'no_running_timer' } }];
      await settingsOf(client, ws);
      const duration = Math.floor((now.getTime() - running.start_at.getTime()) / 1000);
      const entry = (
        await client.query(
          `update time_entries set end_at = $3, duration_seconds = $4, updated_at = $3
            where workspace_id = $1 and id = $2 and end_at is null returning ${COLUMNS}`,
          [ws, running.id, now, duration],
        )
      ).rows[0];
      await publish(client, 'time_entry.updated', ws, auth.id, entry.id);
      return [200, view(entry, running.tag_ids, running.breaks, now)];
    });
  },
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
      });
      res.end(text);
    };
    try {
      const url = new URL(req.url, 'http://localhost');
      const match = ROUTE.exec(url.pathname);
      const name = match && names[`${req.method} ${match[2]}`];
      if (!name) return send(404, { error: { code: 'not_found' } });
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const auth = await authenticate(req, match[1], now);
      if (!auth) return send(401, { error: { code: 'unauthenticated' } });
      if (!auth.role) return send(404, { error: { code: 'not_found' } });
      const [status, body] = await routes[name](req, url, auth, match[1], now);
      send(status, body);
    } catch (error) {
      send(500, { error: { code: 'internal_error', message: String(error) } });
    }
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
