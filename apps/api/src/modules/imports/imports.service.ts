import type { Readable } from 'node:stream';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { type ImportRowView, type ImportRunBody, type ImportView, isProjectToolSource } from '@sundial/core';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { analyzeAfterWrite, TIME_TABLES } from '../../db/statistics.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import { clientRecords } from '../clients/clients.service.js';
import { projectRecords } from '../projects/projects.service.js';
import { tagRecords } from '../tags/tags.service.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import {
  BATCH_ROWS,
  type ImportRow,
  type ImportSource,
  MAX_BYTES,
  MAX_ROWS,
  type ReadLimits,
  readImport,
  SOURCE_LABELS,
} from './imports.parse.js';
import { readProjectTool } from './imports.project-tools.js';
import { type ImportCatalog, importsRepository as repo } from './imports.repository.js';

const NONE = '-';
const key = (...parts: (string | null)[]) => parts.map((p) => (p ?? NONE).toLowerCase()).join('\u0000');

/** A finished entry as the time-entries service imports it, before we say who created it. */
type ImportedEntry = Omit<Parameters<TimeEntriesService['importEntries']>[2][number], 'created_by_user_id'>;

interface Plan extends ImportCatalog {
  entries: ImportedEntry[];
}

export interface ImportSummary {
  clients: number;
  projects: number;
  tasks: number;
  tags: number;
  timeEntries: number;
}

/** Task assignees of a file: the assignments planned, and who matched no member, by their name in the file. */
interface People {
  assigned: number;
  unmatched: { name: string; tasks: number }[];
}
/** Names kept of the people who match no member (a choice is asked for each). */
const UNMATCHED_KEPT = 500;

/**
 * Works out what importing rows creates, reusing what exists by name (case-insensitively), a batch
 * at a time. A task's assignee is the member with their e-mail, else the member chosen for their
 * name in `choices` (null: nobody); those with neither are counted as unmatched.
 */
function planner(
  existing: Awaited<ReturnType<typeof repo.existing>>,
  importerId: string,
  source: ImportSource,
  choices: ReadonlyMap<string, string | null> = new Map(),
) {
  const { clients, projects, tasks, tags, members, lists } = existing;
  const assignedPairs = new Set(existing.assignments.map((a) => key(a.task_id, a.user_id)));
  const unmatched = new Map<string, { name: string; tasks: number }>();
  const people = { assigned: 0 };
  const clientIds = new Map(clients.map((c) => [key(c.name), c.id]));
  const projectIds = new Map(projects.map((p) => [key(p.client_id, p.name), p.id]));
  const taskIds = new Map(tasks.map((t) => [key(t.project_id, t.parent_task_id, t.name), t.id]));
  const tagIds = new Map<string, string>();
  for (const t of tags) if (!tagIds.has(key(t.name))) tagIds.set(key(t.name), t.id);
  const userIds = new Map(members.map((m) => [m.email.toLowerCase(), m.id]));
  const listName = `Imported from ${SOURCE_LABELS[source]}`;
  const tagList = lists.find((l) => key(l.name) === key(listName)) ?? { id: newId(), name: listName };
  const totals: ImportSummary = { clients: 0, projects: 0, tasks: 0, tags: 0, timeEntries: 0 };
  const empty = (): Plan => ({
    clients: [],
    projects: [],
    tasks: [],
    tagList: null,
    tags: [],
    assignments: [],
    entries: [],
  });

  function assign(projectId: string, taskId: string, names: readonly string[]): void {
    for (const name of names) {
      const userId = userIds.get(name.toLowerCase()) ?? choices.get(name.toLowerCase());
      if (userId === undefined) {
        const found = unmatched.get(name.toLowerCase());
        if (found) found.tasks += 1;
        else if (unmatched.size < UNMATCHED_KEPT) unmatched.set(name.toLowerCase(), { name, tasks: 1 });
      } else if (userId !== null && !assignedPairs.has(key(taskId, userId))) {
        assignedPairs.add(key(taskId, userId));
        out.assignments.push({ project_id: projectId, task_id: taskId, user_id: userId });
      }
    }
  }
  let out = empty();

  function add(row: PlannedRow): void {
    let clientId: string | null = null;
    if (row.client) {
      clientId = clientIds.get(key(row.client)) ?? null;
      if (!clientId) {
        clientId = newId();
        clientIds.set(key(row.client), clientId);
        out.clients.push({ id: clientId, name: row.client });
      }
    }
    let projectId: string | null = null;
    if (row.project) {
      projectId = projectIds.get(key(clientId, row.project)) ?? null;
      if (!projectId) {
        projectId = newId();
        projectIds.set(key(clientId, row.project), projectId);
        out.projects.push({ id: projectId, name: row.project, client_id: clientId });
      }
    }
    let taskId: string | null = null;
    if (projectId) {
      for (const title of row.taskPath) {
        const k = key(projectId, taskId, title);
        let id = taskIds.get(k);
        if (!id) {
          id = newId();
          taskIds.set(k, id);
          out.tasks.push({ id, name: title, project_id: projectId, parent_task_id: taskId });
        }
        taskId = id;
      }
      // Rows staged before assignees were read have none.
      if (taskId) assign(projectId, taskId, row.assignees ?? []);
    }
    const rowTagIds = row.tags.map((name) => {
      let id = tagIds.get(key(name));
      if (!id) {
        id = newId();
        tagIds.set(key(name), id);
        out.tags.push({ id, name });
      }
      return id;
    });
    if (row.entry) {
      const start = new Date(row.entry.start);
      out.entries.push({
        id: newId(),
        user_id: (row.entry.email && userIds.get(row.entry.email.toLowerCase())) || importerId,
        project_id: projectId,
        task_id: taskId,
        note: row.entry.note,
        billable: row.entry.billable,
        start_at: start,
        end_at: new Date(start.getTime() + row.entry.seconds * 1000),
        duration_seconds: row.entry.seconds,
        tagIds: rowTagIds,
      });
    }
  }

  return {
    /** Plans `rows`; answers what they add to what exists or was planned before. */
    batch(rows: PlannedRow[]): Plan {
      for (const row of rows) add(row);
      const done = out;
      out = empty();
      if (done.tags.length > 0) done.tagList = tagList;
      totals.clients += done.clients.length;
      totals.projects += done.projects.length;
      totals.tasks += done.tasks.length;
      totals.tags += done.tags.length;
      totals.timeEntries += done.entries.length;
      people.assigned += done.assignments.length;
      return done;
    },
    totals,
    people: (): People => ({ assigned: people.assigned, unmatched: [...unmatched.values()] }),
  };
}

