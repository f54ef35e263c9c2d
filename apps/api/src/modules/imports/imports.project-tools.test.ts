import { Readable } from 'node:stream';
import type { ProjectToolSource } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import type { ImportRow } from './imports.parse.js';
import { readProjectTool, type ToolTask, toImportRows, trelloTasks } from './imports.project-tools.js';

const LIMITS = { maxBytes: 1_000_000, maxRows: 100 };

/** Every row of a project tool's `text`, read as a stream in small chunks. */
async function read(source: ProjectToolSource, text: string, fileName?: string): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  const chunks = text.match(/[\s\S]{1,5}/g) ?? [];
  await readProjectTool(
    source,
    Readable.from(chunks.map((c) => Buffer.from(c))),
    async (batch) => {
      rows.push(...batch);
    },
    LIMITS,
    fileName,
  );
  return rows;
}

const task = (t: Partial<ToolTask> & Pick<ToolTask, 'line' | 'name'>): ToolTask => ({
  project: 'P',
  assignees: [],
  ...t,
});

describe('reading project tools’ exports', () => {
  it('reads Jira’s repeated columns and prefers the assignee’s e-mail over their name and account id', async () => {
    const rows = await read(
      'jira',
      '\uFEFFSummary,Issue id,Issue key,Project name,Assignee,Assignee Id,Labels,Labels,Parent\n' +
        'One,1,W-1,Web,Ann Lee,ann@x.test,a,b,\nTwo,2,W-2,Web,Bob,5b10a2844c,,,W-1\n',
    );
    expect(rows.map((r) => [r.line, r.project, r.taskPath, r.assignees, r.error])).toEqual([
      [2, 'Web', ['One'], ['ann@x.test'], null],
      [3, 'Web', ['One', 'Two'], ['Bob'], null],
    ]);
  });

  it('finds parents by id, else by name, anywhere in the file; a parent absent from the file still groups', () => {
    const rows = toImportRows(
      [
        task({ line: 2, name: 'Child', parentId: '9' }),
        task({ line: 3, name: 'Parent', ids: ['9'], parentName: 'Grand' }),
        task({ line: 4, name: 'Grand', project: '' }),
        task({ line: 5, name: 'Lost', parentName: 'Not here' }),
      ],
      'Projects',
    );
    expect(rows.map((r) => [r.taskPath, r.error])).toEqual([
      [['Grand', 'Parent', 'Child'], null],
      [['Grand', 'Parent'], null],
      [['Grand'], 'The “Projects” column is empty.'],
      [['Not here', 'Lost'], null],
    ]);
  });

  it('takes a sub-task’s project from its parent and stops at a cycle of parents', () => {
    const rows = toImportRows(
      [
        task({ line: 2, name: 'A', ids: ['a'], parentId: 'b' }),
        task({ line: 3, name: 'B', ids: ['b'], parentId: 'a', project: '' }),
      ],
      'List Name',
    );
    expect(rows.map((r) => [r.project, r.taskPath])).toEqual([
      ['P', ['B', 'A']],
      ['P', ['A', 'B']],
    ]);
  });

  it('checks names: too long, unstorable', () => {
    const [long, nul] = toImportRows(
      [task({ line: 2, name: 'x'.repeat(256) }), task({ line: 3, name: 'a\u0000b' })],
      'Projects',
    );
    expect(long?.error).toBe('Task title must be at most 255 characters.');
    expect(nul?.error).toBe('The row holds a character that cannot be stored (a NUL or a broken emoji).');
  });

  it('puts an Asana task of several projects in the one the file is the export of', async () => {
    const rows = await read(
      'asana',
      'Name,Projects\nA,Launch\nB,"Website,Launch"\nC,"Acme, Inc."\nD,"Acme, Inc."\nE,"Acme, Inc.,Other"\n',
    );
    expect(rows.map((r) => r.project)).toEqual(['Launch', 'Launch', 'Acme, Inc.', 'Acme, Inc.', 'Acme, Inc.']);
  });

  it('reads ClickUp’s assignee lists and Todoist’s people with their ids', async () => {
    const clickup = await read('clickup', 'Task Name,List Name,Assignees\nA,L,"[a@x.test, Bo Li]"\nB,L,[]\n');
    expect(clickup.map((r) => r.assignees)).toEqual([['a@x.test', 'Bo Li'], []]);
    const todoist = await read('todoist', 'TYPE,CONTENT,INDENT,RESPONSIBLE\ntask,T,1,Ann Lee (42)\n', 'Home.csv');
    expect(todoist).toEqual([
      expect.objectContaining({ project: 'Home', taskPath: ['T'], assignees: ['Ann Lee'], error: null }),
    ]);
  });

  it('refuses a file of another shape, naming the columns it needs', async () => {
    await expect(read('clickup', 'Name,List\nA,B\n')).rejects.toThrow(
      'The file is not a ClickUp export: it needs a “Task Name” column. Its columns are: name, list.',
    );
    await expect(read('asana', 'Name,Projects\n')).rejects.toThrow('The file has no tasks.');
    await expect(read('jira', `Summary,Project name\n${'a,b\n'.repeat(101)}`)).rejects.toThrow(/more than 100 rows/);
    expect(() => trelloTasks('[]')).toThrow(
      'The file is not a Trello board export: it needs the board’s “name” and its “cards”.',
    );
  });

  it('names a Trello card without a name by its place in the file', () => {
    const tasks = trelloTasks(JSON.stringify({ name: 'B', cards: [{ id: 'c', name: ' ' }] }));
    expect(tasks).toEqual([
      { line: 1, project: 'B', name: '', assignees: [], error: 'Card 1 (cards[0]) has no “name”.' },
    ]);
  });
});
