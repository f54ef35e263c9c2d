import type { Role } from '@sundial/core';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  caller,
  createTestApp,
  joinWorkspace,
  type SignedUp,
  signUp,
  type TestApp,
  workspaceCalls,
} from '../../../test/harness.js';
import { type Inbox, recipients, startInbox } from '../../../test/smtp.js';
import { reportScheduleSendJob, SEND_ATTEMPTS } from './report-schedules.service.js';

/**
 * Scheduled reports end to end on the job runner and a real SMTP server: the tick sends a due
 * schedule once however many processes tick, the attachment holds the report's own totals, a
 * refused delivery is retried and shown, and paused schedules and owners who lost access send
 * nothing. The runner's clock is the test's; the polling loop is off.
 */
let inbox: Inbox;
let t: TestApp;
let call: ReturnType<typeof caller>;
let at = Date.now();
let owner: SignedUp;
let member: SignedUp;
let ws: string;
const { ok } = workspaceCalls({ call: (...args) => call(...args) }, () => ws);
const join = (role: Role) => joinWorkspace(t, owner.workspaceId, role);
const RANGE = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url, JOBS_ENABLED: 'false' }, { now: () => new Date(at) });
  call = caller(t.app);
  owner = await signUp(t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  member = await join('member');
  const alpha = (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true })).id;
  await ok(owner, 'POST', '/time-entries', {
    start: '2026-11-02T09:00:00Z',
    end: '2026-11-02T11:00:00Z',
    projectId: alpha,
  });
  await ok(owner, 'POST', '/time-entries', { start: '2026-11-03T09:00:00Z', end: '2026-11-03T09:45:30Z' });
  await ok(owner, 'POST', '/time-entries', {
    userId: member.userId,
    start: '2026-11-04T13:00:00Z',
    end: '2026-11-04T14:00:00Z',
    projectId: alpha,
  });
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

let n = 0;
async function savedReport(
  who: SignedUp,
  query = `${RANGE}&groupBy=project&measures=trackedSeconds`,
  kind = 'summary',
) {
  return (await ok(who, 'POST', '/saved-reports', { name: `Weekly hours ${++n}`, kind, query })).id as string;
}
const weekly = (extra: object = {}) => ({
  frequency: 'weekly',
  weekday: 1,
  hour: 8,
  timeZone: 'Europe/Berlin',
  format: 'csv',
  recipientEmails: ['boss@example.com'],
  ...extra,
});
/** Makes a schedule due now (as if its hour had come) without waiting for it. */
const makeDue = (savedReportId: string) =>
  t.db
    .updateTable('report_schedules')
    .set({ next_run_at: new Date(at - 1000) })
    .where('saved_report_id', '=', savedReportId)
    .execute();
const scheduleOf = async (who: SignedUp, id: string) =>
  (await ok(who, 'GET', `/saved-reports/${id}/schedule`)).schedule;