/** A valid row as it waits in import_rows (JSON: the entry's start is a string). */
type PlannedRow = Omit<ImportRow, 'entry' | 'error' | 'assignees'> & {
  assignees?: string[];
  entry: (Omit<NonNullable<ImportRow['entry']>, 'start'> & { start: string | Date }) | null;
};

/** Rows shown in a preview, and errors kept for the report. */
const PREVIEW_ROWS = 200;
const ERRORS_KEPT = 100;

interface Detail {
  rows: ImportRowView[];
  errors: { line: number; error: string }[];
  summary: ImportSummary;
  assignees: People;
  /** The member chosen for each unmatched assignee (by their name, lower-cased), when the import was started. */
  choices?: [string, string | null][];
}
const NO_SUMMARY: ImportSummary = { clients: 0, projects: 0, tasks: 0, tags: 0, timeEntries: 0 };
const NO_PEOPLE: People = { assigned: 0, unmatched: [] };

export const runImportJob = defineJob('imports.run', z.object({ importId: z.string() }));
/** Read files nobody imported, and the records of finished imports, are kept for a day. */
const purgeImportsJob = defineJob('imports.purge', z.object({}));
const KEEP_MS = 86_400_000;

const rowView = (r: ImportRow): ImportRowView => ({
  ...r,
  entry: r.entry && { ...r.entry, start: r.entry.start.toISOString() },
});

function view(row: NonNullable<Awaited<ReturnType<typeof repo.find>>>): ImportView {
  const detail = (row.detail ?? {}) as Partial<Detail>;
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    bytesRead: Number(row.bytes_read),
    rowsRead: row.rows_read,
    rowsImported: row.rows_imported,
    errorCount: row.error_count,
    errors: detail.errors ?? [],
    // The preview matters until the import starts; progress polls need not carry it.
    rows: row.status === 'ready' || row.status === 'invalid' ? (detail.rows ?? []) : [],
    summary: detail.summary ?? NO_SUMMARY,
    assignees: detail.assignees ?? NO_PEOPLE,
    message: row.message,
  };
}

const hasErrors = (count: number, first: { line: number; error: string } | undefined) =>
  `${count} row${count === 1 ? ' has' : 's have'} errors (first: line ${first?.line}: ${first?.error}). Nothing was imported.`;

