import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spool } from './spool.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spool-test-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('spool', () => {
  it('answers the whole file with its size, and leaves nothing in the folder', async () => {
    const parts = ['Date,Hours\n', '2026-11-02,1.50\n', 'Total,1.50\n'];
    const file = await spool(Readable.from(parts), dir);
    expect(file.sizeBytes).toBe(parts.join('').length);
    // Unlinked as soon as it was open: the folder is empty while the file is still being read.
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(await text(file.stream)).toBe(parts.join(''));
  });

  it('rejects with the source’s failure and leaves no file behind', async () => {
    const failing = Readable.from(
      (async function* () {
        yield 'first rows\n';
        throw new Error('the database went away');
      })(),
    );
    await expect(spool(failing, dir)).rejects.toThrow('the database went away');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