const mailsTo = (to: string) => inbox.messages.filter((m) => recipients(m).includes(to));
const seconds = (hms: string) => {
  const [h, m, s] = hms.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

describe('saving a schedule', () => {
  it('answers null before there is one, then the schedule with its next send in the chosen zone', async () => {
    const id = await savedReport(owner);
    expect(await ok(owner, 'GET', `/saved-reports/${id}/schedule`)).toEqual({ schedule: null });
    const saved = await ok(
      owner,
      'PUT',
      `/saved-reports/${id}/schedule`,
      weekly({ recipientUserIds: [member.userId] }),
    );
    expect(saved).toMatchObject({
      savedReportId: id,
      frequency: 'weekly',
      weekday: 1,
      monthDay: null,
      hour: 8,
      timeZone: 'Europe/Berlin',
      state: 'active',
      recipientUserIds: [member.userId],
      recipientEmails: ['boss@example.com'],
      lastSentAt: null,
      failedAttempts: 0,
    });
    const next = new Date(saved.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    }).format(next);
    expect(local).toBe('Mon 08:00');
  });

  it("takes the owner's own time zone when none is given, and keeps one schedule per report", async () => {
    const id = await savedReport(owner);
    await t.db.updateTable('users').set({ time_zone: 'Asia/Tokyo' }).where('id', '=', owner.userId).execute();
    const { timeZone, ...body } = weekly();
    const first = await ok(owner, 'PUT', `/saved-reports/${id}/schedule`, body);
    expect(first.timeZone).toBe('Asia/Tokyo');
    const second = await ok(owner, 'PUT', `/saved-reports/${id}/schedule`, { ...body, frequency: 'daily' });
    expect(second).toMatchObject({ id: first.id, frequency: 'daily', weekday: null, timeZone: 'Asia/Tokyo' });
    await t.db.updateTable('users').set({ time_zone: 'UTC' }).where('id', '=', owner.userId).execute();
  });

  it('refuses bad input with a message per field', async () => {
    const id = await savedReport(owner);
    const put = (body: object) => call('PUT', `${ws}/saved-reports/${id}/schedule`, owner.cookie, body);
    const fieldsOf = async (body: object) => {
      const response = await put(body);
      expect(response.statusCode, response.body).toBe(422);
      return response.json().error.fields;
    };
    expect(await fieldsOf(weekly({ weekday: undefined }))).toEqual({
      weekday: 'Choose the day of the week (0 is Sunday, 6 is Saturday).',
    });
    expect(await fieldsOf(weekly({ frequency: 'monthly', monthDay: 31 }))).toMatchObject({
      monthDay: 'Choose a day of the month from 1 to 28.',
    });
    expect(await fieldsOf(weekly({ hour: 24 }))).toEqual({ hour: 'Choose an hour from 0 to 23.' });
    expect(await fieldsOf(weekly({ format: 'docx' }))).toEqual({ format: 'Send it as PDF, XLSX or CSV.' });
    expect(await fieldsOf(weekly({ recipientEmails: ['not an address'] }))).toEqual({
      'recipientEmails.0': '“not an address” is not an e-mail address.',
    });
    expect(await fieldsOf(weekly({ recipientEmails: [] }))).toEqual({
      recipientEmails: 'Add at least one member or e-mail address.',
    });
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
    expect(Object.values(await fieldsOf(weekly({ recipientEmails: many })))).toContain(
      'A schedule mails at most 50 recipients.',
    );
    expect(await fieldsOf(weekly({ timeZone: 'Mars/Olympus' }))).toEqual({ timeZone: 'Unknown time zone.' });
    const outsider = await signUp(t.app);
    expect(await fieldsOf(weekly({ recipientUserIds: [outsider.userId] }))).toEqual({
      recipientUserIds: 'Some of the chosen people are not active members of this workspace.',
    });
  });

  it("refuses someone else's shared report (403), a guest (403) and an unknown report (404)", async () => {
    const shared = await savedReport(member);
    await ok(member, 'PATCH', `/saved-reports/${shared}`, { visibility: 'workspace' });
    const response = await call('PUT', `${ws}/saved-reports/${shared}/schedule`, owner.cookie, weekly());
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('Only the person who saved this report may schedule it.');
    const guest = await join('guest');
    const guestReport = await savedReport(guest);
    expect((await call('PUT', `${ws}/saved-reports/${guestReport}/schedule`, guest.cookie, weekly())).statusCode).toBe(
      403,
    );
    const unknown = '0190a0a0-0000-7000-8000-000000000000';
    expect((await call('GET', `${ws}/saved-reports/${unknown}/schedule`, owner.cookie)).statusCode).toBe(404);
    expect(
      (await call('POST', `${ws}/saved-reports/${shared}/schedule/pause`, member.cookie)).json().error.message,
    ).toBe('This saved report has no e-mail schedule.');
  });

  it('pauses, resumes and deletes, each audited', async () => {
    const id = await savedReport(owner);
    const created = await ok(owner, 'PUT', `/saved-reports/${id}/schedule`, weekly());
    const paused = await ok(owner, 'POST', `/saved-reports/${id}/schedule/pause`);
    expect(paused).toMatchObject({ state: 'paused', nextRunAt: null });
    // Editing a paused schedule keeps it paused.
    expect(await ok(owner, 'PUT', `/saved-reports/${id}/schedule`, weekly({ hour: 9 }))).toMatchObject({
      state: 'paused',
      hour: 9,
    });
    const resumed = await ok(owner, 'POST', `/saved-reports/${id}/schedule/resume`);
    expect(resumed).toMatchObject({ state: 'active', nextRunAt: expect.any(String) });
    expect((await call('DELETE', `${ws}/saved-reports/${id}/schedule`, owner.cookie)).statusCode).toBe(204);
    expect(await scheduleOf(owner, id)).toBeNull();
    const actions = await auditTrail(t.db, { subjectId: created.id });
    expect(actions.map((a) => a.action)).toEqual([
      'report_schedule.saved',
      'report_schedule.paused',
      'report_schedule.saved',
      'report_schedule.resumed',
      'report_schedule.deleted',
    ]);
  });

  it('goes when its saved report is deleted', async () => {
    const id = await savedReport(owner);
    await ok(owner, 'PUT', `/saved-reports/${id}/schedule`, weekly());
    expect((await call('DELETE', `${ws}/saved-reports/${id}`, owner.cookie)).statusCode).toBe(204);
    expect(await t.db.selectFrom('report_schedules').select('id').where('saved_report_id', '=', id).execute()).toEqual(
      [],
    );
  });
});

