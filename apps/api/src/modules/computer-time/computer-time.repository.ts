import type { ActivityPrivacyOverride, AgentPlatform, AwayActivity, ComputerTimeSettingsView } from '@sundial/core';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type {
  ActivitySpansTable,
  AgentDeviceCodesTable,
  AgentDevicesTable,
  AwayResolutionsTable,
} from '../../db/tables/computer-time.js';
import type { User } from '../../db/tables.js';
import { groupChoicesOf } from './computer-time.privacy.repository.js';

export type DeviceCodeRow = Selectable<AgentDeviceCodesTable>;
export type DeviceRow = Omit<Selectable<AgentDevicesTable>, 'token_hash'>;
export type SpanRow = Omit<Selectable<ActivitySpansTable>, 'created_at' | 'workspace_id' | 'user_id'>;
export type AwaySpanRow = Pick<SpanRow, 'started_at' | 'ended_at' | 'away_reason'>;
export type AwayResolutionRow = Pick<Selectable<AwayResolutionsTable>, (typeof RESOLUTION_COLUMNS)[number]>;
/** A span to store, as the agent sent it after the workspace's settings were applied. */
export type NewSpan = Omit<SpanRow, 'device_id'>;

/** One rollup change: seconds to add (or, negative, take away) from a person's day and application. */
export interface DailyDelta {
  day: string;
  app: string;
  /** The host of the pages, '' for time without a site. */
  site: string;
  seconds: number;
}

const DEVICE_COLUMNS = [
  'd.id',
  'd.workspace_id',
  'd.user_id',
  'd.name',
  'd.platform',
  'd.agent_version',
  'd.created_at',
  'd.last_seen_at',
  'd.revoked_at',
] as const;

const RESOLUTION_COLUMNS = [
  'started_at',
  'ended_at',
  'outcome',
  'activity_id',
  'time_entry_id',
  'entries_with_break',
  'idempotency_key',
  'created_at',
] as const;

const SPAN_COLUMNS = [
  'id',
  'device_id',
  'kind',
  'started_at',
  'ended_at',
  'app',
  'title',
  'url',
  'away_reason',
] as const;

/** Spans as one parameter array per column, unnested into rows `b (id, kind, started_at, ended_at, app, title, url, away_reason)`. */
function unnested(spans: readonly NewSpan[]) {
  const ids: string[] = [];
  const kinds: string[] = [];
  const starts: string[] = [];
  const ends: string[] = [];
  const apps: (string | null)[] = [];
  const titles: (string | null)[] = [];
  const urls: (string | null)[] = [];
  const reasons: (string | null)[] = [];
  for (const s of spans) {
    ids.push(s.id);
    kinds.push(s.kind);
    starts.push(s.started_at.toISOString());
    ends.push(s.ended_at.toISOString());
    apps.push(s.app);
    titles.push(s.title);
    urls.push(s.url);
    reasons.push(s.away_reason);
  }
  return sql`unnest(${ids}::uuid[], ${kinds}::text[], ${starts}::timestamptz[], ${ends}::timestamptz[],
                    ${apps}::text[], ${titles}::text[], ${urls}::text[], ${reasons}::text[])
    as b (id, kind, started_at, ended_at, app, title, url, away_reason)`;
}

/** SQL of computer time: pairings, devices, the workspace's settings, spans and their daily rollups. */
/** A category as stored. */
export interface CategoryRow {
  id: string;
  parent_id: string | null;
  name: string;
  productivity: 'productive' | 'neutral' | 'unproductive' | null;
  rules: { field: 'app' | 'title' | 'site'; pattern: string }[];
}

