import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { type ImportRow, type ImportSource, parseImport, SOURCE_LABELS } from './imports.parse.js';
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

/** Works out what importing the rows creates, reusing what exists by name (case-insensitively). */
async function plan(db: Db, actor: Actor, source: ImportSource, rows: ImportRow[]): Promise<Plan> {
  const workspaceId = actor.membership.workspace.id;
  const { clients, projects, tasks, tags, members, lists } = await repo.existing(db, workspaceId);
  const clientIds = new Map(clients.map((c) => [key(c.name), c.id]));
  const projectIds = new Map(projects.map((p) => [key(p.client_id, p.name), p.id]));
  const taskIds = new Map(tasks.map((t) => [key(t.project_id, t.parent_task_id, t.name), t.id]));
  const tagIds = new Map<string, string>();
  for (const t of tags) if (!tagIds.has(key(t.name))) tagIds.set(key(t.name), t.id);
  const userIds = new Map(members.map((m) => [m.email.toLowerCase(), m.id]));
  const listName = `Imported from ${SOURCE_LABELS[source]}`;
  const existingList = lists.find((l) => key(l.name) === key(listName));

  const out: Plan = { clients: [], projects: [], tasks: [], tagList: null, tags: [], entries: [] };
  for (const row of rows) {
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
      out.entries.push({
        id: newId(),
        user_id: (row.entry.email && userIds.get(row.entry.email.toLowerCase())) || actor.userId,
        project_id: projectId,
        task_id: taskId,
        note: row.entry.note,
        billable: row.entry.billable,
        start_at: row.entry.start,
        end_at: new Date(row.entry.start.getTime() + row.entry.seconds * 1000),
        duration_seconds: row.entry.seconds,
        tagIds: rowTagIds,
      });
    }
  }
  if (out.tags.length > 0) out.tagList = existingList ?? { id: newId(), name: listName };
  return out;
}

const summarize = (p: Plan): ImportSummary => ({
  clients: p.clients.length,
  projects: p.projects.length,
  tasks: p.tasks.length,
  tags: p.tags.length,
  timeEntries: p.entries.length,
});

const PREVIEW_ROWS = 200;

export function createImportsService(db: Db, timeEntries: TimeEntriesService) {
  function read(actor: Actor, text: string, timeZone: string) {
    assertCan(actor, 'projects:manage');
    return parseImport(text, timeZone);
  }

  return {
    /** What the file holds, row by row with errors, and what importing it would create. */
    async preview(actor: Actor, input: { source: ImportSource; text: string; timeZone: string }) {
      const rows = read(actor, input.text, input.timeZone);
      const errors = rows.filter((r) => r.error);
      const summary = summarize(
        await plan(
          db,
          actor,
          input.source,
          rows.filter((r) => !r.error),
        ),
      );
      const shown = [...errors.slice(0, PREVIEW_ROWS), ...rows.filter((r) => !r.error)]
        .slice(0, PREVIEW_ROWS)
        .sort((a, b) => a.line - b.line);
      return {
        total: rows.length,
        errorCount: errors.length,
        rows: shown.map((r) => ({ ...r, entry: r.entry && { ...r.entry, start: r.entry.start.toISOString() } })),
        summary,
      };
    },

    /** Imports everything in one transaction, or nothing when any row has an error. */
    async run(actor: Actor, input: { source: ImportSource; text: string; timeZone: string }): Promise<ImportSummary> {
      const rows = read(actor, input.text, input.timeZone);
      const bad = rows.filter((r) => r.error);
      if (bad.length > 0) {
        throw new AppError(
          'import_has_errors',
          `${bad.length} row${bad.length === 1 ? ' has' : 's have'} errors (first: line ${bad[0]?.line}: ${bad[0]?.error}). Nothing was imported.`,
          { status: 422 },
        );
      }
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const p = await plan(tx, actor, input.source, rows);
        await repo.insertCatalog(tx, { workspaceId, ownerUserId: actor.userId }, p);
        await timeEntries.importEntries(
          tx,
          { workspaceId, actorUserId: actor.userId },
          p.entries.map((e) => ({ ...e, created_by_user_id: actor.userId })),
        );
        const summary = summarize(p);
        await audit(tx, {
          action: 'import.completed',
          actorUserId: actor.userId,
          workspaceId,
          detail: { source: input.source, rows: rows.length, ...summary },
        });
        return summary;
      });
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
