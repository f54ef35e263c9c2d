import type { TimeLockFacts } from '@sundial/core';
import { type OperationNodeSource, sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { finishedFrom } from '../../db/overlap.js';
import { prepared, preparedByShape } from '../../db/prepared.js';
import type { TimeEntryBreakRow, TimeEntryRow, TimeSettingsRow } from '../../db/tables/time-entries.js';
import { newId } from '../../platform/ids.js';
import {
  type EntryLock,
  entryLockOf,
  type LockFactsRow,
  type LockTarget,
  type LockWriter,
  lockFactsOf,
} from './time-entries.locks.js';

/** A tag list a project requires, as its project's statement reads it. */
export interface RequiredTagListRow {
  listId: string;
  listName: string;
}

export interface EntryWithRelations extends TimeEntryRow {
  tag_ids: string[];
  breaks: Pick<TimeEntryBreakRow, 'start_at' | 'end_at'>[];
}

/** An entry a write of another module touched, and whose it is. */
export interface TouchedEntry {
  id: string;
  user_id: string;
}

/** An entry with its project and tags, as a tag merge changes it. */
export interface TaggedEntry extends TouchedEntry {
  start_at: Date;
  project_id: string | null;
  stopped: boolean;
  tag_ids: string[];
}

/** A finished entry as an import stores it. */
export interface StoppedEntryValues {
  id: string;
  user_id: string;
  project_id: string | null;
  task_id: string | null;
  note: string;
  billable: boolean;
  start_at: Date;
  end_at: Date;
  duration_seconds: number;
  created_by_user_id: string;
  tagIds: string[];
}

export interface EntryFilter {
  userIds?: string[];
  from?: Date;
  to?: Date;
  projectId?: string;
  taskId?: string;
  tagId?: string;
  billable?: boolean;
  /** Keyset: entries strictly after this (start desc, id desc) position. */
  after?: { start: Date; id: string };
  limit: number;
}

export interface EntryValues {
  project_id?: string | null;
  task_id?: string | null;
  note?: string;
  billable?: boolean;
  start_at?: Date;
  end_at?: Date | null;
  duration_seconds?: number | null;
}

const ENTRY_COLUMNS = [
  'id',
  'workspace_id',
  'user_id',
  'project_id',
  'task_id',
  'note',
  'billable',
  'start_at',
  'end_at',
  'duration_seconds',
  'billable_rate_cents',
  'cost_rate_cents',
  'invoiced_at',
  'created_by_user_id',
  'created_at',
  'updated_at',
] as const;

/** The hourly rates to copy onto an entry: the ones in force at its start, or, on Undo, the ones it kept. */
export type EntryRates = { billable_rate_cents: number | null; cost_rate_cents: number | null };

/**
 * The rates in force for an entry of `user` on `project`/`task` starting `start` (the database
 * function `rate_in_force` of migration create_rates), as expressions of the writing statement,
 * so copying them costs no round trip. Each argument is a value or a column of the row written.
 */
type RateArg = string | Date | null | ReturnType<typeof sql.ref>;
function ratesInForce(workspaceId: RateArg, user: RateArg, project: RateArg, task: RateArg, start: RateArg) {
  const at = (kind: 'billable' | 'cost') =>
    sql<
      number | null
    >`rate_in_force(${kind}, ${workspaceId}::uuid, ${user}::uuid, ${project}::uuid, ${task}::uuid, ${start}::timestamptz)`;
  return { billable_rate_cents: at('billable'), cost_rate_cents: at('cost') };
}

/** On an UPDATE: the rates in force with the values being set, the row's own columns for the rest. */
function repricedBy(values: EntryValues) {
  const or = <K extends 'project_id' | 'task_id' | 'start_at'>(k: K) =>
    values[k] !== undefined ? (values[k] as string | Date | null) : sql.ref(k);
  return ratesInForce(sql.ref('workspace_id'), sql.ref('user_id'), or('project_id'), or('task_id'), or('start_at'));
}

/** Entries whose copied rates a re-apply considers: one level's target, over days of their owners' zones. */
export interface RepriceSelection {
  /** Any of these narrows the entries (none: every entry of the workspace). */
  userId?: string;
  projectId?: string;
  taskId?: string;
  /** Days YYYY-MM-DD, inclusive, of the entry's start in its owner's time zone. */
  from: string;
  to: string;
}

/**
 * The entries of the selection whose copied rates differ from those in force at their start, with
 * both: one definition for the preview and the apply, so what is shown is what changes.
 */
function repricing(db: Db, writer: LockWriter, s: RepriceSelection) {
  const { workspaceId } = writer;
  const day = 86_400_000;
  const inner = db
    .selectFrom('time_entries as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.id', 'e.user_id', 'e.start_at', 'e.duration_seconds', 'e.billable'])
    .select(['e.billable_rate_cents', 'e.cost_rate_cents'])
    .select([
      entryLockOf(writer).as('lock'),
      sql<boolean>`exists (select 1 from client_invoice_entries l where l.entry_id = e.id)`.as('invoiced'),
      sql<number | null>`rate_in_force('billable', e.workspace_id, e.user_id, e.project_id, e.task_id, e.start_at)`.as(
        'new_billable_rate_cents',
      ),
      sql<number | null>`rate_in_force('cost', e.workspace_id, e.user_id, e.project_id, e.task_id, e.start_at)`.as(
        'new_cost_rate_cents',
      ),
    ])
    .where('e.workspace_id', '=', workspaceId)
    .$if(s.userId !== undefined, (q) => q.where('e.user_id', '=', s.userId ?? ''))
    .$if(s.projectId !== undefined, (q) => q.where('e.project_id', '=', s.projectId ?? ''))
    .$if(s.taskId !== undefined, (q) => q.where('e.task_id', '=', s.taskId ?? ''))
    // Every zone is within a day of UTC: these bounds let the index narrow, the day test decides.
    .where('e.start_at', '>=', new Date(Date.parse(s.from) - day))
    .where('e.start_at', '<', new Date(Date.parse(s.to) + 2 * day))
    .where(sql<boolean>`(e.start_at at time zone u.time_zone)::date between ${s.from}::date and ${s.to}::date`);
  return db
    .selectFrom(inner.as('x'))
    .where((eb) =>
      eb.or([
        eb(sql`x.new_billable_rate_cents`, 'is distinct from', sql`x.billable_rate_cents`),
        eb(sql`x.new_cost_rate_cents`, 'is distinct from', sql`x.cost_rate_cents`),
      ]),
    );
}

