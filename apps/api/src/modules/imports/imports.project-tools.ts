import type { Readable } from 'node:stream';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { isStorableText, type ProjectToolSource } from '@sundial/core';
import { AppError } from '../../platform/errors.js';
import {
  BATCH_ROWS,
  byteCounter,
  checkName,
  csvError,
  csvStream,
  type ImportRow,
  type ReadLimits,
  tooManyRows,
} from './imports.parse.js';

/**
 * Import From add-ons of project tools (Jira, Asana, Trello, ClickUp, monday.com, Todoist): their
 * exports bring projects, tasks with sub-tasks, and who each task is assigned to; no time. The
 * file is read whole (such exports are thousands of rows, and a sub-task may come before its
 * parent), within the same byte and row limits as every import, then handed on as import rows.
 * Status, labels, sections, dates and estimates are not imported: our tasks have no such fields.
 */

/** A task as a tool's file describes it, before its parents are resolved. */
export interface ToolTask {
  /** The file's line (CSV, XLSX) or the task's number in the file (Trello): unique and increasing. */
  line: number;
  /** The project named on the row; a sub-task without one is in its parent's project. */
  project: string;
  name: string;
  /** The tool's ids of the task (Jira: its id and its key), and its parent's id or name. */
  ids?: string[];
  parentId?: string;
  parentName?: string;
  /** When the row gives its whole path of parent titles itself (Todoist's indents, monday's sub-items). */
  parents?: string[];
  assignees: string[];
  /** The first problem of the row, naming the column. */
  error?: string;
}

type Cells = Record<string, string | string[] | undefined>;

const text = (v: string | string[] | undefined): string[] =>
  (Array.isArray(v) ? v : [v ?? '']).map((x) => x.trim()).filter(Boolean);
/** The first non-empty value of the first of `names` that has one. */
const one = (r: Cells, ...names: string[]) => {
  for (const n of names) {
    const v = text(r[n])[0];
    if (v) return v;
  }
  return '';
};
const isEmail = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
/** "[a@x.com, b@y.com]", "Ann, Bob" or "Ann;Bob" as names. */
const list = (v: string) =>
  v
    .replace(/^\[(.*)\]$/s, '$1')
    .split(/[,;]/)
    .map((s) => s.trim())
    .filter(Boolean);
const emptyColumn = (column: string) => `The “${column}” column is empty.`;

function needColumns(tool: string, columns: string[], required: string[][]): void {
  for (const anyOf of required) {
    if (!anyOf.some((c) => columns.includes(c.toLowerCase()))) {
      const names = anyOf.map((c) => `“${c}”`).join(' or ');
      throw new AppError(
        'invalid_import_file',
        `The file is not a ${tool} export: it needs a ${names} column. Its columns are: ${columns.join(', ') || 'none'}.`,
        { status: 422 },
      );
    }
  }
}

/**
 * Jira's CSV export of issues (Filters → Export → CSV, all fields): "Summary", "Issue key",
 * "Issue id", "Project name", "Assignee" (a name) with "Assignee Id" or "Assignee Email" where the
 * site exports one, "Parent" / "Parent id" (the parent issue's id, an epic's too) and "Parent
 * summary". Repeated columns (Labels, Sprint) are grouped by csv-parse and not imported.
 */
function jiraTask(r: Cells, line: number): ToolTask {
  const name = one(r, 'summary');
  const email = [one(r, 'assignee email'), one(r, 'assignee id'), one(r, 'assignee')].find(isEmail);
  const assignee = email ?? one(r, 'assignee');
  return {
    line,
    project: one(r, 'project name', 'project key'),
    name,
    // "Parent" holds the parent's id in Jira Cloud, its key in some older exports.
    ids: [one(r, 'issue id'), one(r, 'issue key')].filter(Boolean),
    parentId: one(r, 'parent id', 'parent') || undefined,
    parentName: one(r, 'parent summary') || undefined,
    assignees: assignee ? [assignee] : [],
    error: name ? undefined : emptyColumn('Summary'),
  };
}

