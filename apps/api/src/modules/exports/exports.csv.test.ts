import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvLine, writeCopiedCsv } from './exports.csv.js';

describe('CSV lines', () => {
  it('are what csv-stringify writes with its defaults, whatever the fields hold', () => {
    const pieces = ['', 'a', ',', '"', '\n', '\r', '\r\n', ' ', ';', "'", '\t', 'é', '日本', '=', '-', '“', '""'];
    const records: string[][] = [];
    for (const a of pieces) for (const b of pieces) records.push([a, `${a}${b}`, `x${b}y`, b]);
    records.push([], ['']);
    for (const record of records) expect(csvLine(record)).toBe(stringify([record]));
  });
});

describe('a CSV the database copied', () => {
  it('counts records, not line breaks inside quotes, however the chunks cut them', async () => {
    const records = [
      ['plain', 'row'],
      ['a line\nbreak', 'and "quotes"'],
      ['"\n"', '\n'],
      ['last', ''],
    ];
    const copied = Buffer.from(records.map((r) => stringify([r])).join(''));
    for (const size of [1, 2, 3, 7, copied.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < copied.length; at += size) chunks.push(copied.subarray(at, at + size));
      let heard = 0;
      const out = writeCopiedCsv({
        bom: false,
        header: 'A,B\n',
        rows: Readable.from(chunks),
        footer: Promise.resolve('Total,\n'),
        onRow: () => heard++,
      });
      const written: Buffer[] = [];
      for await (const piece of out) written.push(Buffer.from(piece));
      expect(heard, `chunks of ${size}`).toBe(records.length);
      expect(Buffer.concat(written).toString('utf8')).toBe(`A,B\n${copied.toString('utf8')}Total,\n`);
    }
  });
});