export interface RepricedEntry {
  id: string;
  user_id: string;
  start_at: Date;
  duration_seconds: number | null;
  billable: boolean;
  billable_rate_cents: number | null;
  cost_rate_cents: number | null;
  new_billable_rate_cents: number | null;
  new_cost_rate_cents: number | null;
  /** Left out by a re-apply: the lock closing it to the writer, or being on a client invoice. */
  lock: EntryLock | null;
  invoiced: boolean;
}

async function withRelations(db: Db, workspaceId: string, rows: TimeEntryRow[]): Promise<EntryWithRelations[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [tags, breaks] = await Promise.all([
    db
      .selectFrom('time_entry_tags')
      .select(['entry_id', 'tag_id'])
      .where('workspace_id', '=', workspaceId)
      .where('entry_id', 'in', ids)
      .orderBy('tag_id')
      .execute(),
    db
      .selectFrom('time_entry_breaks')
      .select(['entry_id', 'start_at', 'end_at'])
      .where('workspace_id', '=', workspaceId)
      .where('entry_id', 'in', ids)
      .orderBy('start_at')
      .execute(),
  ]);
  return rows.map((row) => ({
    ...row,
    tag_ids: tags.filter((t) => t.entry_id === row.id).map((t) => t.tag_id),
    breaks: breaks.filter((b) => b.entry_id === row.id).map((b) => ({ start_at: b.start_at, end_at: b.end_at })),
  }));
}

/** An entry's tag ids and breaks (entry aliased `e`), as columns of its row. */
const TAG_IDS = sql<string[]>`coalesce((select array_agg(t.tag_id::text order by t.tag_id) from time_entry_tags t
  where t.workspace_id = e.workspace_id and t.entry_id = e.id), '{}')`;
const BREAKS = sql<{ start_at: string; end_at: string | null }[]>`coalesce((select json_agg(json_build_object(
  'start_at', b.start_at, 'end_at', b.end_at) order by b.start_at) from time_entry_breaks b
  where b.workspace_id = e.workspace_id and b.entry_id = e.id), '[]')`;

/** Entries with their tag ids and breaks as columns of the same row: one round trip for an entry. */
function selectWithRelations(db: Db) {
  return db
    .selectFrom('time_entries as e')
    .select(ENTRY_COLUMNS.map((c) => `e.${c}` as const))
    .select([TAG_IDS.as('tag_ids'), BREAKS.as('breaks')]);
}

function runningOf(db: Db, workspaceId: string, userId: string) {
  return selectWithRelations(db)
    .where('e.workspace_id', '=', workspaceId)
    .where('e.user_id', '=', userId)
    .where('e.end_at', 'is', null);
}

