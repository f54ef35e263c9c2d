import { summaryReportView, timeEntryView } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { projectingSerializerCompiler, writerSchemaOf } from './response-serializer.js';

const entry = {
  id: '0192f0a4-6c2b-7c3e-9a1d-3f4e5d6c7b8a',
  workspaceId: '0192f0a4-6c2b-7c3e-9a1d-3f4e5d6c7b8b',
  userId: '0192f0a4-6c2b-7c3e-9a1d-3f4e5d6c7b8c',
  projectId: null,
  taskId: null,
  tagIds: ['0192f0a4-6c2b-7c3e-9a1d-3f4e5d6c7b8d'],
  note: 'Sketches',
  billable: false,
  start: '2026-11-24T09:00:00.000Z',
  end: null,
  isRunning: true,
  isPaused: true,
  breaks: [{ start: '2026-11-24T10:00:00.000Z', end: null }],
  durationSeconds: 3600,
  billableRateCents: 12_000,
  billableAmountCents: 0,
  costRateCents: null,
  costAmountCents: null,
  lock: null,
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
};
const page = z.object({ items: z.array(timeEntryView), nextCursor: z.string().nullable() });
const timer = z.object({ entry: timeEntryView, stopped: timeEntryView.nullable() });
const serializerOf = (schema: z.ZodType) =>
  projectingSerializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (data: unknown) => string;

describe('the production response serializer', () => {
  it('sends what the full check sends for the time views', () => {
    for (const [schema, data] of [
      [timeEntryView, entry],
      [
        page,
        {
          items: [
            entry,
            {
              ...entry,
              breaks: [],
              isPaused: false,
              lock: { kind: 'approved', label: 'Approved week', reason: 'The time … is approved and locked.' },
            },
          ],
          nextCursor: null,
        },
      ],
      [timer, { entry, stopped: { ...entry, end: '2026-11-24T11:00:00.000Z', isRunning: false } }],
      [timer, { entry, stopped: null }],
    ] as const) {
      expect(writerSchemaOf(schema)).toBeDefined();
      expect(JSON.parse(serializerOf(schema)(data))).toEqual(schema.parse(data));
    }
  });

  it('writes a Summary of three levels as the full check does', () => {
    const group = (key: string, children?: unknown[]) => ({
      dimension: 'project',
      key: { key, label: `Project ${key}`, color: '#228be6', parent: null },
      measures: { trackedSeconds: 3600, billableAmount: 12_000 },
      ...(children ? { children } : {}),
    });
    const summary = {
      range: { from: '2026-11-01', to: '2026-11-30', timeZone: 'UTC', weekStart: 'monday' },
      groupBy: ['project', 'user', 'task'],
      measures: ['trackedSeconds', 'billableAmount'],
      groups: [group('a', [group('b', [group('c'), group('d')])]), group('e')],
      totals: { trackedSeconds: 18_000, billableAmount: 60_000 },
    };
    expect(writerSchemaOf(summaryReportView)).toBeDefined();
    expect(JSON.parse(serializerOf(summaryReportView)(summary))).toEqual(summaryReportView.parse(summary));
  });

  it('drops what the schema does not declare, at every depth', () => {
    const leaky = { ...entry, passwordHash: 'x', breaks: [{ ...entry.breaks[0], secret: 1 }] };
    const sent = JSON.parse(serializerOf(page)({ items: [leaky], nextCursor: null, total: 3 }));
    expect(sent).toEqual({ items: [entry], nextCursor: null });
  });

  it('writes what JSON.stringify writes for dates, absent optional values, enums, literals and null', () => {
    const shape = z.object({
      at: z.string(),
      kind: z.enum(['week', 'month']),
      version: z.literal(2),
      hint: z.string().optional(),
      parent: z.object({ name: z.string() }).nullable(),
      none: z.null(),
    });
    const value = { at: new Date('2026-11-24T09:00:00Z'), kind: 'week', version: 2, parent: null, none: null };
    expect(writerSchemaOf(shape)).toBeDefined();
    expect(JSON.parse(serializerOf(shape)(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(serializerOf(z.null())(null)).toBe('null');
  });

  it('keeps the full check for schemas it cannot follow', () => {
    const union = z.object({ value: z.union([z.string(), z.number()]) });
    expect(writerSchemaOf(union)).toBeUndefined();
    expect(writerSchemaOf(z.looseObject({ a: z.string() }))).toBeUndefined();
    expect(writerSchemaOf(z.object({ a: z.string().default('x') }))).toBeUndefined();
    expect(writerSchemaOf(z.literal(['a', 1]))).toBeUndefined();
    expect(() => serializerOf(union)({ value: true })).toThrow();
  });
});
