import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type ImportRow, type ReadLimits, readImport } from './imports.parse.js';

/** Every row of `text`, read as a stream in small chunks. */
async function parseImport(text: string, timeZone: string, limits?: ReadLimits): Promise<ImportRow[]> {
  const rows: ImportRow[] = [];
  const chunks = text.match(/[\s\S]{1,7}/g) ?? [];
  await readImport(
    Readable.from(chunks.map((c) => Buffer.from(c))),
    timeZone,
    async (batch) => {
      rows.push(...batch);
    },
    limits,
  );
  return rows;
}

describe('reading import files', async () => {
  it('reads our CSV with a byte-order mark, quotes, hierarchy and case-insensitive headers', async () => {
    const rows = await parseImport(
      '\uFEFFCLIENT,project,Task,Parent task\n"Acme, Inc.",Web,"Logo",Design > Brand\n',
      'UTC',
    );
    expect(rows).toEqual([
      {
        line: 2,
        client: 'Acme, Inc.',
        project: 'Web',
        taskPath: ['Design', 'Brand', 'Logo'],
        tags: [],
        assignees: [],
        entry: null,
        error: null,
      },
    ]);
  });

  it('reads 12-hour clock times and US dates in the given time zone', async () => {
    const text = [
      'Project,Start Date,Start Time,End Date,End Time,Tags',
      'P,11/02/2026,12:30:00 AM,11/02/2026,12:15:00 PM,"a; b, a"',
    ].join('\n');
    const [row] = await parseImport(text, 'America/New_York');
    expect(row?.entry?.start.toISOString()).toBe('2026-11-02T05:30:00.000Z');
    expect(row?.entry?.seconds).toBe(11 * 3600 + 45 * 60);
    expect(row?.tags).toEqual(['a', 'b']);
  });

  it('takes decimal hours and day.month.year dates, and explains what it cannot read', async () => {
    const text = ['Project,Date,Hours', 'P,05.11.2026,"1,25"', 'P,2026-11-05,soon', 'P,2026-11-05,25:00 pm'].join('\n');
    const rows = await parseImport(text, 'UTC');
    expect(rows[0]?.entry).toMatchObject({ seconds: 4500 });
    expect(rows[0]?.entry?.start.toISOString()).toBe('2026-11-05T09:00:00.000Z');
    expect(rows[1]?.error).toBe('The duration “soon” is not understood.');
    expect(rows[2]?.error).toBe('The duration “25:00 pm” is not understood.');
    const [nul] = await parseImport('Project,Description\nP,a\u0000b\n', 'UTC');
    expect(nul?.error).toBe('The row holds a character that cannot be stored (a NUL or a broken emoji).');
  });

  it('refuses a file that is not CSV or has no Project column', async () => {
    await expect(parseImport('a,"b\n', 'UTC')).rejects.toThrow(/not a readable CSV file/);
    await expect(parseImport('Task\nX\n', 'UTC')).rejects.toThrow(
      'The file needs a “Project” column. Its columns are: task.',
    );
    await expect(parseImport('Project\n', 'UTC')).rejects.toThrow('The file has no rows.');
  });

  it('numbers rows by the file’s lines, across empty lines and quoted line breaks', async () => {
    const rows = await parseImport('Project,Task\nA,x\n\nB,"two\nlines"\nC,\n', 'UTC');
    expect(rows.map((r) => [r.project, r.line])).toEqual([
      ['A', 2],
      ['B', 5],
      ['C', 6],
    ]);
  });

  it('stops reading as soon as a limit is passed, not at the end of the file', async () => {
    const seen: number[] = [];
    const endless = Readable.from(
      (function* () {
        yield Buffer.from('Project\n');
        for (let i = 0; ; i++) {
          seen.push(i);
          yield Buffer.from('P\n'.repeat(100));
        }
      })(),
    );
    await expect(readImport(endless, 'UTC', async () => undefined, { maxBytes: 1e9, maxRows: 1000 })).rejects.toThrow(
      'The file has more than 1,000 rows; split it. Nothing was imported.',
    );
    // Streams read ahead a few tens of KB (here about 250 chunks of 200 bytes), then nothing more.
    expect(seen.length).toBeLessThan(1000);
    const big = `Project\n${'P\n'.repeat(5000)}`;
    await expect(parseImport(big, 'UTC', { maxBytes: 1000, maxRows: 1e6 })).rejects.toMatchObject({
      status: 413,
      message: 'The file is larger than 0.001 MB; split it.',
    });
  });
});
