import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { CalendarRulesTable, CalendarSubscriptionsTable } from '../../db/tables/calendars.js';
import type { ParsedOccurrence } from './calendars.repository.js';

export type SubscriptionRow = Omit<CalendarSubscriptionsTable, 'created_at'> & { created_at: Date };
const SUBSCRIPTION_COLUMNS = [
  'id',
  'workspace_id',
  'user_id',
  'name',
  'host',
  'url_sealed',
  'created_at',
  'refreshed_at',
  'last_error',
] as const;

export type RuleRow = Omit<CalendarRulesTable, 'created_at'> & { created_at: Date };
const RULE_COLUMNS = ['id', 'workspace_id', 'user_id', 'contains', 'project_id', 'task_id', 'created_at'] as const;

/** An occurrence of a person's calendar, with its calendar's name and what its series was given last time. */
export interface ListedEvent {
  id: string;
  subscription_id: string;
  calendar_name: string;
  uid: string;
  recurring: boolean;
  title: string;
  location: string;
  start_at: Date;
  end_at: Date;
  time_entry_id: string | null;
  chosen_project_id: string | null;
  chosen_task_id: string | null;
}

/** The events of a person's calendars, with the calendar's name and the series' last choice. */
const personsEvents = (db: Db, workspaceId: string, userId: string) =>
  db
    .selectFrom('calendar_events as e')
    .innerJoin('calendar_subscriptions as s', 's.id', 'e.subscription_id')
    .leftJoin('calendar_event_choices as c', (join) =>
      join.onRef('c.subscription_id', '=', 'e.subscription_id').onRef('c.uid', '=', 'e.uid'),
    )
    .select([
      'e.id',
      'e.subscription_id',
      's.name as calendar_name',
      'e.uid',
      'e.recurring',
      'e.title',
      'e.location',
      'e.start_at',
      'e.end_at',
      'e.time_entry_id',
      'c.project_id as chosen_project_id',
      'c.task_id as chosen_task_id',
    ])
    .where('e.workspace_id', '=', workspaceId)
    .where('s.user_id', '=', userId);

