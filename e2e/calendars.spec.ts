import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp, workspaceApi, workspacePoster } from './support/users';

/** 2026-11-29T10:15:00Z as iCalendar writes a UTC time: 20261129T101500Z. */
const icsTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * A calendar served by the journey itself on this machine (the server allows private targets for
 * the journeys): a meeting that ended an hour ago and a weekly one, so the week shown has both.
 */
function calendarOf(meetingStart: number): string {
  const quarter = 15 * 60_000;
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Journey//EN',
    'X-WR-CALNAME:Work calendar',
    'BEGIN:VEVENT',
    'UID:design-review@journey',
    'DTSTAMP:20261101T000000Z',
    `DTSTART:${icsTime(meetingStart)}`,
    `DTEND:${icsTime(meetingStart + 3 * quarter)}`,
    'SUMMARY:Design review',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:planning@journey',
    'DTSTAMP:20261101T000000Z',
    `DTSTART:${icsTime(meetingStart - 14 * 86_400_000 - 8 * quarter)}`,
    `DTEND:${icsTime(meetingStart - 14 * 86_400_000 - 6 * quarter)}`,
    'RRULE:FREQ=WEEKLY;COUNT=3',
    'SUMMARY:Weekly planning',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

test('a person subscribes their calendar, sees its meetings beside their time and turns one into an entry', async ({
  page,
}) => {
  // Two hours ago on a quarter hour: in the past (entries may not be in the future) and this week.
  const meetingStart = Math.floor((Date.now() - 2 * 3_600_000) / 900_000) * 900_000;
  const server = http.createServer((request, response) => {
    if (request.url === '/work.ics') {
      response.writeHead(200, { 'content-type': 'text/calendar' });
      response.end(calendarOf(meetingStart));
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const calendarUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/work.ics`;
  try {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    expect((await page.request.patch('/api/v1/me', { data: { timeZone: 'UTC', weekStart: 'monday' } })).status()).toBe(
      200,
    );
    await workspacePoster(page.request, ws)('/projects', { name: 'Client Alpha', isPublic: true });
    const day = new Date(meetingStart).toISOString().slice(0, 10);

    await page.goto(`/homepage/timesheet?day=${day}`);
    await page.getByRole('button', { name: 'Calendars' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your calendars' });
    await expect(dialog.getByText(/^No calendars yet\./)).toBeVisible();
    await shotsAtWidths(page, 'calendars-empty');

    // A private address the server could not read: the answer says why, on the field.
    await dialog.getByLabel(/Calendar address/).fill(calendarUrl.replace('/work.ics', '/missing.ics'));
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await expect(dialog.getByText('We could not read this calendar: Answered 404.')).toBeVisible();
    await shotsAtWidths(page, 'calendars-error');

    await dialog.getByLabel(/Calendar address/).fill(calendarUrl);
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    const subscription = dialog.getByTestId('calendar-subscription');
    await expect(subscription).toContainText('Work calendar');
    await expect(subscription).toContainText('4 events');
    await expectNoSeriousViolations(page, 'calendars dialog');
    await shotsAtWidths(page, 'calendars-subscribed');
    await dialog.getByRole('button', { name: 'Close dialog' }).click();

    // The day list shows the meetings in their lane.
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Day list').click();
    const lane = page.getByRole('region', { name: 'From your calendars' });
    await expect(lane.getByText('Design review')).toBeVisible();
    await expect(lane.getByText('Weekly planning')).toBeVisible();
    await shotsAtWidths(page, 'calendars-day-list');

    // The calendar view draws them in a lane; a click turns one into an entry.
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Calendar').click();
    const event = page.getByTestId('calendar-event').filter({ hasText: 'Design review' });
    await expect(event).toBeVisible();
    await shotsAtWidths(page, 'calendars-calendar-view');
    await event.click();
    const add = page.getByRole('dialog', { name: 'Add meeting to your time' });
    await add.getByRole('combobox', { name: 'Project / task' }).click();
    await page.getByRole('option', { name: 'Client Alpha' }).click();
    await shotsAtWidths(page, 'calendars-add-entry');
    await add.getByRole('button', { name: 'Add to timesheet' }).click();
    await expect(add).toBeHidden();
    await expect(page.getByTestId('calendar-block').filter({ hasText: 'Design review' })).toBeVisible();
    await expect(event).toHaveAttribute('data-entered', 'true');
    await shotsAtWidths(page, 'calendars-entry-made');

    // The entry is in the day list too, and the meeting says it is in the time.
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Day list').click();
    await expect(lane.getByTestId('calendar-event-row').filter({ hasText: 'Design review' })).toContainText(
      'In your time',
    );
    const entries = await (
      await page.request.get(`${ws}/time-entries?from=${day}T00:00:00Z&to=${day}T23:59:59Z`)
    ).json();
    expect(entries.items).toHaveLength(1);
    expect(entries.items[0]).toMatchObject({ note: 'Design review', start: new Date(meetingStart).toISOString() });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('a person copies their calendar feed address in Profile and a calendar app reads it', async ({
  page,
  playwright,
  baseURL,
}) => {
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  const start = new Date(Date.now() - 3 * 3_600_000).toISOString();
  await workspacePoster(page.request, ws)('/time-entries', { start, duration: '1h', note: 'Writing the brief' });

  await page.goto('/homepage/profile');
  const section = page.getByRole('region', { name: 'Calendar feed' });
  await expect(section.getByText('You have no calendar feed in this workspace yet.')).toBeVisible();
  await shotsAtWidths(page, 'profile-calendar-feed-empty');
  await section.getByRole('button', { name: 'Create calendar address' }).click();
  const address = section.getByRole('textbox', { name: 'Your calendar address' });
  await expect(address).toHaveValue(/\/api\/v1\/calendar-feeds\/sdc_[\w-]+\.ics$/);
  await expect(section.getByRole('button', { name: 'Copy address' })).toBeVisible();
  await expectNoSeriousViolations(page, 'calendar feed');
  await shotsAtWidths(page, 'profile-calendar-feed-address');
  const url = await address.inputValue();

  // A calendar app: no cookie, the address alone.
  const app = await playwright.request.newContext({ baseURL });
  const feed = await app.get(new URL(url).pathname);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toMatch(/^text\/calendar/);
  const body = await feed.text();
  expect(body).toContain('BEGIN:VCALENDAR');
  expect(body).toContain('SUMMARY:Writing the brief');

  // Reset: the old address stops, the section says the feed is there but never shows it again.
  await section.getByRole('button', { name: 'Reset address' }).click();
  await page.getByRole('dialog', { name: 'Reset address' }).getByRole('button', { name: 'Reset address' }).click();
  await expect(address).not.toHaveValue(url);
  expect((await app.get(new URL(url).pathname)).status()).toBe(404);
  await section.getByRole('button', { name: 'Hide the address' }).click();
  await expect(section.getByText(/not read by a calendar yet|last read by a calendar/)).toBeVisible();
  await shotsAtWidths(page, 'profile-calendar-feed');
  await app.dispose();
});