/**
 * Asana's CSV export of a project (⋯ → Export/Print → CSV): "Task ID", "Name", "Assignee",
 * "Assignee Email", "Projects" (empty for sub-tasks, which are in their parent's project) and
 * "Parent task" (the parent's name).
 */
function asanaTask(r: Cells, line: number): ToolTask {
  const name = one(r, 'name');
  const assignee = one(r, 'assignee email') || one(r, 'assignee');
  return {
    line,
    project: one(r, 'projects'),
    name,
    ids: [one(r, 'task id')].filter(Boolean),
    parentName: one(r, 'parent task') || undefined,
    assignees: assignee ? [assignee] : [],
    error: name ? undefined : emptyColumn('Name'),
  };
}

/**
 * Asana names every project of a task in several, joined by commas ("Website,Launch"), and a
 * project's own name may hold a comma ("Acme, Inc."): such a value is the project that other rows
 * of the file name alone, the most of them, among the runs of its comma-separated parts; else it
 * is kept whole.
 */
function asanaProjects(tasks: ToolTask[]): ToolTask[] {
  const rows = new Map<string, number>();
  for (const t of tasks) rows.set(t.project, (rows.get(t.project) ?? 0) + 1);
  const runs = (value: string) => {
    const parts = value.split(',');
    return parts.flatMap((_, i) =>
      parts.slice(i).map((__, j) =>
        parts
          .slice(i, i + j + 1)
          .join(',')
          .trim(),
      ),
    );
  };
  return tasks.map((t) => {
    // (A value of many commas is no list of projects a person keeps: kept whole, and cheaply.)
    if (!t.project.includes(',') || t.project.split(',').length > 20) return t;
    // Rows naming the run alone; the task's own row does not count for its whole value.
    const others = (run: string) => (rows.get(run) ?? 0) - (run === t.project ? 1 : 0);
    const best = runs(t.project).reduce((a, b) => (others(b) > others(a) ? b : a), t.project);
    return others(best) > 0 ? { ...t, project: best } : t;
  });
}

/**
 * ClickUp's CSV export of a List, Folder or Space (⋯ → Export): "Task ID", "Task Name", "Parent
 * ID", "Assignees" ("[ann@x.com, Bob]"), "Space Name", "Folder Name", "List Name". The List is the
 * project (ClickUp tracks time against tasks of a List).
 */
function clickupTask(r: Cells, line: number): ToolTask {
  const name = one(r, 'task name');
  const project = one(r, 'list name', 'folder name', 'space name');
  return {
    line,
    project,
    name,
    ids: [one(r, 'task id')].filter(Boolean),
    parentId: one(r, 'parent id') || undefined,
    assignees: list(one(r, 'assignees', 'assignee')),
    error: name ? undefined : emptyColumn('Task Name'),
  };
}

/** Todoist writes people as "Ann Lee (12345678)": the name without the id. */
const todoistPerson = (v: string) => v.replace(/\s*\(\d+\)$/, '').trim();

/**
 * Todoist's CSV template of a project (⋯ → Export as a template → CSV): "TYPE" (task, section or
 * note), "CONTENT", "INDENT" (1 a task, 2 its sub-task …), "RESPONSIBLE". The file holds one
 * project and does not name it: the project is the file's name (Todoist names it after the
 * project), else "Todoist". Sections and notes are not imported.
 */
function todoistTasks(records: { record: Cells; line: number }[], project: string): ToolTask[] {
  const path: string[] = [];
  const out: ToolTask[] = [];
  for (const { record: r, line } of records) {
    if (one(r, 'type').toLowerCase() !== 'task') continue;
    const name = one(r, 'content');
    const indentText = one(r, 'indent') || '1';
    const indent = Number(indentText);
    const assignee = todoistPerson(one(r, 'responsible'));
    const task: ToolTask = {
      line,
      project,
      name,
      parents: path.slice(0, indent - 1),
      assignees: assignee ? [assignee] : [],
    };
    if (!Number.isInteger(indent) || indent < 1 || indent > path.length + 1) {
      task.error = `The “INDENT” column holds “${indentText}”, deeper than the task before it allows.`;
    } else if (!name) {
      task.error = emptyColumn('CONTENT');
    } else {
      path.length = indent - 1;
      path.push(name);
    }
    out.push(task);
  }
  return out;
}

