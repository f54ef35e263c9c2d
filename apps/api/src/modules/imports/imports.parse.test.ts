import { describe, expect, it } from 'vitest';
import { parseImport } from './imports.parse.js';

describe('reading import files', () => {
  it('reads our CSV with a byte-order mark, quotes, hierarchy and case-insensitive headers', () => {
    const rows = parseImport('\uFEFFCLIENT,project,Task,Parent task\n"Acme, Inc.",Web,"Logo",Design > Brand\n', 'UTC');
    expect(rows).toEqual([
      {
        line: 2,
        client: 'Acme, Inc.',
        project: 'Web',
        taskPath: ['Design', 'Brand', 'Logo'],
        tags: [],
        entry: null,
        error: null,
      },
    ]);
  });

  it('reads 12-hour clock times and US dates in the given time zone', () => {
    const text = [
      'Project,Start Date,Start Time,End Date,End Time,Tags',
      'P,11/02/2026,12:30:00 AM,11/02/2026,12:15:00 PM,"a; b, a"',
    ].join('\n');
    const [row] = parseImport(text, 'America/New_York');
    expect(row?.entry?.start.toISOString()).toBe('2026-11-02T05:30:00.000Z');
    expect(row?.entry?.seconds).toBe(11 * 3600 + 45 * 60);
    expect(row?.tags).toEqual(['a', 'b']);
  });

  it('takes decimal hours and day.month.year dates, and explains what it cannot read', () => {
    const text = ['Project,Date,Hours', 'P,05.11.2026,"1,25"', 'P,2026-11-05,soon', 'P,2026-11-05,25:00 pm'].join('\n');
    const rows = parseImport(text, 'UTC');
    expect(rows[0]?.entry).toMatchObject({ seconds: 4500 });
    expect(rows[0]?.entry?.start.toISOString()).toBe('2026-11-05T09:00:00.000Z');
    expect(rows[1]?.error).toBe('The duration “soon” is not understood.');
    expect(rows[2]?.error).toBe('The duration “25:00 pm” is not understood.');
  });

  it('refuses a file that is not CSV or has no Project column', () => {
    expect(() => parseImport('a,"b\n', 'UTC')).toThrow(/not a readable CSV file/);
    expect(() => parseImport('Task\nX\n', 'UTC')).toThrow('The file needs a “Project” column. Its columns are: task.');
    expect(() => parseImport('Project\n', 'UTC')).toThrow('The file has no rows.');
  });
});