/** SQL of subscribed calendars: a person's own subscriptions, their events, choices and keyword rules. */
export const calendarSubscriptionsRepository = {
  list(db: Db, workspaceId: string, userId: string): Promise<(SubscriptionRow & { event_count: number })[]> {
    return db
      .selectFrom('calendar_subscriptions as s')
      .select(SUBSCRIPTION_COLUMNS)
      .select((eb) =>
        eb
          .selectFrom('calendar_events as e')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('e.subscription_id', '=', 's.id')
          .as('event_count'),
      )
      .where('s.workspace_id', '=', workspaceId)
      .where('s.user_id', '=', userId)
      .orderBy('s.created_at')
      .orderBy('s.id')
      .execute() as Promise<(SubscriptionRow & { event_count: number })[]>;
  },

  /** One of the person's subscriptions. */
  find(db: Db, workspaceId: string, userId: string, id: string): Promise<SubscriptionRow | undefined> {
    return db
      .selectFrom('calendar_subscriptions as s')
      .select(SUBSCRIPTION_COLUMNS)
      .where('s.workspace_id', '=', workspaceId)
      .where('s.user_id', '=', userId)
      .where('s.id', '=', id)
      .executeTakeFirst();
  },

  /** Every subscription, for the hourly refresh (a page after `afterId`). */
  page(db: Db, afterId: string | null, limit: number): Promise<SubscriptionRow[]> {
    let query = db.selectFrom('calendar_subscriptions as s').select(SUBSCRIPTION_COLUMNS).orderBy('s.id').limit(limit);
    if (afterId) query = query.where('s.id', '>', afterId);
    return query.execute();
  },

  insert(
    db: Db,
    row: { id: string; workspaceId: string; userId: string; name: string; host: string; urlSealed: string },
  ): Promise<SubscriptionRow> {
    return db
      .insertInto('calendar_subscriptions')
      .values({
        id: row.id,
        workspace_id: row.workspaceId,
        user_id: row.userId,
        name: row.name,
        host: row.host,
        url_sealed: row.urlSealed,
      })
      .returning(SUBSCRIPTION_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  async remove(db: Db, workspaceId: string, userId: string, id: string): Promise<string | undefined> {
    const row = await db
      .deleteFrom('calendar_subscriptions')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returning('name')
      .executeTakeFirst();
    return row?.name;
  },

  /** Records a refresh: when, and why it failed (null: it did not). */
  async markRefreshed(db: Db, id: string, at: Date, error: string | null): Promise<void> {
    await db
      .updateTable('calendar_subscriptions')
      .set({ refreshed_at: at, last_error: error })
      .where('id', '=', id)
      .execute();
  },

  /**
   * Makes the subscription's events those read: each occurrence updated in place by its UID and
   * original start (so the entry made from it stays linked), new ones added, gone ones deleted.
   */
  async replaceEvents(
    db: Db,
    sub: { id: string; workspaceId: string },
    occurrences: readonly ParsedOccurrence[],
    newId: () => string,
  ): Promise<void> {
    const existing = await db
      .selectFrom('calendar_events')
      .select(['id', 'uid', 'occurrence'])
      .where('subscription_id', '=', sub.id)
      .execute();
    const keyOf = (e: { uid: string; occurrence: string }) => `${e.uid}\u0000${e.occurrence}`;
    const kept = new Set(occurrences.map(keyOf));
    const gone = existing.filter((e) => !kept.has(keyOf(e))).map((e) => e.id);
    if (gone.length > 0) await db.deleteFrom('calendar_events').where('id', 'in', gone).execute();
    for (let i = 0; i < occurrences.length; i += 500) {
      const chunk = occurrences.slice(i, i + 500);
      await db
        .insertInto('calendar_events')
        .values(
          chunk.map((o) => ({
            id: newId(),
            workspace_id: sub.workspaceId,
            subscription_id: sub.id,
            uid: o.uid,
            occurrence: o.occurrence,
            recurring: o.recurring,
            title: o.title,
            location: o.location,
            start_at: o.start_at,
            end_at: o.end_at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['subscription_id', 'uid', 'occurrence']).doUpdateSet((eb) => ({
            recurring: eb.ref('excluded.recurring'),
            title: eb.ref('excluded.title'),
            location: eb.ref('excluded.location'),
            start_at: eb.ref('excluded.start_at'),
            end_at: eb.ref('excluded.end_at'),
          })),
        )
        .execute();
    }
  },

  /** The person's events overlapping [from, to), earliest first. */
  events(db: Db, workspaceId: string, userId: string, range: { from: Date; to: Date }): Promise<ListedEvent[]> {
    return personsEvents(db, workspaceId, userId)
      .where('e.start_at', '<', range.to)
      .where('e.end_at', '>', range.from)
      .orderBy('e.start_at')
      .orderBy('e.id')
      .limit(2000)
      .execute();
  },

  /** One of the person's events. */
  findEvent(db: Db, workspaceId: string, userId: string, id: string): Promise<ListedEvent | undefined> {
    return personsEvents(db, workspaceId, userId).where('e.id', '=', id).executeTakeFirst();
  },

  /** Links the entry made from an event; false when another was linked first. */
  async linkEntry(db: Db, eventId: string, entryId: string): Promise<boolean> {
    const row = await db
      .updateTable('calendar_events')
      .set({ time_entry_id: entryId })
      .where('id', '=', eventId)
      .where('time_entry_id', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Remembers the project and task given to an event's series. */
  async choose(
    db: Db,
    choice: {
      workspaceId: string;
      subscriptionId: string;
      uid: string;
      projectId: string | null;
      taskId: string | null;
    },
    at: Date,
  ): Promise<void> {
    await db
      .insertInto('calendar_event_choices')
      .values({
        workspace_id: choice.workspaceId,
        subscription_id: choice.subscriptionId,
        uid: choice.uid,
        project_id: choice.projectId,
        task_id: choice.taskId,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['subscription_id', 'uid']).doUpdateSet({
          project_id: choice.projectId,
          task_id: choice.taskId,
          updated_at: at,
        }),
      )
      .execute();
  },

  /** Whether the project (and the task, of that project) are the workspace's. */
  async projectAndTaskIn(
    db: Db,
    workspaceId: string,
    projectId: string,
    taskId: string | null,
  ): Promise<{ project: boolean; task: boolean }> {
    const project = await db
      .selectFrom('projects')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', projectId)
      .executeTakeFirst();
    const task = taskId
      ? await db
          .selectFrom('tasks')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('project_id', '=', projectId)
          .where('id', '=', taskId)
          .executeTakeFirst()
      : undefined;
    return { project: project !== undefined, task: task !== undefined };
  },

  rules(db: Db, workspaceId: string, userId: string): Promise<RuleRow[]> {
    return db
      .selectFrom('calendar_rules')
      .select(RULE_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  },

  insertRule(
    db: Db,
    rule: {
      id: string;
      workspaceId: string;
      userId: string;
      contains: string;
      projectId: string;
      taskId: string | null;
    },
  ): Promise<RuleRow> {
    return db
      .insertInto('calendar_rules')
      .values({
        id: rule.id,
        workspace_id: rule.workspaceId,
        user_id: rule.userId,
        contains: rule.contains,
        project_id: rule.projectId,
        task_id: rule.taskId,
      })
      .returning(RULE_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  async removeRule(db: Db, workspaceId: string, userId: string, id: string): Promise<boolean> {
    const row = await db
      .deleteFrom('calendar_rules')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },
};