const CSV_TOOLS = {
  jira: { label: 'Jira', required: [['Summary'], ['Project name', 'Project key']], task: jiraTask },
  asana: { label: 'Asana', required: [['Name'], ['Projects']], task: asanaTask },
  clickup: {
    label: 'ClickUp',
    required: [['Task Name'], ['List Name', 'Folder Name', 'Space Name']],
    task: clickupTask,
  },
  todoist: { label: 'Todoist', required: [['TYPE'], ['CONTENT'], ['INDENT']], task: null },
} as const;

type TrelloBoard = {
  name?: unknown;
  lists?: { id?: string; closed?: boolean }[];
  cards?: { id?: string; name?: unknown; idList?: string; idMembers?: string[]; closed?: boolean }[];
  members?: { id?: string; fullName?: string; username?: string }[];
  checklists?: { idCard?: string; checkItems?: { name?: unknown }[] }[];
};

/**
 * Trello's JSON export of a board (Menu → Print, export and share → Export as JSON): the board is
 * the project, each open card of an open list a task, and each checklist item a sub-task of its
 * card. Trello exports no e-mails: members are named by their full name (or username), and the
 * import asks who they are.
 */
export function trelloTasks(json: string): ToolTask[] {
  let board: TrelloBoard;
  try {
    board = JSON.parse(json) as TrelloBoard;
  } catch (error) {
    throw new AppError(
      'invalid_import_file',
      `The file is not a Trello board export (JSON): ${(error as Error).message}.`,
      {
        status: 422,
      },
    );
  }
  if (!board || typeof board !== 'object' || !Array.isArray(board.cards) || typeof board.name !== 'string') {
    throw new AppError(
      'invalid_import_file',
      'The file is not a Trello board export: it needs the board’s “name” and its “cards”.',
      { status: 422 },
    );
  }
  const project = board.name.trim();
  const closedLists = new Set((board.lists ?? []).filter((l) => l.closed).map((l) => l.id));
  const members = new Map((board.members ?? []).map((m) => [m.id, (m.fullName || m.username || '').trim()]));
  const items = new Map<string, string[]>();
  for (const c of board.checklists ?? []) {
    if (!c.idCard) continue;
    const names = (c.checkItems ?? []).map((i) => (typeof i.name === 'string' ? i.name.trim() : '')).filter(Boolean);
    items.set(c.idCard, [...(items.get(c.idCard) ?? []), ...names]);
  }
  const out: ToolTask[] = [];
  board.cards.forEach((card, index) => {
    if (card.closed || closedLists.has(card.idList)) return;
    const name = typeof card.name === 'string' ? card.name.trim() : '';
    const assignees = (card.idMembers ?? []).map((id) => members.get(id) ?? '').filter(Boolean);
    out.push({
      line: out.length + 1,
      project,
      name,
      assignees,
      error: name ? undefined : `Card ${index + 1} (cards[${index}]) has no “name”.`,
    });
    for (const item of (card.id && items.get(card.id)) || []) {
      out.push({ line: out.length + 1, project, name: item, parents: [name], assignees: [] });
    }
  });
  return out;
}

const PERSON_COLUMNS = ['person', 'people', 'owner', 'assignee', 'assignees', 'assigned to'];

/**
 * monday.com's Excel export of a board (⋯ → Export board to Excel), as we read it: the first row
 * holds the board's name (the project); each group is a row with its name alone, then a header row
 * starting "Name" ("Person" or "Owner", "Status", "Date" …) and its items; sub-items follow their
 * item under a header row starting "Subitems" (or "Name") one column to the right. Groups are not
 * imported (our tasks have no sections).
 */