export function createImportsService(
  db: Db,
  timeEntries: TimeEntriesService,
  jobs: JobRunner,
  limits: ReadLimits = { maxBytes: MAX_BYTES, maxRows: MAX_ROWS },
  options: {
    /** Imports of at least this many rows analyse the time tables afterwards (ANALYZE_AFTER_ROWS). */
    analyzeAfterRows?: number;
    /**
     * The importer's membership in force when the job runs (the plan under the operator's BILLING
     * switch, custom roles): what the locks on time let them write is theirs, as if they wrote it.
     */
    workspaces: Pick<WorkspacesService, 'getMembership'>;
  },
) {
  async function find(actor: Actor, id: string): Promise<ImportView> {
    assertCan(actor, 'projects:manage');
    const row = await repo.find(db, actor.membership.workspace.id, id);
    if (!row) throw notFound('Import not found.');
    return view(row);
  }

  /** The job: writes the staged rows in one transaction, a batch at a time, with progress beside it. */
  async function write(importId: string): Promise<void> {
    const found = await db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
    if (!found || !['queued', 'importing'].includes(found.status)) return;
    await repo.update(db, importId, ['queued'], { status: 'importing' });
    const workspaceId = found.workspace_id;
    const userId = found.created_by_user_id;
    const membership = await options.workspaces.getMembership(workspaceId, userId).catch(() => undefined);
    // An importer who has left passes no lock, as any writer without permissions.
    const writer = membership
      ? timeEntries.writerOf({ userId, membership })
      : { workspaceId, actorUserId: userId, passesLockDate: false };
    let written = 0;
    try {
      await db.transaction().execute(async (tx) => {
        // A second worker (a lapsed lease) waits here and then finds the import done. Not a lock on
        // the import's row: progress is written to it from outside this transaction.
        await repo.lockForWriting(tx, importId);
        const locked = await repo.find(tx, workspaceId, importId);
        if (!locked || locked.status === 'done') return;
        const detail = (locked.detail ?? {}) as Partial<Detail>;
        const plan = planner(
          await repo.existing(tx, workspaceId),
          userId,
          found.source as ImportSource,
          new Map(detail.choices ?? []),
        );
        let imported = 0;
        for (let after = 0; ; ) {
          const staged = await repo.staged(tx, importId, after, BATCH_ROWS);
          if (staged.length === 0) break;
          after = staged[staged.length - 1]?.line ?? after;
          const p = plan.batch(staged.map((s) => s.row as PlannedRow));
          // The catalogue the batch creates, each table through its owner, in this transaction.
          await clientRecords.insertImported(tx, workspaceId, p.clients);
          await projectRecords.insertImported(tx, { workspaceId, ownerUserId: userId }, p.projects, p.tasks);
          if (p.tagList) await tagRecords.insertImported(tx, workspaceId, p.tagList, p.tags);
          await projectRecords.assignImported(tx, workspaceId, p.assignments);
          await timeEntries.importEntries(
            tx,
            writer,
            p.entries.map((e) => ({ ...e, created_by_user_id: userId })),
          );
          imported += staged.length;
          // Outside the transaction so the browser sees it (on PGlite it lands after the commit).
          void repo.update(db, importId, ['importing'], { rows_imported: imported }).catch(() => undefined);
          await yieldToEvents();
        }
        await repo.unstage(tx, importId);
        written = imported;
        await repo.update(tx, importId, ['queued', 'importing'], {
          status: 'done',
          rows_imported: imported,
          detail: { ...detail, summary: plan.totals, assignees: plan.people() },
        });
        await audit(tx, {
          action: 'import.completed',
          actorUserId: userId,
          workspaceId,
          detail: { source: found.source, rows: imported, ...plan.totals },
        });
      });
    } catch (error) {
      await repo.update(db, importId, ['queued', 'importing'], {
        status: 'failed',
        message: `The import stopped: ${(error as Error).message} Nothing was imported.`,
      });
      return;
    }
    // Fresh statistics for what a large import wrote (docs/decisions/0016): a failure here is no import's.
    await analyzeAfterWrite(db, {
      tables: TIME_TABLES,
      rows: written,
      threshold: options.analyzeAfterRows ?? 10_000,
    }).catch(() => undefined);
  }

  /** The member (or nobody) chosen for each unmatched assignee of the preview, all of them. */
  async function chooseAssignees(actor: Actor, current: ImportView, body: ImportRunBody) {
    const chosen = new Map((body?.assignees ?? []).map((a) => [a.name.toLowerCase(), a.userId]));
    const missing = current.assignees.unmatched.filter((u) => !chosen.has(u.name.toLowerCase()));
    if (missing.length > 0) {
      const names = missing.map((u) => `“${u.name}”`).join(', ');
      throw new AppError(
        'import_assignees_unmatched',
        `Choose a member, or “Leave unassigned”, for ${names}: no member has ${missing.length === 1 ? 'that' : 'those'} e-mail${missing.length === 1 ? '' : 's'}.`,
        { status: 422 },
      );
    }
    const choices = current.assignees.unmatched.map((u): [string, string | null] => [
      u.name.toLowerCase(),
      chosen.get(u.name.toLowerCase()) ?? null,
    ]);
    const userIds = choices.flatMap(([, userId]) => (userId ? [userId] : []));
    const members = new Set(await repo.activeMembers(db, actor.membership.workspace.id, userIds));
    if (userIds.some((userId) => !members.has(userId))) {
      throw validationError({ assignees: 'Choose a member of this workspace.' });
    }
    return choices;
  }

  const purge = (now: Date) => repo.purge(db, new Date(now.getTime() - KEEP_MS));
  jobs.register(runImportJob, ({ importId }) => write(importId), { maxAttempts: 3 });
  jobs.register(purgeImportsJob, (_payload, { now }) => purge(now));
  jobs.schedule(purgeImportsJob, '29 * * * *', {});

  return {
    limits,
    /** Forgets imports untouched for a day, unless under way. */
    purge,
    /**
     * Reads an uploaded file as it streams in: valid rows wait in the database for the import,
     * errors and a preview are kept. Limits stop it early; then nothing of the file is kept.
     */
    async upload(
      actor: Actor,
      input: {
        source: ImportSource;
        timeZone: string;
        file: Readable;
        /** The file's name: Todoist's export names its project only there. */
        fileName?: string;
      },
    ): Promise<ImportView> {
      assertCan(actor, 'projects:manage');
      const workspaceId = actor.membership.workspace.id;
      const id = newId();
      await repo.create(db, { id, workspace_id: workspaceId, created_by_user_id: actor.userId, source: input.source });
      const plan = planner(await repo.existing(db, workspaceId), actor.userId, input.source);
      const detail: Detail = { rows: [], errors: [], summary: NO_SUMMARY, assignees: NO_PEOPLE };
      let errorCount = 0;
      try {
        const onRows = async (rows: ImportRow[], progress: { bytes: number; rows: number }) => {
          const good = rows.filter((r) => !r.error);
          for (const r of rows) {
            if (r.error) {
              errorCount += 1;
              if (detail.errors.length < ERRORS_KEPT) detail.errors.push({ line: r.line, error: r.error });
            }
            // The preview: the first rows, and the first erroneous rows after them.
            if (detail.rows.length < PREVIEW_ROWS && (r.error || detail.rows.length < PREVIEW_ROWS / 2)) {
              detail.rows.push(rowView(r));
            }
          }
          plan.batch(good);
          // Nothing will be imported from a file with errors: stop staging, keep counting.
          if (errorCount === 0)
            await repo.stage(
              db,
              id,
              good.map(({ error: _e, ...r }) => r),
            );
          await repo.update(db, id, ['reading'], {
            bytes_read: progress.bytes,
            rows_read: progress.rows,
            error_count: errorCount,
          });
        };
        const read = isProjectToolSource(input.source)
          ? await readProjectTool(input.source, input.file, onRows, limits, input.fileName)
          : await readImport(input.file, input.timeZone, onRows, limits);
        detail.summary = { ...plan.totals };
        detail.assignees = plan.people();
        if (errorCount > 0) await repo.unstage(db, id);
        await repo.update(db, id, ['reading'], {
          status: errorCount > 0 ? 'invalid' : 'ready',
          bytes_read: read.bytes,
          rows_read: read.rows,
          error_count: errorCount,
          detail,
        });
      } catch (error) {
        await repo.remove(db, id);
        throw error;
      }
      return find(actor, id);
    },

    find,

    /**
     * Queues the import of a read file; asking again answers the same import (nothing is imported
     * twice). Each assignee of the preview who matched no member needs a choice in `body`: a member
     * (422 when not an active one) or null; a missing choice is a 422 naming them.
     */
    async run(actor: Actor, id: string, body?: ImportRunBody): Promise<ImportView> {
      const current = await find(actor, id);
      if (current.status === 'invalid') {
        throw new AppError('import_has_errors', hasErrors(current.errorCount, current.errors[0]), { status: 422 });
      }
      if (current.status === 'reading') {
        throw new AppError('import_not_ready', 'The file is still being read.', { status: 409 });
      }
      if (current.status !== 'ready') return current;
      const choices = await chooseAssignees(actor, current, body);
      const queued = await db.transaction().execute(async (tx) => {
        const detail = ((await repo.find(tx, actor.membership.workspace.id, id))?.detail ?? {}) as Partial<Detail>;
        if (!(await repo.update(tx, id, ['ready'], { status: 'queued', detail: { ...detail, choices } }))) return false;
        await jobs.enqueue(tx, runImportJob, { importId: id }, { singletonKey: id });
        return true;
      });
      // Read before waking the worker, so the answer to the click that queued it says "queued".
      const view = await find(actor, id);
      if (queued) jobs.wake();
      return view;
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
