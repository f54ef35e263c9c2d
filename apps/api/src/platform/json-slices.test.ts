import { text } from 'node:stream/consumers';
import { summaryReportView } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { jsonInSlices } from './json-slices.js';

/** An answer written in time slices is the JSON the schema's full check gives, at every depth. */
describe('jsonInSlices', () => {
  const group = (key: string, children?: unknown[]) => ({
    dimension: 'project',
    key: { key, label: `Project ${key}`, color: '#228be6', parent: null, leaked: 'x' },
    measures: { trackedSeconds: 3600, billableAmount: 12_000 },
    secret: 'not declared',
    ...(children ? { children } : {}),
  });
  const summary = (groups: unknown[]) => ({
    range: { from: '2026-11-01', to: '2026-11-30', timeZone: 'UTC', weekStart: 'monday' },
    groupBy: ['project', 'user', 'task'],
    measures: ['trackedSeconds', 'billableAmount'],
    groups,
    totals: { trackedSeconds: 18_000, billableAmount: 60_000 },
    rest: { count: 2, measures: { trackedSeconds: 60 } },
    internal: true,
  });

  it('writes three levels, empty ones and undeclared fields as the full check', async () => {
    for (const value of [
      summary([group('a', [group('b', [group('c'), group('d')]), group('b2', [])]), group('e')]),
      summary([]),
      // Pieces of 256 KB: thousands of groups cross several.
      summary(Array.from({ length: 3_000 }, (_, i) => group(`p${i}`, [group(`u${i}`, [group(`t${i}`)])]))),
    ]) {
      const written = await text(jsonInSlices(summaryReportView, 'groups', value));
      expect(JSON.parse(written)).toEqual(summaryReportView.parse(value));
      expect(written).not.toContain('not declared');
    }
  });

  it('refuses an array its schema does not declare, before writing anything', () => {
    expect(() => jsonInSlices(summaryReportView, 'nothing' as 'groups', summary([]))).toThrow(
      'No JSON writer for the array "nothing" of this schema.',
    );
  });
});