export async function mondayTasks(file: Buffer): Promise<ToolTask[]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch (error) {
    throw new AppError(
      'invalid_import_file',
      `The file is not a monday.com board export (an Excel .xlsx file): ${(error as Error).message}.`,
      { status: 422 },
    );
  }
  const sheet = workbook.worksheets[0];
  const cellText = (row: import('exceljs').Row, col: number) => {
    const t = row.getCell(col).text;
    return typeof t === 'string' ? t.trim() : '';
  };
  const project = sheet ? cellText(sheet.getRow(1), 1) : '';
  if (!sheet || !project) {
    throw new AppError(
      'invalid_import_file',
      'The file is not a monday.com board export: its first row (cell A1) should hold the board’s name.',
      { status: 422 },
    );
  }
  const out: ToolTask[] = [];
  /** The columns of the items' header row and of the sub-items' one: the name's (where it starts) and the person's. */
  const headers: Record<1 | 2, { name: number; person: number | null } | null> = { 1: null, 2: null };
  let item: string | null = null;
  for (let n = 2; n <= sheet.rowCount; n++) {
    const row = sheet.getRow(n);
    const a = cellText(row, 1);
    const b = cellText(row, 2);
    const start = a ? 1 : b ? 2 : 0;
    if (start === 0) continue;
    const first = (start === 1 ? a : b).toLowerCase();
    if (first === 'name' || first === 'subitems') {
      const cells = Array.from({ length: row.cellCount }, (_, i) => cellText(row, i + 1).toLowerCase());
      const person = cells.findIndex((c, i) => i >= start && PERSON_COLUMNS.includes(c));
      headers[start] = { name: start, person: person >= 0 ? person + 1 : null };
      if (start === 1) headers[2] = null;
      continue;
    }
    const header = headers[start];
    // A group's name: a row before a header row, or where no header applies.
    if (!header || (start === 1 && cellText(sheet.getRow(n + 1), 1).toLowerCase() === 'name')) {
      if (start === 1) {
        headers[1] = null;
        headers[2] = null;
      }
      continue;
    }
    const name = cellText(row, header.name);
    const assignees = header.person ? list(cellText(row, header.person)) : [];
    const task: ToolTask = { line: n, project, name, assignees };
    if (start === 2) task.parents = item ? [item] : [];
    else item = name;
    if (start === 2 && !item) task.error = `Row ${n}: a sub-item comes before any item.`;
    out.push(task);
  }
  return out;
}

/**
 * Tasks in our terms: each with its path of parent titles (found by the parent's id, else by its
 * name, in the whole file) and its project (a sub-task without one is in its parent's).
 */
export function toImportRows(tasks: ToolTask[], projectColumn: string): ImportRow[] {
  const byId = new Map<string, ToolTask>();
  const byName = new Map<string, ToolTask>();
  for (const t of tasks) {
    for (const id of t.ids ?? []) if (!byId.has(id)) byId.set(id, t);
    const k = t.name.toLowerCase();
    if (t.name && !byName.has(k)) byName.set(k, t);
  }
  const parentOf = (t: ToolTask): ToolTask | undefined =>
    (t.parentId ? byId.get(t.parentId) : undefined) ??
    (t.parentName ? byName.get(t.parentName.toLowerCase()) : undefined);
  return tasks.map((t) => {
    const chain: ToolTask[] = [];
    const seen = new Set<ToolTask>([t]);
    for (let p = parentOf(t); p && !seen.has(p); p = parentOf(p)) {
      seen.add(p);
      chain.unshift(p);
    }
    // A parent named but absent from the file still groups its sub-tasks, by its name.
    const missing = chain.length === 0 && t.parentName && !parentOf(t) ? [t.parentName] : [];
    const taskPath = [...(t.parents ?? []), ...missing, ...chain.map((p) => p.name), t.name].filter(Boolean);
    const project = t.project || chain.find((p) => p.project)?.project || '';
    const error =
      t.error ??
      ([project, ...taskPath].every(isStorableText)
        ? null
        : 'The row holds a character that cannot be stored (a NUL or a broken emoji).') ??
      (project ? null : emptyColumn(projectColumn)) ??
      checkName('Project name', project) ??
      taskPath.map((n) => checkName('Task title', n)).find(Boolean) ??
      null;
    return {
      line: t.line,
      client: null,
      project: project || null,
      taskPath,
      tags: [],
      assignees: [...new Set(t.assignees)].filter((a) => isStorableText(a) && a.length <= 320),
      entry: null,
      error,
    };
  });
}

