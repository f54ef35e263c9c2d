import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  createTestApp,
  joinWorkspace,
  type SignedUp,
  signUp,
  type TestApp,
} from '../../../test/harness.js';

/**
 * Attendance's first part (issue 37) against the real app and database: the workspace's settings
 * (a place with public holidays, the German rules), people's contracts by role, and a person's
 * overtime from their contracts, the holidays and their entries.
 */
let t: TestApp;
let owner: SignedUp;
let admin: SignedUp;
let manager: SignedUp;
let member: SignedUp;
let outsider: SignedUp;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: SignedUp, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { cookie: who.cookie } });
const ws = (path: string) => `/workspaces/${owner.workspaceId}${path}`;
const FULL_TIME = [480, 480, 480, 480, 480, 0, 0];

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t.app);
  admin = await joinWorkspace(t, owner.workspaceId, 'admin');
  manager = await joinWorkspace(t, owner.workspaceId, 'manager');
  member = await joinWorkspace(t, owner.workspaceId, 'member');
  outsider = await signUp(t.app);
  for (const who of [owner, admin, manager, member]) {
    await t.db.updateTable('users').set({ time_zone: 'Europe/Berlin' }).where('id', '=', who.userId).execute();
  }
});
afterAll(() => t?.close());

describe('attendance settings', () => {
  it('are read by everyone, changed by owners and admins, with a place that has holidays', async () => {
    expect((await call(member, 'GET', ws('/attendance/settings'))).json()).toEqual({
      country: null,
      region: null,
      rules: null,
      addLegalBreaks: false,
    });
    const bavaria = { country: 'DE', region: 'BY', rules: 'de', addLegalBreaks: true };
    expect((await call(manager, 'PUT', ws('/attendance/settings'), bavaria)).statusCode).toBe(403);
    const cases: [object, string, string][] = [
      [{ ...bavaria, country: 'XX' }, 'country', 'no public holidays'],
      [{ ...bavaria, region: 'ZZ' }, 'region', 'not a region'],
      [{ ...bavaria, country: null }, 'region', 'country of the region first'],
      [{ ...bavaria, rules: 'fr' }, 'rules', 'working-time rules'],
    ];
    for (const [body, field, words] of cases) {
      const refused = await call(admin, 'PUT', ws('/attendance/settings'), body);
      expect(refused.statusCode, field).toBe(422);
      expect(JSON.stringify(refused.json().error), field).toContain(words);
    }
    const saved = await call(admin, 'PUT', ws('/attendance/settings'), bavaria);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call(member, 'GET', ws('/attendance/settings'))).json()).toEqual(bavaria);
    const trail = await auditTrail(t.db, { workspaceId: owner.workspaceId, action: 'attendance_settings.updated' });
    expect(trail.at(-1)?.detail).toMatchObject({ changes: { country: { from: null, to: 'DE' } } });
    expect((await call(outsider, 'GET', ws('/attendance/settings'))).statusCode).toBe(404);
  });
});