// Every timer start and stop reads the running entry, and most writes the settings: built and
// compiled once (`prepared`).
type Running = { workspaceId: string; userId: string };
const runningQuery = prepared(['workspaceId', 'userId'], (db, v: Running) => runningOf(db, v.workspaceId, v.userId));
const runningForUpdateQuery = prepared(['workspaceId', 'userId'], (db, v: Running) =>
  runningOf(db, v.workspaceId, v.userId).forUpdate('e'),
);
const settingsQuery = prepared(['workspaceId'], (db, v: { workspaceId: string }) =>
  db.selectFrom('time_settings').selectAll().where('workspace_id', '=', v.workspaceId),
);

type RowWithRelations = TimeEntryRow & { tag_ids: string[]; breaks: { start_at: string; end_at: string | null }[] };

/** The row as read, its breaks' times (JSON text) made dates. */
function toEntryWithRelations(row: RowWithRelations): EntryWithRelations {
  const entry = row as unknown as EntryWithRelations;
  if (row.breaks.length > 0) {
    entry.breaks = row.breaks.map((b) => ({
      start_at: new Date(b.start_at),
      end_at: b.end_at === null ? null : new Date(b.end_at),
    }));
  }
  return entry;
}

/**
 * Entries overlapping [from, to), newest first (`timeEntriesRepository.list`), built and compiled
 * once for each combination of filters. A finished entry that ends after `from` started at most
 * the workspace's longest entry earlier (time_entry_extents, kept by triggers), which gives the
 * index a lower bound on start_at; running entries, at most one a person, come through their own
 * index, however long ago they started.
 */
const listQuery = preparedByShape((db, f: EntryFilter & { workspaceId: string }) => {
  const { workspaceId } = f;
  const matching = () =>
    db
      .selectFrom('time_entries as e')
      .select(ENTRY_COLUMNS.map((c) => `e.${c}` as const))
      .where('e.workspace_id', '=', workspaceId)
      .$if(f.userIds !== undefined, (q) => q.where('e.user_id', 'in', f.userIds ?? []))
      .$if(f.to !== undefined, (q) => q.where('e.start_at', '<', f.to ?? new Date()))
      .$if(f.projectId !== undefined, (q) => q.where('e.project_id', '=', f.projectId ?? ''))
      .$if(f.taskId !== undefined, (q) => q.where('e.task_id', '=', f.taskId ?? ''))
      .$if(f.billable !== undefined, (q) => q.where('e.billable', '=', f.billable ?? false))
      .$if(f.tagId !== undefined, (q) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('time_entry_tags as t')
              .select(sql`1`.as('one'))
              .whereRef('t.entry_id', '=', 'e.id')
              .where('t.tag_id', '=', f.tagId ?? ''),
          ),
        ),
      )
      .$if(f.after !== undefined, (q) =>
        q.where((eb) =>
          eb.or([
            eb('e.start_at', '<', f.after?.start ?? new Date()),
            eb.and([eb('e.start_at', '=', f.after?.start ?? new Date()), eb('e.id', '<', f.after?.id ?? '')]),
          ]),
        ),
      );
  const newestFirst = (q: ReturnType<typeof matching>) =>
    q.orderBy('e.start_at', 'desc').orderBy('e.id', 'desc').limit(f.limit);
  // The page's tags and breaks come with its rows, read for the page only: one statement.
  const withTagsAndBreaks = (page: OperationNodeSource) =>
    sql<RowWithRelations>`select e.*, ${TAG_IDS} as tag_ids, ${BREAKS} as breaks
      from (${page}) e order by e.start_at desc, e.id desc`;
  if (f.from === undefined) return withTagsAndBreaks(newestFirst(matching()));
  // Each part ordered and limited on its own, so a long range stops reading at the page's end.
  const finished = newestFirst(matching().where(finishedFrom(workspaceId, f.from)));
  const running = matching().where('e.end_at', 'is', null);
  const page = sql<TimeEntryRow>`${finished} union all ${running} order by start_at desc, id desc limit ${f.limit}`;
  return withTagsAndBreaks(page);
});

/** An entry as inserted (`timeEntriesRepository.insert`), its values all given. */
type InsertValues = Omit<TimeEntryRow, 'billable_rate_cents' | 'cost_rate_cents' | 'created_at' | 'updated_at'> & {
  /** The rates it kept (Undo); otherwise those in force at its start are copied. */
  rates: EntryRates | undefined;
};