const PROJECT_COLUMNS: Record<ProjectToolSource, string> = {
  jira: 'Project name',
  asana: 'Projects',
  clickup: 'List Name',
  todoist: 'CONTENT',
  trello: 'name',
  monday: 'A1',
};

/** The whole body, within the byte limit. */
async function readBody(input: Readable, limits: ReadLimits): Promise<{ body: Buffer; bytes: number }> {
  const { counter, bytes } = byteCounter(input, limits);
  input.pipe(counter);
  const chunks: Buffer[] = [];
  for await (const chunk of counter) chunks.push(chunk as Buffer);
  return { body: Buffer.concat(chunks), bytes: bytes() };
}

async function csvTasks(
  source: keyof typeof CSV_TOOLS,
  input: Readable,
  limits: ReadLimits,
  fileName: string | undefined,
): Promise<{ tasks: ToolTask[]; bytes: number }> {
  const tool = CSV_TOOLS[source];
  // Jira repeats columns (Labels, Sprint, Watchers): grouped by name into lists.
  const { parser, bytes, close } = csvStream(input, limits, { group_columns_by_name: true });
  const records: { record: Cells; line: number }[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Cells; info: { lines: number } }>) {
      if (records.length === 0) needColumns(tool.label, Object.keys(record), tool.required as unknown as string[][]);
      if (records.length >= limits.maxRows) throw tooManyRows(limits);
      records.push({ record, line: info.lines });
      if (records.length % 1000 === 0) await yieldToEvents();
    }
  } catch (error) {
    throw csvError(error);
  } finally {
    close();
  }
  const project = fileName?.replace(/\.[^.]*$/, '').trim() || 'Todoist';
  const tasks =
    tool.task === null ? todoistTasks(records, project) : records.map(({ record, line }) => tool.task(record, line));
  return { tasks: source === 'asana' ? asanaProjects(tasks) : tasks, bytes: bytes() };
}

/**
 * Reads a project tool's export, handing on its tasks as import rows `BATCH_ROWS` at a time.
 * Throws a 422 naming what is missing when the file is not the tool's export, and 413 past the limits.
 */
export async function readProjectTool(
  source: ProjectToolSource,
  input: Readable,
  onRows: (rows: ImportRow[], progress: { bytes: number; rows: number }) => Promise<void>,
  limits: ReadLimits,
  fileName?: string,
): Promise<{ bytes: number; rows: number }> {
  let read: { tasks: ToolTask[]; bytes: number };
  if (source === 'trello' || source === 'monday') {
    const { body, bytes } = await readBody(input, limits);
    const tasks = source === 'trello' ? trelloTasks(body.toString('utf8')) : await mondayTasks(body);
    read = { tasks, bytes };
  } else {
    read = await csvTasks(source, input, limits, fileName);
  }
  if (read.tasks.length > limits.maxRows) throw tooManyRows(limits);
  if (read.tasks.length === 0) {
    throw new AppError('invalid_import_file', 'The file has no tasks.', { status: 422 });
  }
  const rows = toImportRows(read.tasks, PROJECT_COLUMNS[source]);
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    await onRows(rows.slice(i, i + BATCH_ROWS), { bytes: read.bytes, rows: Math.min(i + BATCH_ROWS, rows.length) });
    await yieldToEvents();
  }
  return { bytes: read.bytes, rows: rows.length };
}