describe('contracts', () => {
  it('are given by owners and admins, one a person and day, and read by whoever sees the person’s time', async () => {
    const body = { userId: member.userId, startsOn: '2027-01-01', weekdayMinutes: FULL_TIME };
    expect((await call(manager, 'POST', ws('/attendance/contracts'), body)).statusCode).toBe(403);
    const made = await call(admin, 'POST', ws('/attendance/contracts'), body);
    expect(made.statusCode, made.body).toBe(201);
    const twice = await call(owner, 'POST', ws('/attendance/contracts'), body);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.fields.startsOn).toMatch(/already has a contract from that day/);
    const bad = await call(owner, 'POST', ws('/attendance/contracts'), { ...body, weekdayMinutes: [480, 2000] });
    expect(bad.statusCode).toBe(422);
    const stranger = await call(owner, 'POST', ws('/attendance/contracts'), { ...body, userId: outsider.userId });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().error.fields.userId).toMatch(/not a member/);
    const partTime = { ...body, startsOn: '2027-03-01', weekdayMinutes: [300, 300, 300, 0, 0, 0, 0] };
    expect((await call(owner, 'POST', ws('/attendance/contracts'), partTime)).statusCode).toBe(201);

    const own = await call(member, 'GET', ws('/attendance/contracts'));
    expect(own.json().items.map((c: { startsOn: string }) => c.startsOn)).toEqual(['2027-01-01', '2027-03-01']);
    // A manager sees their people's time only: `member` is not in a group of theirs.
    expect((await call(manager, 'GET', ws(`/attendance/contracts?userId=${member.userId}`))).statusCode).toBe(403);
    expect((await call(admin, 'GET', ws(`/attendance/contracts?userId=${member.userId}`))).json().items).toHaveLength(
      2,
    );
    expect((await call(member, 'GET', ws(`/attendance/contracts?userId=${owner.userId}`))).statusCode).toBe(403);

    const id = own.json().items[1].id;
    expect((await call(member, 'DELETE', ws(`/attendance/contracts/${id}`))).statusCode).toBe(403);
    expect((await call(owner, 'DELETE', ws(`/attendance/contracts/${id}`))).statusCode).toBe(204);
    expect((await call(owner, 'DELETE', ws(`/attendance/contracts/${id}`))).statusCode).toBe(404);
    const trail = await auditTrail(t.db, { subjectId: member.userId });
    expect(trail.map((r) => r.action)).toEqual(
      expect.arrayContaining(['work_contract.created', 'work_contract.deleted']),
    );
  });
});

describe('overtime', () => {
  it('expects the contract’s time, none on a Bavarian holiday, and balances it with the entries’ work', async () => {
    // The week of Corpus Christi 2026 (Thursday 4 June, a holiday in Bavaria), full time since
    // January: Monday 9 h, Tuesday 8 h, Wednesday 7 h 30, Thursday 2 h (a holiday: all of it over),
    // Friday nothing.
    const since = { userId: member.userId, startsOn: '2026-01-01', weekdayMinutes: FULL_TIME };
    expect((await call(owner, 'POST', ws('/attendance/contracts'), since)).statusCode).toBe(201);
    const entry = (day: string, from: string, to: string) =>
      call(member, 'POST', ws('/time-entries'), {
        start: `${day}T${from}:00+02:00`,
        end: `${day}T${to}:00+02:00`,
      });
    for (const [day, from, to] of [
      ['2026-06-01', '08:00', '17:00'],
      ['2026-06-02', '08:00', '16:00'],
      ['2026-06-03', '08:00', '15:30'],
      ['2026-06-04', '10:00', '12:00'],
    ] as const) {
      const made = await entry(day, from, to);
      expect(made.statusCode, made.body).toBe(201);
    }
    const read = await call(member, 'GET', ws('/attendance/overtime?from=2026-06-01&to=2026-06-07'));
    expect(read.statusCode, read.body).toBe(200);
    const view = read.json();
    expect(
      view.days.map((d: { day: string; expectedMinutes: number; workedMinutes: number }) => [
        d.day,
        d.expectedMinutes,
        d.workedMinutes,
      ]),
    ).toEqual([
      ['2026-06-01', 480, 540],
      ['2026-06-02', 480, 480],
      ['2026-06-03', 480, 450],
      ['2026-06-04', 0, 120],
      ['2026-06-05', 480, 0],
      ['2026-06-06', 0, 0],
      ['2026-06-07', 0, 0],
    ]);
    expect(view.days[3].holiday).toBe('Corpus Christi');
    expect(view.days[2].holiday).toBeNull();
    expect(view).toMatchObject({ expectedMinutes: 1920, workedMinutes: 1590, balanceMinutes: -330 });

    expect(
      (
        await call(admin, 'GET', ws(`/attendance/overtime?userId=${member.userId}&from=2026-06-01&to=2026-06-07`))
      ).json().balanceMinutes,
    ).toBe(-330);
    expect(
      (await call(manager, 'GET', ws(`/attendance/overtime?userId=${member.userId}&from=2026-06-01&to=2026-06-07`)))
        .statusCode,
    ).toBe(403);
    const backwards = await call(member, 'GET', ws('/attendance/overtime?from=2026-06-07&to=2026-06-01'));
    expect(backwards.statusCode).toBe(422);
    const tooLong = await call(member, 'GET', ws('/attendance/overtime?from=2025-01-01&to=2026-06-30'));
    expect(tooLong.statusCode).toBe(422);
  });
});