// Every manual entry and timer start inserts, every stop updates, and most writes check a
// project: each built and compiled once (for each shape of its values).
const insertQuery = preparedByShape((tx, v: InsertValues) => {
  const { rates, ...row } = v;
  return tx
    .insertInto('time_entries')
    .values({
      ...row,
      ...(rates ?? ratesInForce(v.workspace_id, v.user_id, v.project_id, v.task_id, v.start_at)),
    })
    .returning(ENTRY_COLUMNS);
});
const stopQuery = preparedByShape((tx, v: { workspaceId: string; id: string; at: Date; durationSeconds: number }) =>
  tx
    .updateTable('time_entries')
    .set({ end_at: v.at, duration_seconds: v.durationSeconds, updated_at: v.at })
    .where('workspace_id', '=', v.workspaceId)
    .where('id', '=', v.id)
    .where('end_at', 'is', null)
    .returning(ENTRY_COLUMNS),
);
const projectQuery = prepared(['workspaceId', 'id'], (db, v: { workspaceId: string; id: string }) =>
  db
    .selectFrom('projects')
    .select(['id', 'archived_at', 'billable_default'])
    // The tag lists the project requires (unarchived, by name, as the tag rules read them): a
    // write that reads its project anyway needs no statement of its own for them.
    .select(
      sql<RequiredTagListRow[]>`coalesce((select json_agg(json_build_object('listId', l.id, 'listName', l.name)
        order by l.name) from project_required_tag_lists r join tag_lists l on l.workspace_id = r.workspace_id
        and l.id = r.tag_list_id where r.workspace_id = projects.workspace_id and r.project_id = projects.id
        and l.archived_at is null), '[]')`.as('required_tag_lists'),
    )
    .where('workspace_id', '=', v.workspaceId)
    .where('id', '=', v.id),
);

