import type { Db } from '../../db/connection.js';
import type { CalendarEventsTable, CalendarFeedsTable } from '../../db/tables/calendars.js';

/** An occurrence as a refresh reads it from the calendar. */
export type ParsedOccurrence = Pick<
  CalendarEventsTable,
  'uid' | 'occurrence' | 'recurring' | 'title' | 'location' | 'start_at' | 'end_at'
>;

export type FeedRow = Pick<CalendarFeedsTable, 'id' | 'workspace_id' | 'user_id' | 'include_team' | 'last_used_at'> & {
  created_at: Date;
};
const FEED_COLUMNS = ['id', 'workspace_id', 'user_id', 'include_team', 'created_at', 'last_used_at'] as const;

/** How often a feed's last use is written at most. */
export const FEED_LAST_USE_EVERY_MS = 60_000;

/** SQL of calendars: feeds by their token's hash, subscriptions, their events, choices and rules. */
export const calendarsRepository = {
  // ---- feeds

  findFeed(db: Db, workspaceId: string, userId: string): Promise<FeedRow | undefined> {
    return db
      .selectFrom('calendar_feeds')
      .select(FEED_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  findFeedByHash(db: Db, tokenHash: string): Promise<FeedRow | undefined> {
    return db
      .selectFrom('calendar_feeds')
      .select(FEED_COLUMNS)
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  /** Revokes the person's live feed; its id when there was one. */
  async revokeFeed(db: Db, workspaceId: string, userId: string, now: Date): Promise<string | undefined> {
    const row = await db
      .updateTable('calendar_feeds')
      .set({ revoked_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  },

  insertFeed(
    db: Db,
    feed: { id: string; workspaceId: string; userId: string; tokenHash: string; includeTeam: boolean },
  ): Promise<FeedRow> {
    return db
      .insertInto('calendar_feeds')
      .values({
        id: feed.id,
        workspace_id: feed.workspaceId,
        user_id: feed.userId,
        token_hash: feed.tokenHash,
        include_team: feed.includeTeam,
      })
      .returning(FEED_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  async setFeedIncludeTeam(db: Db, workspaceId: string, feedId: string, includeTeam: boolean): Promise<FeedRow> {
    return db
      .updateTable('calendar_feeds')
      .set({ include_team: includeTeam })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', feedId)
      .returning(FEED_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  /** Writes the last use, unless a read wrote one within the minute. */
  async touchFeed(db: Db, feedId: string, now: Date): Promise<void> {
    await db
      .updateTable('calendar_feeds')
      .set({ last_used_at: now })
      .where('id', '=', feedId)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', new Date(now.getTime() - FEED_LAST_USE_EVERY_MS)),
        ]),
      )
      .execute();
  },

  /** Names of the workspace's projects and tasks among `ids`, for the feed's titles. */
  async projectNames(
    db: Db,
    workspaceId: string,
    ids: { projects: string[]; tasks: string[] },
  ): Promise<{ projects: Map<string, string>; tasks: Map<string, string> }> {
    const [projects, tasks] = await Promise.all([
      ids.projects.length === 0
        ? []
        : db
            .selectFrom('projects')
            .select(['id', 'name'])
            .where('workspace_id', '=', workspaceId)
            .where('id', 'in', ids.projects)
            .execute(),
      ids.tasks.length === 0
        ? []
        : db
            .selectFrom('tasks')
            .select(['id', 'name'])
            .where('workspace_id', '=', workspaceId)
            .where('id', 'in', ids.tasks)
            .execute(),
    ]);
    return {
      projects: new Map(projects.map((p) => [p.id, p.name])),
      tasks: new Map(tasks.map((t) => [t.id, t.name])),
    };
  },

  /** The names of people among `userIds`, for the titles of a team feed. */
  async peopleNames(db: Db, userIds: string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', userIds).execute();
    return new Map(rows.map((u) => [u.id, u.name || u.email]));
  },
};