export const computerTimeRepository = {
  // ---- pairing

  async insertCode(
    db: Db,
    code: {
      id: string;
      deviceCodeHash: string;
      userCode: string;
      name: string;
      platform: AgentPlatform;
      agentVersion: string;
      expiresAt: Date;
    },
  ): Promise<boolean> {
    const row = await db
      .insertInto('agent_device_codes')
      .values({
        id: code.id,
        device_code_hash: code.deviceCodeHash,
        user_code: code.userCode,
        name: code.name,
        platform: code.platform,
        agent_version: code.agentVersion,
        expires_at: code.expiresAt,
      })
      .onConflict((oc) => oc.column('user_code').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** A code the person may still approve or deny: not expired, not decided. */
  findOpenCode(db: Db, userCode: string, now: Date): Promise<DeviceCodeRow | undefined> {
    return db
      .selectFrom('agent_device_codes')
      .selectAll()
      .where('user_code', '=', userCode)
      .where('expires_at', '>', now)
      .where('approved_at', 'is', null)
      .where('denied_at', 'is', null)
      .forUpdate()
      .executeTakeFirst() as Promise<DeviceCodeRow | undefined>;
  },

  findCodeByHash(db: Db, hash: string): Promise<DeviceCodeRow | undefined> {
    return db
      .selectFrom('agent_device_codes')
      .selectAll()
      .where('device_code_hash', '=', hash)
      .forUpdate()
      .executeTakeFirst() as Promise<DeviceCodeRow | undefined>;
  },

  async markPolled(db: Db, id: string, now: Date): Promise<void> {
    await db.updateTable('agent_device_codes').set({ last_polled_at: now }).where('id', '=', id).execute();
  },

  async decideCode(
    db: Db,
    id: string,
    decision: { userId: string; workspaceId: string | null; approvedAt: Date | null; deniedAt: Date | null },
  ): Promise<void> {
    await db
      .updateTable('agent_device_codes')
      .set({
        user_id: decision.userId,
        workspace_id: decision.workspaceId,
        approved_at: decision.approvedAt,
        denied_at: decision.deniedAt,
      })
      .where('id', '=', id)
      .execute();
  },

  async deleteCode(db: Db, id: string): Promise<void> {
    await db.deleteFrom('agent_device_codes').where('id', '=', id).execute();
  },

  /** Codes past their life (kept a day, so a late poll still hears expired_token rather than nothing). */
  async purgeCodes(db: Db, before: Date): Promise<void> {
    await db.deleteFrom('agent_device_codes').where('expires_at', '<', before).execute();
  },

  async isActiveMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
    const row = await db
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return row !== undefined;
  },

  // ---- devices

  async insertDevice(
    db: Db,
    device: {
      id: string;
      workspaceId: string;
      userId: string;
      name: string;
      platform: AgentPlatform;
      agentVersion: string;
      tokenHash: string;
    },
  ): Promise<void> {
    await db
      .insertInto('agent_devices')
      .values({
        id: device.id,
        workspace_id: device.workspaceId,
        user_id: device.userId,
        name: device.name,
        platform: device.platform,
        agent_version: device.agentVersion,
        token_hash: device.tokenHash,
      })
      .execute();
  },

  /** The live device of a token's hash with its person, while they are an active member of its workspace. */
  async findLiveDevice(db: Db, tokenHash: string): Promise<{ device: DeviceRow; user: User } | undefined> {
    const row = await db
      .selectFrom('agent_devices as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.workspace_id', '=', 'd.workspace_id').onRef('m.user_id', '=', 'd.user_id'),
      )
      .selectAll('u')
      .select(sql<DeviceRow>`to_jsonb(d) - 'token_hash'`.as('device'))
      .where('d.token_hash', '=', tokenHash)
      .where('d.revoked_at', 'is', null)
      .where('m.status', '=', 'active')
      .executeTakeFirst();
    if (!row) return undefined;
    const { device, ...user } = row;
    return {
      user: user as User,
      device: {
        ...device,
        created_at: new Date(device.created_at),
        last_seen_at: device.last_seen_at && new Date(device.last_seen_at),
        revoked_at: null,
      },
    };
  },

  async touchDevice(db: Db, id: string, now: Date): Promise<void> {
    await db.updateTable('agent_devices').set({ last_seen_at: now }).where('id', '=', id).execute();
  },

  /** A person's devices not revoked, newest first, with each one's workspace. */
  listDevices(db: Db, userId: string): Promise<(DeviceRow & { workspace_name: string })[]> {
    return db
      .selectFrom('agent_devices as d')
      .innerJoin('workspaces as w', 'w.id', 'd.workspace_id')
      .select([...DEVICE_COLUMNS, 'w.name as workspace_name'])
      .where('d.user_id', '=', userId)
      .where('d.revoked_at', 'is', null)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .execute() as Promise<(DeviceRow & { workspace_name: string })[]>;
  },

  /** Revokes one of a person's devices; answers it, or undefined when it is not theirs or already revoked. */
  revokeDevice(db: Db, userId: string, id: string, now: Date) {
    return db
      .updateTable('agent_devices')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning(['id', 'name', 'workspace_id'])
      .executeTakeFirst();
  },

  // ---- settings

  async settings(db: Db, workspaceId: string): Promise<ComputerTimeSettingsView | undefined> {
    const row = await db
      .selectFrom('computer_time_settings')
      .select(['keep', 'idle_seconds', 'retention_days', 'managers_see_activity', 'exclusions'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return (
      row && {
        keep: row.keep,
        idleSeconds: row.idle_seconds,
        retentionDays: row.retention_days,
        managersSeeActivity: row.managers_see_activity,
        exclusions: row.exclusions,
      }
    );
  },

  async saveSettings(db: Db, workspaceId: string, settings: ComputerTimeSettingsView): Promise<void> {
    const values = {
      keep: settings.keep,
      idle_seconds: settings.idleSeconds,
      retention_days: settings.retentionDays,
      managers_see_activity: settings.managersSeeActivity,
      exclusions: JSON.stringify(settings.exclusions),
    };
    await db
      .insertInto('computer_time_settings')
      .values({ workspace_id: workspaceId, ...values })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ ...values, updated_at: sql`now()` }))
      .execute();
  },

  /** Workspaces that keep activity for a number of days, with that number. */
  retentions(db: Db): Promise<{ workspace_id: string; retention_days: number }[]> {
    return db
      .selectFrom('computer_time_settings')
      .select(['workspace_id', 'retention_days'])
      .where('retention_days', 'is not', null)
      .execute() as Promise<{ workspace_id: string; retention_days: number }[]>;
  },

  // ---- spans

  async timeZoneOf(db: Db, userId: string): Promise<string> {
    const row = await db.selectFrom('users').select('time_zone').where('id', '=', userId).executeTakeFirstOrThrow();
    return row.time_zone;
  },

  /**
   * Locks the device's row (its uploads one at a time: the overlap check and the insert of one see
   * the other's spans) and reads what an upload needs: the workspace's settings (undefined: the
   * defaults) and the person's time zone, in one round trip.
   */
  async lockForUpload(
    db: Db,
    deviceId: string,
  ): Promise<{
    settings: ComputerTimeSettingsView | undefined;
    groupChoices: ActivityPrivacyOverride[];
    timeZone: string;
  }> {
    // The person's groups' own choices come in the same statement: theirs and those of the groups
    // their groups sit in (`groupChoicesOf`, shared with the agent's settings).
    const { rows } = await sql<{
      time_zone: string;
      keep: ComputerTimeSettingsView['keep'] | null;
      idle_seconds: number;
      retention_days: number | null;
      managers_see_activity: boolean;
      exclusions: ComputerTimeSettingsView['exclusions'];
      group_choices: ActivityPrivacyOverride[] | null;
    }>`
      select u.time_zone, s.keep, s.idle_seconds, s.retention_days, s.managers_see_activity, s.exclusions,
        ${groupChoicesOf(sql.ref('d.workspace_id'), sql.ref('d.user_id'))} as group_choices
      from agent_devices d
      join users u on u.id = d.user_id
      left join computer_time_settings s on s.workspace_id = d.workspace_id
      where d.id = ${deviceId}
      for update of d
    `.execute(db);
    const row = rows[0];
    if (!row) throw new Error(`device ${deviceId} is gone`);
    const settings =
      row.keep === null
        ? undefined
        : {
            keep: row.keep,
            idleSeconds: row.idle_seconds,
            retentionDays: row.retention_days,
            managersSeeActivity: row.managers_see_activity,
            exclusions: row.exclusions,
          };
    return { settings, groupChoices: row.group_choices ?? [], timeZone: row.time_zone };
  },

  /**
   * Stores an upload's spans whose id is new, in one statement, unless one of them overlaps a span
   * of the device already stored (a span with the same id is the same span; touching ends do not
   * overlap): then nothing is stored and the first such span is answered. Else answers the ids of
   * the spans that were already stored (usually none). The device's stored spans never overlap one
   * another, so only the last one starting before a span's end can overlap it: one index probe per
   * span; and none ends after the device's last one, so a span from that end on (an upload of what
   * came next, the usual case) needs no probe at all.
   */
  async insertUpload(
    db: Db,
    owner: { workspaceId: string; userId: string; deviceId: string },
    spans: readonly NewSpan[],
  ): Promise<{ overlap: { id: string; started_at: Date } | undefined; duplicates: Set<string> }> {
    const { rows } = await sql<{ overlap: boolean; id: string; started_at: Date | null }>`
      with b as materialized (select * from ${unnested(spans)}),
      last as materialized (
        select s.ended_at from activity_spans s
        where s.workspace_id = ${owner.workspaceId} and s.user_id = ${owner.userId} and s.device_id = ${owner.deviceId}
        order by s.started_at desc
        limit 1
      ),
      overlap as materialized (
        select b.id, b.started_at
        from b
        cross join lateral (
          select s.ended_at from activity_spans s
          where s.workspace_id = ${owner.workspaceId} and s.user_id = ${owner.userId}
            and s.device_id = ${owner.deviceId} and s.started_at < b.ended_at and s.id <> b.id
          order by s.started_at desc
          limit 1
        ) as previous
        where previous.ended_at > b.started_at and b.started_at < (select ended_at from last)
        order by b.started_at
        limit 1
      ),
      stored as (
        insert into activity_spans (id, workspace_id, user_id, device_id, kind, started_at, ended_at, app, title, url, away_reason)
        select b.id, ${owner.workspaceId}, ${owner.userId}, ${owner.deviceId}, b.kind, b.started_at, b.ended_at,
               b.app, b.title, b.url, b.away_reason
        from b
        where not exists (select from overlap)
        on conflict (id) do nothing
        returning id
      )
      select true as overlap, id, started_at from overlap
      union all
      select false, b.id, null from b where not exists (select from overlap) and b.id not in (select id from stored)
    `.execute(db);
    const overlap = rows.find((r) => r.overlap);
    return {
      overlap: overlap && { id: overlap.id, started_at: overlap.started_at as Date },
      duplicates: new Set(rows.map((r) => r.id)),
    };
  },

  /** Stores the spans whose id is new; answers the ids stored (a span already stored is left as it is). */
  async insertSpans(
    db: Db,
    owner: { workspaceId: string; userId: string; deviceId: string },
    spans: readonly NewSpan[],
  ): Promise<Set<string>> {
    const { rows } = await sql<{ id: string }>`
      insert into activity_spans (id, workspace_id, user_id, device_id, kind, started_at, ended_at, app, title, url, away_reason)
      select b.id, ${owner.workspaceId}, ${owner.userId}, ${owner.deviceId}, b.kind, b.started_at, b.ended_at,
             b.app, b.title, b.url, b.away_reason
      from ${unnested(spans)}
      on conflict (id) do nothing
      returning id
    `.execute(db);
    return new Set(rows.map((r) => r.id));
  },

  /** A person's spans overlapping [from, to), by start. */
  spansOf(db: Db, workspaceId: string, userId: string, from: Date, to: Date): Promise<SpanRow[]> {
    return db
      .selectFrom('activity_spans')
      .select(SPAN_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('started_at', '<', to)
      .where('started_at', '>', new Date(from.getTime() - 86_400_000))
      .where('ended_at', '>', from)
      .orderBy('started_at')
      .orderBy('id')
      .execute();
  },

  async deleteSpans(db: Db, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await db.deleteFrom('activity_spans').where('id', 'in', ids).execute();
  },

  async moveSpan(db: Db, id: string, bounds: { started_at: Date; ended_at: Date }): Promise<void> {
    await db.updateTable('activity_spans').set(bounds).where('id', '=', id).execute();
  },

  /**
   * Deletes the workspace's spans that ended before `before`, and its rollup days before `beforeDay`.
   * The spans go person by person, each an index range of (workspace, person, start) (`= any` of
   * the people, found by skipping through that index: a loose index scan), so no index on the start
   * alone is needed; a join to the people instead would be planned as a scan of the whole table.
   */
  async prune(db: Db, workspaceId: string, before: Date, beforeDay: string): Promise<void> {
    await sql`
      with recursive people (user_id) as (
        (select user_id from activity_spans where workspace_id = ${workspaceId} order by user_id limit 1)
        union all
        select (select s.user_id from activity_spans s
                where s.workspace_id = ${workspaceId} and s.user_id > p.user_id
                order by s.user_id limit 1)
        from people p
        where p.user_id is not null
      )
      delete from activity_spans
      where workspace_id = ${workspaceId}
        and user_id = any (array(select user_id from people where user_id is not null))
        and started_at < ${before} and ended_at <= ${before}
    `.execute(db);
    await db
      .deleteFrom('activity_daily')
      .where('workspace_id', '=', workspaceId)
      .where('day', '<', beforeDay)
      .execute();
    await db
      .deleteFrom('away_resolutions')
      .where('workspace_id', '=', workspaceId)
      .where('ended_at', '<=', before)
      .execute();
  },

  // ---- away time

  /** The workspace's away activities; null until an admin first saves them. */
  async awayActivities(db: Db, workspaceId: string): Promise<AwayActivity[] | null> {
    const row = await db
      .selectFrom('computer_time_settings')
      .select('away_activities')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.away_activities ?? null;
  },

  async saveAwayActivities(db: Db, workspaceId: string, items: readonly AwayActivity[]): Promise<void> {
    // The row may not exist yet (the workspace reads the default settings): made with them.
    await sql`insert into computer_time_settings (workspace_id) values (${workspaceId}) on conflict do nothing`.execute(
      db,
    );
    await db
      .updateTable('computer_time_settings')
      .set({ away_activities: JSON.stringify(items), updated_at: sql`now()` })
      .where('workspace_id', '=', workspaceId)
      .execute();
  },

  /** A person's away spans overlapping [from, to) (a span lasts a day at most: one index range). */
  awaySpansOf(db: Db, workspaceId: string, userId: string, from: Date, to: Date): Promise<AwaySpanRow[]> {
    return db
      .selectFrom('activity_spans')
      .select(['started_at', 'ended_at', 'away_reason'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('started_at', '<', to)
      .where('started_at', '>', new Date(from.getTime() - 86_400_000))
      .where('ended_at', '>', from)
      .where('kind', '=', 'away')
      .orderBy('started_at')
      .execute();
  },

  /** A person's resolutions of periods starting in [from, to). */
  resolutionsOf(db: Db, workspaceId: string, userId: string, from: Date, to: Date): Promise<AwayResolutionRow[]> {
    return db
      .selectFrom('away_resolutions')
      .select(RESOLUTION_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('started_at', '>=', from)
      .where('started_at', '<', to)
      .execute();
  },

  findResolution(db: Db, workspaceId: string, userId: string, start: Date): Promise<AwayResolutionRow | undefined> {
    return db
      .selectFrom('away_resolutions')
      .select(RESOLUTION_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('started_at', '=', start)
      .executeTakeFirst();
  },

  /** Stores a resolution; undefined when the period already has one. */
  insertResolution(
    db: Db,
    row: Omit<AwayResolutionRow, 'created_at'> & { workspace_id: string; user_id: string; created_at: Date },
  ): Promise<AwayResolutionRow | undefined> {
    return db
      .insertInto('away_resolutions')
      .values(row)
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id', 'started_at']).doNothing())
      .returning(RESOLUTION_COLUMNS)
      .executeTakeFirst();
  },

  deleteResolution(db: Db, workspaceId: string, userId: string, start: Date): Promise<AwayResolutionRow | undefined> {
    return db
      .deleteFrom('away_resolutions')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('started_at', '=', start)
      .returning(RESOLUTION_COLUMNS)
      .executeTakeFirst();
  },

  /** The workspace's projects among `projectIds`, each with its tasks among `taskIds`. */
  async projectsAndTasks(
    db: Db,
    workspaceId: string,
    projectIds: readonly string[],
    taskIds: readonly string[],
  ): Promise<{ projects: Set<string>; tasks: Map<string, string> }> {
    const projects = new Set<string>();
    const tasks = new Map<string, string>();
    if (projectIds.length > 0) {
      const rows = await db
        .selectFrom('projects')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', [...projectIds])
        .execute();
      for (const row of rows) projects.add(row.id);
    }
    if (taskIds.length > 0) {
      const rows = await db
        .selectFrom('tasks')
        .select(['id', 'project_id'])
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', [...taskIds])
        .execute();
      for (const row of rows) tasks.set(row.id, row.project_id);
    }
    return { projects, tasks };
  },

  // ---- daily rollups

  /** Adds the deltas to a person's rollups; a row that reaches zero seconds goes. */
  async addDaily(db: Db, owner: { workspaceId: string; userId: string }, deltas: readonly DailyDelta[]): Promise<void> {
    if (deltas.length === 0) return;
    const columns = (list: readonly DailyDelta[]) =>
      [list.map((d) => d.day), list.map((d) => d.app), list.map((d) => d.site), list.map((d) => d.seconds)] as const;
    const [days, apps, sites, seconds] = columns(deltas);
    await sql`
      insert into activity_daily as a (workspace_id, user_id, day, app, site, seconds)
      select ${owner.workspaceId}, ${owner.userId}, b.day, b.app, b.site, b.seconds
      from unnest(${days}::date[], ${apps}::text[], ${sites}::text[], ${seconds}::int[]) as b (day, app, site, seconds)
      where b.seconds > 0
      on conflict (workspace_id, user_id, day, app, site) do update set seconds = a.seconds + excluded.seconds
    `.execute(db);
    const removals = deltas.filter((d) => d.seconds < 0);
    if (removals.length === 0) return;
    const taken = columns(removals);
    const from = sql`unnest(${taken[0]}::date[], ${taken[1]}::text[], ${taken[2]}::text[], ${taken[3]}::int[])
      as b (day, app, site, seconds)`;
    const same = sql`a.workspace_id = ${owner.workspaceId} and a.user_id = ${owner.userId}
      and a.day = b.day and a.app = b.app and a.site = b.site`;
    // Rows the removal empties go first; the rest lose the seconds.
    await sql`delete from activity_daily as a using ${from} where ${same} and a.seconds + b.seconds <= 0`.execute(db);
    await sql`update activity_daily as a set seconds = a.seconds + b.seconds from ${from} where ${same}`.execute(db);
  },

  /**
   * Seconds per person, day and application over [from, to] (days), for the people given (null:
   * everyone); `together`, the people's seconds added up per day and application (user_id null).
   */
  daily(
    db: Db,
    workspaceId: string,
    range: { from: string; to: string; userIds: readonly string[] | null; together: boolean },
  ): Promise<{ user_id: string | null; day: string; app: string; site: string; seconds: number }[]> {
    if (range.userIds !== null && range.userIds.length === 0) return Promise.resolve([]);
    let query = db
      .selectFrom('activity_daily')
      .where('workspace_id', '=', workspaceId)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to);
    if (range.userIds !== null) query = query.where('user_id', 'in', range.userIds);
    const day = sql<string>`day::text`.as('day');
    if (range.together) {
      return query
        .select([sql<null>`null::uuid`.as('user_id'), day, 'app', 'site', sql<number>`sum(seconds)::int`.as('seconds')])
        .groupBy(['day', 'app', 'site'])
        .orderBy('day')
        .orderBy('seconds', 'desc')
        .orderBy('app')
        .orderBy('site')
        .execute();
    }
    return query
      .select(['user_id', day, 'app', 'site', 'seconds'])
      .orderBy('user_id')
      .orderBy('day')
      .orderBy('seconds', 'desc')
      .orderBy('app')
      .orderBy('site')
      .execute();
  },

  /** The workspace's categories, oldest first (a parent before the children made after it). */
  categories(db: Db, workspaceId: string): Promise<CategoryRow[]> {
    return db
      .selectFrom('activity_categories')
      .select(['id', 'parent_id', 'name', 'productivity', 'rules'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  /** Whether the workspace's categories were ever stored (the starter set, or a change to it). */
  async categoriesStored(db: Db, workspaceId: string): Promise<boolean> {
    const row = await db
      .selectFrom('computer_time_settings')
      .select('categories_seeded_at')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return !!row?.categories_seeded_at;
  },

  /**
   * Whether the workspace's starter categories are still to be stored, taking that on (the
   * settings row, made if missing, is locked until the transaction ends: one writer).
   */
  async claimStarterCategories(db: Db, workspaceId: string, now: Date): Promise<boolean> {
    await sql`insert into computer_time_settings (workspace_id) values (${workspaceId}) on conflict do nothing`.execute(
      db,
    );
    const row = await db
      .updateTable('computer_time_settings')
      .set({ categories_seeded_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('categories_seeded_at', 'is', null)
      .returning('workspace_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  async insertCategories(db: Db, workspaceId: string, rows: readonly CategoryRow[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('activity_categories')
      .values(
        rows.map((row, i) => ({
          id: row.id,
          workspace_id: workspaceId,
          parent_id: row.parent_id,
          name: row.name,
          productivity: row.productivity,
          rules: JSON.stringify(row.rules),
          // In the given order, a microsecond apart, so that they list as given.
          created_at: new Date(now.getTime() + i),
          updated_at: now,
        })),
      )
      .execute();
  },

  async updateCategory(
    db: Db,
    workspaceId: string,
    id: string,
    set: Partial<Omit<CategoryRow, 'id'>>,
    now: Date,
  ): Promise<void> {
    await db
      .updateTable('activity_categories')
      .set({
        ...(set.parent_id !== undefined ? { parent_id: set.parent_id } : {}),
        ...(set.name !== undefined ? { name: set.name } : {}),
        ...(set.productivity !== undefined ? { productivity: set.productivity } : {}),
        ...(set.rules !== undefined ? { rules: JSON.stringify(set.rules) } : {}),
        updated_at: now,
      })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** Deletes a category and, with it, the categories inside it; answers how many went. */
  async deleteCategory(db: Db, workspaceId: string, id: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      with recursive tree as (
        select id from activity_categories where workspace_id = ${workspaceId} and id = ${id}
        union all
        select c.id from activity_categories c join tree on c.parent_id = tree.id
      )
      select count(*)::int as n from tree
    `.execute(db);
    await db.deleteFrom('activity_categories').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    return rows[0]?.n ?? 0;
  },
};