export const timeEntriesRepository = {
  /** One entry with its tags and breaks, in one query. */
  async find(db: Db, workspaceId: string, id: string): Promise<EntryWithRelations | undefined> {
    const row = await selectWithRelations(db)
      .where('e.workspace_id', '=', workspaceId)
      .where('e.id', '=', id)
      .executeTakeFirst();
    return row && toEntryWithRelations(row);
  },

  async findMany(db: Db, workspaceId: string, ids: string[]): Promise<EntryWithRelations[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .selectFrom('time_entries')
      .select(ENTRY_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
    return withRelations(db, workspaceId, rows);
  },

  /**
   * Entries overlapping [from, to), newest first. A finished entry that ends after `from` started
   * at most the workspace's longest entry earlier (time_entry_extents, kept by triggers), which
   * gives the index a lower bound on start_at; running entries, at most one a person, come
   * through their own index, however long ago they started.
   */
  async list(db: Db, workspaceId: string, f: EntryFilter): Promise<EntryWithRelations[]> {
    const rows = await listQuery(db, { workspaceId, ...f });
    return rows.map(toEntryWithRelations);
  },

  /** The user's running entry with its tags and breaks, locked for the rest of the transaction. */
  async findRunningForUpdate(tx: Db, workspaceId: string, userId: string): Promise<EntryWithRelations | undefined> {
    const [row] = await runningForUpdateQuery(tx, { workspaceId, userId });
    return row && toEntryWithRelations(row);
  },

  async findRunning(db: Db, workspaceId: string, userId: string): Promise<EntryWithRelations | undefined> {
    const [row] = await runningQuery(db, { workspaceId, userId });
    return row && toEntryWithRelations(row);
  },

  /**
   * The running timers of active members (of `userIds` when given), with the names of their
   * person, project and task, longest-running first.
   */
  async listRunning(
    db: Db,
    workspaceId: string,
    userIds?: string[],
  ): Promise<
    (EntryWithRelations & {
      user_name: string;
      project_name: string | null;
      project_color: string | null;
      task_name: string | null;
    })[]
  > {
    if (userIds && userIds.length === 0) return [];
    const rows = await selectWithRelations(db)
      .innerJoin('memberships as m', (j) =>
        j.onRef('m.workspace_id', '=', 'e.workspace_id').onRef('m.user_id', '=', 'e.user_id'),
      )
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .leftJoin('projects as p', (j) =>
        j.onRef('p.workspace_id', '=', 'e.workspace_id').onRef('p.id', '=', 'e.project_id'),
      )
      .leftJoin('tasks as t', (j) => j.onRef('t.workspace_id', '=', 'e.workspace_id').onRef('t.id', '=', 'e.task_id'))
      .select((eb) => [
        eb.fn.coalesce(eb.fn('nullif', ['u.name', eb.val('')]), 'u.email').as('user_name'),
        'p.name as project_name',
        'p.color as project_color',
        't.name as task_name',
      ])
      .where('e.workspace_id', '=', workspaceId)
      .where('e.end_at', 'is', null)
      .where('m.status', '=', 'active')
      .$if(userIds !== undefined, (q) => q.where('e.user_id', 'in', userIds ?? []))
      .orderBy('e.start_at')
      .orderBy('e.id')
      .execute();
    return rows.map((row) =>
      Object.assign(toEntryWithRelations(row), {
        user_name: row.user_name as string,
        project_name: row.project_name,
        project_color: row.project_color,
        task_name: row.task_name,
      }),
    );
  },

  async insert(
    tx: Db,
    input: EntryValues & {
      workspace_id: string;
      user_id: string;
      start_at: Date;
      created_by_user_id: string | null;
      /** Only when an entry comes back from the trash with its old id. */
      id?: string;
      /** The rates it kept (Undo); otherwise those in force at its start are copied. */
      rates?: EntryRates;
      /** When it was invoiced (Undo brings an invoiced entry back invoiced). */
      invoiced_at?: Date | null;
    },
  ): Promise<TimeEntryRow> {
    const [row] = await insertQuery(tx, {
      id: input.id ?? newId(),
      workspace_id: input.workspace_id,
      user_id: input.user_id,
      project_id: input.project_id ?? null,
      task_id: input.task_id ?? null,
      note: input.note ?? '',
      billable: input.billable ?? false,
      start_at: input.start_at,
      end_at: input.end_at ?? null,
      duration_seconds: input.duration_seconds ?? null,
      rates: input.rates,
      invoiced_at: input.invoiced_at ?? null,
      created_by_user_id: input.created_by_user_id,
    });
    if (!row) throw new Error('The insert returned no row.');
    return row;
  },

  /** Whose entries these are (the ids found in the workspace). */
  async ownersOf(db: Db, workspaceId: string, ids: string[]): Promise<TouchedEntry[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('time_entries')
      .select(['id', 'user_id'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
  },

  /** Sets invoiced_at (null = not invoiced) where it changes; returns the entries changed. */
  async setInvoiced(tx: Db, workspaceId: string, ids: string[], at: Date | null): Promise<TouchedEntry[]> {
    if (ids.length === 0) return [];
    return tx
      .updateTable('time_entries')
      .set({ invoiced_at: at, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .where('invoiced_at', at === null ? 'is not' : 'is', null)
      .returning(['id', 'user_id'])
      .execute();
  },

  /** With `reprice` (its start, project or task changes), the rates in force then are copied anew. */
  async update(tx: Db, workspaceId: string, ids: string[], values: EntryValues, reprice = false): Promise<void> {
    if (ids.length === 0) return;
    await tx
      .updateTable('time_entries')
      .set({ ...values, ...(reprice ? repricedBy(values) : {}), updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
  },

  /** Changes one entry and returns it as stored; undefined when it is gone. `reprice` as for update. */
  async updateOne(
    tx: Db,
    workspaceId: string,
    id: string,
    values: EntryValues,
    reprice = false,
  ): Promise<TimeEntryRow | undefined> {
    return tx
      .updateTable('time_entries')
      .set({ ...values, ...(reprice ? repricedBy(values) : {}), updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returning(ENTRY_COLUMNS)
      .executeTakeFirst();
  },

  /**
   * Ends a running entry at `at` with its work seconds; undefined when it no longer runs (another
   * request stopped it first).
   */
  async stop(
    tx: Db,
    workspaceId: string,
    id: string,
    at: Date,
    durationSeconds: number,
  ): Promise<TimeEntryRow | undefined> {
    const [row] = await stopQuery(tx, { workspaceId, id, at, durationSeconds });
    return row;
  },

  async delete(tx: Db, workspaceId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.deleteFrom('time_entries').where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
  },

  /** Replaces the entry's tags; `{ fresh: true }` for an entry just inserted, which has none to remove. */
  async setTags(
    tx: Db,
    workspaceId: string,
    entryId: string,
    tagIds: readonly string[],
    options: { fresh?: boolean } = {},
  ): Promise<void> {
    if (!options.fresh) {
      await tx
        .deleteFrom('time_entry_tags')
        .where('workspace_id', '=', workspaceId)
        .where('entry_id', '=', entryId)
        .execute();
    }
    if (tagIds.length === 0) return;
    await tx
      .insertInto('time_entry_tags')
      .values([...new Set(tagIds)].map((tag_id) => ({ workspace_id: workspaceId, entry_id: entryId, tag_id })))
      .execute();
  },

  async openBreak(tx: Db, workspaceId: string, entryId: string, at: Date): Promise<void> {
    await tx
      .insertInto('time_entry_breaks')
      .values({ id: newId(), workspace_id: workspaceId, entry_id: entryId, start_at: at, end_at: null })
      .execute();
  },

  /** Closes the entry's open break; false when it had none. */
  async closeBreak(tx: Db, workspaceId: string, entryId: string, at: Date): Promise<boolean> {
    const closed = await tx
      .updateTable('time_entry_breaks')
      .set({ end_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('entry_id', '=', entryId)
      .where('end_at', 'is', null)
      .returning('id')
      .execute();
    return closed.length > 0;
  },

  async findMember(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('memberships')
      .select(['user_id', 'status', 'role'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },

  async findProject(db: Db, workspaceId: string, id: string) {
    const [row] = await projectQuery(db, { workspaceId, id });
    return row;
  },

  async findTask(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom('tasks')
      .select(['id', 'project_id', 'archived_at'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async countTags(db: Db, workspaceId: string, ids: readonly string[]): Promise<number> {
    return (await timeEntriesRepository.existingTags(db, workspaceId, [...new Set(ids)])).length;
  },

  async findSettings(db: Db, workspaceId: string): Promise<TimeSettingsRow | undefined> {
    const [row] = await settingsQuery(db, { workspaceId });
    return row;
  },

  /** A workspace's first settings row: defaults, and the owner's zone as the report zone. */
  async seedSettings(tx: Db, workspaceId: string, ownerUserId: string): Promise<void> {
    await tx
      .insertInto('time_settings')
      .columns(['workspace_id', 'report_time_zone', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('users')
          .select([eb.val(workspaceId).as('workspace_id'), 'time_zone', eb.val(new Date()).as('updated_at')])
          .where('id', '=', ownerUserId),
      )
      .onConflict((oc) => oc.column('workspace_id').doNothing())
      .execute();
  },

  async upsertSettings(
    tx: Db,
    workspaceId: string,
    values: Partial<Omit<TimeSettingsRow, 'workspace_id' | 'updated_at'>>,
  ): Promise<void> {
    const row = { ...values, updated_at: new Date() };
    await tx
      .insertInto('time_settings')
      .values({ workspace_id: workspaceId, ...row })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(row))
      .execute();
  },

  async markRollupsReady(db: Db, workspaceId: string, version: number): Promise<boolean> {
    const done = await db
      .updateTable('time_settings')
      .set({ rollups_ready: true })
      .where('workspace_id', '=', workspaceId)
      .where('rollups_version', '=', version)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  },

  // ---- writes other modules ask for through the time-entries service

  /**
   * The lock targets of the entries a catalogue cleanup would change (on the project, on any of the
   * tasks, carrying any of the tags): one entry's start per person and local day is enough, since
   * a lock holds a whole day.
   */
  async lockTargetsOf(
    tx: Db,
    workspaceId: string,
    scope: { projectId: string } | { taskIds: string[] } | { tagIds: string[] },
  ): Promise<LockTarget[]> {
    if (('taskIds' in scope && scope.taskIds.length === 0) || ('tagIds' in scope && scope.tagIds.length === 0)) {
      return [];
    }
    const { rows } = await sql<{ user_id: string; start_at: Date }>`
      select distinct on (e.user_id, (e.start_at at time zone u.time_zone)::date) e.user_id, e.start_at
      from time_entries e join users u on u.id = e.user_id
      where e.workspace_id = ${workspaceId} and ${
        'projectId' in scope
          ? sql`e.project_id = ${scope.projectId}`
          : 'taskIds' in scope
            ? sql`e.task_id in (${sql.join(scope.taskIds)})`
            : sql`exists (select 1 from time_entry_tags t where t.workspace_id = e.workspace_id and t.entry_id = e.id
                and t.tag_id in (${sql.join(scope.tagIds)}))`
      }`.execute(tx);
    return rows.map((r) => ({ userId: r.user_id, at: new Date(r.start_at) }));
  },

  /**
   * What decides the locks on these entries (`timeLockOf`): each one's local day in its owner's
   * zone, the lock date, the live approval holding that day (an approved one first) and the client
   * invoice it is on. One statement for a page of entries; entries on no lock have all nulls.
   */
  async lockFacts(db: Db, workspaceId: string, ids: string[]): Promise<Map<string, TimeLockFacts>> {
    if (ids.length === 0) return new Map();
    const { rows } = await sql<LockFactsRow & { id: string }>`
      select e.id, e.user_id, to_char(d.day, 'YYYY-MM-DD') as day, to_char(s.lock_date, 'YYYY-MM-DD') as lock_date,
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
      where e.workspace_id = ${workspaceId} and e.id = any(${ids}::uuid[])
        and (d.day < s.lock_date or a.status is not null or l.entry_id is not null)`.execute(db);
    return new Map(rows.map((r) => [r.id, lockFactsOf(r)]));
  },

  /** The entries carrying the tag, with what the tag rules and the locks read of them. */
  async carryingTag(tx: Db, workspaceId: string, tagId: string): Promise<TaggedEntry[]> {
    const { rows } = await sql<TaggedEntry>`
      select e.id, e.user_id, e.start_at, e.project_id, e.end_at is not null as stopped, ${TAG_IDS} as tag_ids
      from time_entries e
      where e.workspace_id = ${workspaceId} and exists (select 1 from time_entry_tags t
        where t.workspace_id = e.workspace_id and t.entry_id = e.id and t.tag_id = ${tagId})`.execute(tx);
    return rows.map((r) => ({ ...r, start_at: new Date(r.start_at) }));
  },

  /** Deletes every entry on the project; returns whose they were. */
  async deleteOnProject(tx: Db, workspaceId: string, projectId: string): Promise<TouchedEntry[]> {
    return tx
      .deleteFrom('time_entries')
      .where('workspace_id', '=', workspaceId)
      .where('project_id', '=', projectId)
      .returning(['id', 'user_id'])
      .execute();
  },

  /** Takes the tasks off their entries (the entries keep their project). */
  async detachTasks(tx: Db, workspaceId: string, taskIds: string[]): Promise<TouchedEntry[]> {
    if (taskIds.length === 0) return [];
    return tx
      .updateTable('time_entries')
      .set({ task_id: null, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('task_id', 'in', taskIds)
      .returning(['id', 'user_id'])
      .execute();
  },

  /** The entries carrying any of the tags. */
  async taggedWith(tx: Db, workspaceId: string, tagIds: string[]): Promise<TouchedEntry[]> {
    if (tagIds.length === 0) return [];
    return tx
      .selectFrom('time_entry_tags as et')
      .innerJoin('time_entries as e', (j) =>
        j.onRef('e.workspace_id', '=', 'et.workspace_id').onRef('e.id', '=', 'et.entry_id'),
      )
      .select(['e.id', 'e.user_id'])
      .distinct()
      .where('et.workspace_id', '=', workspaceId)
      .where('et.tag_id', 'in', tagIds)
      .execute();
  },

  /** Takes the tags off every entry. */
  async untag(tx: Db, workspaceId: string, tagIds: string[]): Promise<void> {
    if (tagIds.length === 0) return;
    await tx
      .deleteFrom('time_entry_tags')
      .where('workspace_id', '=', workspaceId)
      .where('tag_id', 'in', tagIds)
      .execute();
  },

  /** Gives every entry of `fromId` the tag `intoId` instead (once per entry); returns how many gained it. */
  async retag(tx: Db, workspaceId: string, fromId: string, intoId: string): Promise<number> {
    const moved = await tx
      .insertInto('time_entry_tags')
      .columns(['workspace_id', 'entry_id', 'tag_id'])
      .expression((eb) =>
        eb
          .selectFrom('time_entry_tags')
          .select(['workspace_id', 'entry_id', sql<string>`${intoId}::uuid`.as('tag_id')])
          .where('workspace_id', '=', workspaceId)
          .where('tag_id', '=', fromId),
      )
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    await this.untag(tx, workspaceId, [fromId]);
    return Number(moved.numInsertedOrUpdatedRows ?? 0);
  },

  /** Inserts stopped entries with their tags, 500 rows a statement, each with the rates in force at its start. */
  async insertStopped(tx: Db, workspaceId: string, entries: StoppedEntryValues[]): Promise<void> {
    for (let i = 0; i < entries.length; i += 500) {
      const chunk = entries.slice(i, i + 500);
      await tx
        .insertInto('time_entries')
        .values(
          chunk.map(({ tagIds: _tags, ...e }) => ({
            ...e,
            workspace_id: workspaceId,
            ...ratesInForce(workspaceId, e.user_id, e.project_id, e.task_id, e.start_at),
          })),
        )
        .execute();
      const links = chunk.flatMap((e) =>
        [...new Set(e.tagIds)].map((tagId) => ({ workspace_id: workspaceId, entry_id: e.id, tag_id: tagId })),
      );
      if (links.length > 0)
        await tx
          .insertInto('time_entry_tags')
          .values(links)
          .onConflict((oc) => oc.doNothing())
          .execute();
    }
  },

  /**
   * Re-apply, first look: the entries whose rates differ, oldest first, with old and new rates,
   * and whether the re-apply leaves them out (locked to `writer`, or invoiced).
   */
  async repriceCandidates(db: Db, writer: LockWriter, selection: RepriceSelection): Promise<RepricedEntry[]> {
    return (await repricing(db, writer, selection)
      .selectAll('x')
      .orderBy('x.start_at')
      .orderBy('x.id')
      .execute()) as RepricedEntry[];
  },

  /**
   * Re-apply: copies the rates in force onto the selection's entries that differ, leaving out those
   * locked to `writer` and those on a client invoice; returns the entries changed.
   */
  async reprice(tx: Db, writer: LockWriter, selection: RepriceSelection): Promise<TouchedEntry[]> {
    const { workspaceId } = writer;
    // The people's membership rows first, held until commit (as every write of time holds them): a
    // submission or approval in flight is waited for, and the update's own statement then sees it.
    await sql`select 1 from memberships m where m.workspace_id = ${workspaceId}
      ${selection.userId === undefined ? sql`` : sql`and m.user_id = ${selection.userId}`}
      for key share`.execute(tx);
    const changing = repricing(tx, writer, selection)
      .where(sql<boolean>`x.lock is null and not x.invoiced`)
      .select(['x.id', 'x.new_billable_rate_cents', 'x.new_cost_rate_cents']);
    const { rows } = await sql<TouchedEntry>`
      update time_entries e set
        billable_rate_cents = c.new_billable_rate_cents,
        cost_rate_cents = c.new_cost_rate_cents,
        updated_at = now()
      from (${changing}) c
      where e.workspace_id = ${workspaceId} and e.id = c.id
      returning e.id, e.user_id`.execute(tx);
    return rows;
  },

  /** Active members (all, or those of `userIds`), by name. */
  async activeMembers(
    db: Db,
    workspaceId: string,
    userIds?: string[],
  ): Promise<{ userId: string; name: string; email: string }[]> {
    if (userIds && userIds.length === 0) return [];
    return db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id as userId', 'u.name', 'u.email'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.status', '=', 'active')
      .$if(userIds !== undefined, (q) => q.where('m.user_id', 'in', userIds ?? []))
      .orderBy((eb) => eb.fn('lower', [eb.fn('coalesce', [eb.fn('nullif', ['u.name', eb.val('')]), 'u.email'])]))
      .execute();
  },

  /** The session exists, has not expired (without renewing it) and its user is still an active member. */
  async sessionStillValid(
    db: Db,
    q: { sessionHash: string; workspaceId: string; userId: string; now: Date },
  ): Promise<boolean> {
    const row = await db
      .selectFrom('sessions as s')
      .innerJoin('memberships as m', 'm.user_id', 's.user_id')
      .select('s.user_id')
      .where('s.id_hash', '=', q.sessionHash)
      .where('s.user_id', '=', q.userId)
      .where('s.expires_at', '>', q.now)
      .where('s.idle_expires_at', '>', q.now)
      .where('m.workspace_id', '=', q.workspaceId)
      .where('m.status', '=', 'active')
      .executeTakeFirst();
    return Boolean(row);
  },

  /** Keeps a deleted entry (with its tags and breaks) so Undo can bring it back. */
  async trash(tx: Db, entries: EntryWithRelations[], deletedBy: string, at: Date): Promise<void> {
    if (entries.length === 0) return;
    await tx
      .insertInto('time_entry_trash')
      .values(
        entries.map((e) => ({
          workspace_id: e.workspace_id,
          entry_id: e.id,
          user_id: e.user_id,
          deleted_by_user_id: deletedBy,
          deleted_at: at,
          data: JSON.stringify(e),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'entry_id']).doUpdateSet((eb) => ({
          deleted_at: at,
          deleted_by_user_id: deletedBy,
          data: eb.ref('excluded.data'),
        })),
      )
      .execute();
  },

  /** Takes entries out of the trash (deleted after `since`); what was kept, as stored. */
  async untrash(tx: Db, workspaceId: string, ids: string[], since: Date) {
    if (ids.length === 0) return [];
    return tx
      .deleteFrom('time_entry_trash')
      .where('workspace_id', '=', workspaceId)
      .where('entry_id', 'in', ids)
      .where('deleted_at', '>', since)
      .returning(['entry_id', 'user_id', 'data'])
      .execute();
  },

  async pruneTrash(db: Db, olderThan: Date): Promise<void> {
    await db.deleteFrom('time_entry_trash').where('deleted_at', '<', olderThan).execute();
  },

  /** The entry's closed breaks become `breaks` (an open one, a paused timer's, stays). */
  async replaceClosedBreaks(
    tx: Db,
    workspaceId: string,
    entryId: string,
    breaks: { start_at: Date; end_at: Date }[],
  ): Promise<void> {
    await tx
      .deleteFrom('time_entry_breaks')
      .where('workspace_id', '=', workspaceId)
      .where('entry_id', '=', entryId)
      .where('end_at', 'is not', null)
      .execute();
    await timeEntriesRepository.insertBreaks(tx, workspaceId, entryId, breaks);
  },

  async insertBreaks(
    tx: Db,
    workspaceId: string,
    entryId: string,
    breaks: { start_at: Date; end_at: Date | null }[],
  ): Promise<void> {
    if (breaks.length === 0) return;
    await tx
      .insertInto('time_entry_breaks')
      .values(breaks.map((b) => ({ id: newId(), workspace_id: workspaceId, entry_id: entryId, ...b })))
      .execute();
  },

  /** The ids among `ids` that are tags of the workspace. */
  async existingTags(tx: Db, workspaceId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await tx
      .selectFrom('tags')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  },
};
