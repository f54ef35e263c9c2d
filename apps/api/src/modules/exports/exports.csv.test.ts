import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvLine } from './exports.csv.js';

describe('CSV lines', () => {
  it('are what csv-stringify writes with its defaults, whatever the fields hold', () => {
    const pieces = ['', 'a', ',', '"', '\n', '\r', '\r\n', ' ', ';', "'", '\t', 'é', '日本', '=', '-', '“', '""'];
    const records: string[][] = [];
    for (const a of pieces) for (const b of pieces) records.push([a, `${a}${b}`, `x${b}y`, b]);
    records.push([], ['']);
    for (const record of records) expect(csvLine(record)).toBe(stringify([record]));
  });
});