describe('sending', () => {
  it('sends a due schedule exactly once when two ticks run at the same time, with the report as a CSV', async () => {
    const id = await savedReport(owner);
    const to = 'csv.once@example.com';
    await ok(
      owner,
      'PUT',
      `/saved-reports/${id}/schedule`,
      weekly({ recipientEmails: [to], recipientUserIds: [member.userId] }),
    );
    await makeDue(id);
    const { reportSchedules, jobs } = t.app.services;
    const queued = await Promise.all([reportSchedules.tick(new Date(at)), reportSchedules.tick(new Date(at))]);
    expect(queued[0] + queued[1]).toBe(1);
    await jobs.drain();
    await jobs.drain();
    const mail = await inbox.waitFor(to);
    expect(mailsTo(to)).toHaveLength(1);
    expect(recipients(mail).sort()).toEqual([to, member.email.toLowerCase()].sort());
    expect(mail.subject).toMatch(/^Weekly hours \d+: 2026-11-02 – 2026-11-04$/);
    expect(mail.text).toContain('/homepage/reports/summary?');
    const [attachment] = mail.attachments;
    expect(attachment?.filename).toMatch(/^weekly-hours-\d+-2026-11-02-2026-11-04\.csv$/);
    const rows: string[][] = parse(attachment?.content as Buffer, { bom: true });
    const summary = await ok(owner, 'GET', `/reports/summary?${RANGE}&groupBy=project&measures=trackedSeconds`);
    const total = rows[rows.length - 1] as string[];
    expect(total[0]).toBe('Total');
    expect(seconds(total[1] as string)).toBe(summary.totals.trackedSeconds);
    expect(summary.totals.trackedSeconds).toBe(2 * 3600 + 45 * 60 + 30 + 3600);

    const schedule = await scheduleOf(owner, id);
    expect(schedule).toMatchObject({ state: 'active', lastError: null, failedAttempts: 0 });
    expect(new Date(schedule.lastSentAt).getTime()).toBe(at);
    expect(new Date(schedule.nextRunAt).getTime()).toBeGreaterThan(at);
    // Ticking again before the next slot sends nothing more.
    expect(await reportSchedules.tick(new Date(at))).toBe(0);
  });

  it('attaches an XLSX whose total is the report’s, sent by the runner’s own minute tick', async () => {
    const id = await savedReport(owner);
    const to = 'xlsx@example.com';
    await ok(owner, 'PUT', `/saved-reports/${id}/schedule`, weekly({ recipientEmails: [to], format: 'xlsx' }));
    await makeDue(id);
    // The tick is a cron job of the runner: its next minute comes, the runner ticks and sends.
    at += 61_000;
    await t.app.services.jobs.drain();
    const mail = await inbox.waitFor(to);
    const attachment = mail.attachments[0];
    expect(attachment?.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(attachment?.content as never);
    const sheet = book.worksheets[0];
    let total: unknown;
    sheet?.eachRow((row) => {
      if (row.getCell(1).value === 'Total') total = row.getCell(2).value;
    });
    const durationOf = (value: unknown) =>
      Math.round(value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 1000 : Number(value) * 86_400);
    const summary = await ok(owner, 'GET', `/reports/summary?${RANGE}&groupBy=project&measures=trackedSeconds`);
    expect(durationOf(total)).toBe(summary.totals.trackedSeconds);
  });

  it('sends a PDF on "send now" without moving the next send', async () => {
    const id = await savedReport(owner);
    const to = 'pdf@example.com';
    const saved = await ok(
      owner,
      'PUT',
      `/saved-reports/${id}/schedule`,
      weekly({ recipientEmails: [to], format: 'pdf' }),
    );
    const response = await call('POST', `${ws}/saved-reports/${id}/schedule/send`, owner.cookie);
    expect(response.statusCode).toBe(202);
    await t.app.services.jobs.drain();
    const mail = await inbox.waitFor(to);
    expect(mail.attachments[0]?.contentType).toBe('application/pdf');
    expect(mail.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await scheduleOf(owner, id)).nextRunAt).toBe(saved.nextRunAt);
  });

  it('sends nothing for a paused schedule', async () => {
    const id = await savedReport(owner);
    const to = 'paused@example.com';
    await ok(owner, 'PUT', `/saved-reports/${id}/schedule`, weekly({ recipientEmails: [to] }));
    await makeDue(id);
    await ok(owner, 'POST', `/saved-reports/${id}/schedule/pause`);
    expect(await t.app.services.reportSchedules.tick(new Date(at))).toBe(0);
    await t.app.services.jobs.drain();
    expect(mailsTo(to)).toEqual([]);
  });

  it('sends nothing when the owner lost access, and shows why', async () => {
    const leaver = await join('member');
    const id = await savedReport(leaver);
    const to = 'leaver@example.com';
    await ok(leaver, 'PUT', `/saved-reports/${id}/schedule`, weekly({ recipientEmails: [to] }));
    await makeDue(id);
    await t.db
      .updateTable('memberships')
      .set({ status: 'disabled' })
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', leaver.userId)
      .execute();
    expect(await t.app.services.reportSchedules.tick(new Date(at))).toBe(1);
    await t.app.services.jobs.drain();
    expect(mailsTo(to)).toEqual([]);
    const row = await t.db
      .selectFrom('report_schedules')
      .select(['state', 'last_error', 'last_sent_at'])
      .where('saved_report_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      state: 'failed',
      last_error: 'Not sent: the owner of this schedule is no longer an active member.',
      last_sent_at: null,
    });
  });

  it('sends nothing when the report shows money its owner may no longer see', async () => {
    const id = await savedReport(member, `${RANGE}&groupBy=project&measures=trackedSeconds,costAmount`);
    const to = 'money@example.com';
    await ok(member, 'PUT', `/saved-reports/${id}/schedule`, weekly({ recipientEmails: [to] }));
    await makeDue(id);
    expect(await t.app.services.reportSchedules.tick(new Date(at))).toBe(1);
    await t.app.services.jobs.drain();
    expect(mailsTo(to)).toEqual([]);
    const schedule = await scheduleOf(member, id);
    expect(schedule.state).toBe('failed');
    expect(schedule.lastError).toMatch(/^Not sent: /);
  });
});

