import { describe, expect, it } from 'vitest';
import type { TimeEntryView } from '../schemas/time-entries.js';
import { workSeconds } from './days.js';
import { applyEntryEdit, applyRowEdit } from './edit.js';

const entry = (extra: Partial<TimeEntryView> = {}): TimeEntryView => ({
  id: '00000000-0000-4000-8000-000000000001',
  workspaceId: '00000000-0000-4000-8000-000000000002',
  userId: '00000000-0000-4000-8000-000000000003',
  projectId: null,
  taskId: null,
  tagIds: [],
  note: 'Design review',
  billable: false,
  start: '2026-11-23T09:00:00.000Z',
  end: '2026-11-23T10:00:00.000Z',
  isRunning: false,
  isPaused: false,
  breaks: [],
  durationSeconds: 3600,
  billableRateCents: null,
  billableAmountCents: null,
  costRateCents: null,
  costAmountCents: null,
  lock: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: '2026-11-23T10:00:00.000Z',
  ...extra,
});
const NOW = Date.parse('2026-11-24T12:00:00Z');

describe('applyEntryEdit: the change shown before the server answers', () => {
  it('moves the end for a new duration', () => {
    const edited = applyEntryEdit(entry(), { duration: 20 * 60 }, NOW);
    expect(edited).toMatchObject({ start: '2026-11-23T09:00:00.000Z', end: '2026-11-23T09:20:00.000Z' });
    expect(edited.durationSeconds).toBe(1200);
  });

  it('keeps the breaks inside a new duration, as the server does', () => {
    const withBreak = entry({
      breaks: [{ start: '2026-11-23T09:10:00.000Z', end: '2026-11-23T09:25:00.000Z' }],
      durationSeconds: 45 * 60,
    });
    const edited = applyEntryEdit(withBreak, { duration: 30 * 60 }, NOW);
    expect(edited.end).toBe('2026-11-23T09:45:00.000Z');
    expect(edited.durationSeconds).toBe(30 * 60);
    expect(workSeconds(edited, NOW)).toBe(30 * 60);
  });

  it('reads a typed duration and ignores one it cannot read', () => {
    expect(applyEntryEdit(entry(), { duration: '1:30' }, NOW).end).toBe('2026-11-23T10:30:00.000Z');
    expect(applyEntryEdit(entry(), { duration: 'soon' }, NOW).end).toBe('2026-11-23T10:00:00.000Z');
  });

  it('keeps the length when only the start moves, and takes an explicit end', () => {
    const moved = applyEntryEdit(entry(), { start: '2026-11-23T11:00:00.000Z' }, NOW);
    expect(moved).toMatchObject({ start: '2026-11-23T11:00:00.000Z', end: '2026-11-23T12:00:00.000Z' });
    const ended = applyEntryEdit(entry(), { end: '2026-11-23T09:45:00.000Z' }, NOW);
    expect(ended).toMatchObject({ end: '2026-11-23T09:45:00.000Z', durationSeconds: 45 * 60 });
  });

  it('changes the fields asked for and leaves a running entry running', () => {
    const running = entry({ end: null, isRunning: true });
    const edited = applyEntryEdit(running, { note: 'Call', projectId: null, tagIds: ['b', 'a', 'b'] }, NOW);
    expect(edited).toMatchObject({ note: 'Call', end: null, isRunning: true, tagIds: ['a', 'b'] });
    expect(applyEntryEdit(running, { duration: 60 }, NOW).end).toBeNull();
    expect(applyEntryEdit(entry(), { billable: true }, NOW)).toEqual({ ...entry(), billable: true });
  });

  it('prices the new duration at the rates the entry carries', () => {
    const priced = entry({
      billable: true,
      billableRateCents: 10_000,
      billableAmountCents: 10_000,
      costRateCents: 4_000,
      costAmountCents: 4_000,
    });
    expect(applyEntryEdit(priced, { duration: 30 * 60 }, NOW)).toMatchObject({
      billableAmountCents: 5_000,
      costAmountCents: 2_000,
    });
    expect(applyEntryEdit(priced, { billable: false }, NOW)).toMatchObject({
      billableAmountCents: 0,
      costAmountCents: 4_000,
    });
    expect(applyEntryEdit(entry(), { duration: 60 }, NOW)).toMatchObject({ billableAmountCents: null });
  });
});

describe('applyRowEdit: a Detailed report row as the server will store it', () => {
  const row = {
    id: 'r1',
    note: 'Design review',
    billable: false,
    projectId: null,
    taskId: null,
    tagIds: ['b', 'a'],
    start: '2026-11-23T09:00:00.000Z',
    // 90 minutes between start and end, 60 of them worked: a 30-minute break.
    end: '2026-11-23T10:30:00.000Z',
    seconds: 3600,
    billableAmount: 1000,
  };

  it('sets the fields, tags once each and sorted, and keeps what it does not know', () => {
    expect(applyRowEdit(row, { note: 'Planning', billable: true, tagIds: ['c', 'a', 'c'], projectId: 'p' })).toEqual({
      ...row,
      note: 'Planning',
      billable: true,
      tagIds: ['a', 'c'],
      projectId: 'p',
    });
  });

  it('moves the end by a new duration, keeping the break', () => {
    expect(applyRowEdit(row, { duration: '2:00' })).toMatchObject({
      start: row.start,
      end: '2026-11-23T11:30:00.000Z',
      seconds: 7200,
    });
  });

  it('keeps the length when only the start moves; a new end changes the seconds', () => {
    expect(applyRowEdit(row, { start: '2026-11-23T08:00:00Z' })).toMatchObject({
      start: '2026-11-23T08:00:00.000Z',
      end: '2026-11-23T09:30:00.000Z',
      seconds: 3600,
    });
    expect(applyRowEdit(row, { start: '2026-11-23T09:15:00Z', end: '2026-11-23T11:15:00Z' })).toMatchObject({
      seconds: 1800 + 3600,
    });
  });

  it('keeps a running entry running, and a time that does not parse changes nothing', () => {
    expect(applyRowEdit({ ...row, end: null }, { duration: 60 })).toEqual({ ...row, end: null });
    expect(applyRowEdit(row, { start: 'soon' })).toEqual(row);
  });
});