describe('a refused delivery', () => {
  let refusing: Inbox;
  let app: TestApp;
  afterAll(async () => {
    await app?.close();
    await refusing?.close();
  });

  it('is retried with backoff, shown on the schedule, and marks it failed after the last attempt', async () => {
    refusing = await startInbox({ refuseFirst: 1 });
    let clock = Date.now();
    app = await createTestApp({ SMTP_URL: refusing.url, JOBS_ENABLED: 'false' }, { now: () => new Date(clock) });
    const call2 = caller(app.app);
    const me = await signUp(app.app);
    const base = `/api/v1/workspaces/${me.workspaceId}/saved-reports`;
    const id = (await call2('POST', base, me.cookie, { name: 'Retry', kind: 'summary', query: RANGE })).json().id;
    const to = 'retry@example.com';
    expect(
      (await call2('PUT', `${base}/${id}/schedule`, me.cookie, weekly({ recipientEmails: [to] }))).statusCode,
    ).toBe(200);
    await app.db
      .updateTable('report_schedules')
      .set({ next_run_at: new Date(clock - 1000) })
      .execute();
    expect(await app.app.services.reportSchedules.tick(new Date(clock))).toBe(1);
    await app.app.services.jobs.drain();
    let schedule = (await call2('GET', `${base}/${id}/schedule`, me.cookie)).json().schedule;
    expect(schedule).toMatchObject({ state: 'active', failedAttempts: 1, lastSentAt: null });
    expect(schedule.lastError).toMatch(/^Sending failed \(attempt 1 of 4\): .*451/);
    // The runner retries after its backoff (one minute): the server now accepts.
    clock += 61_000;
    await app.app.services.jobs.drain();
    const mail: ParsedMail = await refusing.waitFor(to);
    expect(mail.attachments).toHaveLength(1);
    schedule = (await call2('GET', `${base}/${id}/schedule`, me.cookie)).json().schedule;
    expect(schedule).toMatchObject({ state: 'active', failedAttempts: 0, lastError: null });
    expect(await app.app.services.jobs.list({ name: reportScheduleSendJob.name })).toMatchObject([
      { state: 'done', attempts: 2 },
    ]);

    // A server that keeps refusing: after the last attempt the schedule is failed until edited or resumed.
    await refusing.close();
    await app.db
      .updateTable('report_schedules')
      .set({ next_run_at: new Date(clock - 1000) })
      .execute();
    expect(await app.app.services.reportSchedules.tick(new Date(clock))).toBe(1);
    for (let attempt = 0; attempt < SEND_ATTEMPTS; attempt++) {
      await app.app.services.jobs.drain();
      clock += 10 * 60_000;
    }
    schedule = (await call2('GET', `${base}/${id}/schedule`, me.cookie)).json().schedule;
    expect(schedule).toMatchObject({ state: 'failed', failedAttempts: SEND_ATTEMPTS, nextRunAt: null });
    expect(schedule.lastError).toMatch(/^Sending failed \(attempt 4 of 4\)/);
    const resumed = (await call2('POST', `${base}/${id}/schedule/resume`, me.cookie)).json();
    expect(resumed).toMatchObject({ state: 'active', failedAttempts: 0, lastError: null });
  });
});
