import { expect, test } from '@playwright/test';
import { formatDuration, shiftDay, zonedInstant } from '@sundial/core';
import { ownerWithHarbour, pairedDevice, type Span, span, upload } from './support/agent';
import { expectNoSeriousViolations } from './support/axe';
import { shot, shotsAtWidths } from './support/shots';

test('classifying away time: a meeting becomes a time entry, lunch a break in the entry it cuts, a pause is dismissed', async ({
  page,
  playwright,
  baseURL,
}) => {
  const { ws, workspaceId, post, me, timeZone, today, yesterday } = await ownerWithHarbour(page);
  const minutes = (n: number) => formatDuration(n * 60, me.user.durationFormat);
  const range = `?preset=custom&from=${shiftDay(today, -2)}&to=${today}`;
  const url = `/homepage/computer-time/away-time${range}`;

  // No computer paired: the page says how to install the desktop app.
  await page.goto(url);
  await expect(page.getByTestId('activity-empty')).toContainText('No away time yet');
  await shotsAtWidths(page, 'away-empty');

  // Yesterday: away 10:00–10:45 (idle, then the screen locked: one period), 12:00–12:30 and 14:00–14:10.
  const { device, dispose } = await pairedDevice(page, playwright, baseURL, workspaceId);
  const at = (time: string) => zonedInstant(yesterday, time, timeZone);
  const away = (from: string, to: string, reason: Span['awayReason'] = 'idle'): Span => ({
    ...span(null, at(from), at(to), null, 'away'),
    awayReason: reason,
  });
  await upload(device, [
    span('code', at('09:00'), at('10:00'), 'api.ts — sundial'),
    away('10:00', '10:05'),
    away('10:05', '10:45', 'locked'),
    span('code', at('10:45'), at('12:00'), 'away.ts — sundial'),
    away('12:00', '12:30'),
    span('code', at('12:30'), at('14:00'), 'page.tsx — sundial'),
    away('14:00', '14:10'),
  ]);
  // The work the lunch break will cut: 11:00–14:00.
  const work = await post('/time-entries', {
    start: new Date(at('11:00')).toISOString(),
    end: new Date(at('14:00')).toISOString(),
    note: 'Away time page',
  });

  // Nothing away in today alone: a sentence, not the install steps.
  await page.goto(`/homepage/computer-time/away-time?preset=custom&from=${today}&to=${today}`);
  await expect(page.getByTestId('away-nothing')).toContainText('No away time in this range');

  await page.goto(url);
  const list = page.getByRole('region', { name: 'Away periods' });
  const row = (time: string) => list.getByRole('listitem', { name: new RegExp(`^${time}`) });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(row('10:00–10:45')).toContainText('Screen locked');
  await expect(page.getByTestId('away-total-away')).toHaveText(minutes(85));
  await expect(page.getByTestId('away-total-open')).toHaveText(minutes(85));
  await expectNoSeriousViolations(page, 'away time');
  await shotsAtWidths(page, 'away-full');

  // The meeting becomes an entry of Harbour, its note the activity's name.
  await row('10:00–10:45').getByRole('button', { name: 'Meeting' }).click();
  const form = row('10:00–10:45').getByRole('form', { name: 'Meeting: make a time entry' });
  await expect(form.getByLabel('Note')).toHaveValue('Meeting');
  await form.getByRole('combobox', { name: 'Project' }).click();
  await page.getByRole('option', { name: 'Harbour', exact: true }).click();
  await shotsAtWidths(page, 'away-entry-form');
  await form.getByRole('button', { name: 'Create entry' }).click();
  await expect(row('10:00–10:45').getByTestId('away-outcome')).toHaveText('Time entry: Meeting');
  await expect(row('10:00–10:45').getByRole('link', { name: 'Open the day in Timesheet' })).toHaveAttribute(
    'href',
    `/homepage/timesheet?day=${yesterday}`,
  );

  // Lunch is a break: the 11:00–14:00 entry loses half an hour of work.
  await row('12:00–12:30').getByRole('button', { name: 'Lunch' }).click();
  await expect(row('12:00–12:30').getByTestId('away-outcome')).toHaveText('Break: Lunch');
  const cut = await (await page.request.get(`${ws}/time-entries/${work.id}`)).json();
  expect(cut.durationSeconds).toBe(150 * 60);
  expect(cut.breaks).toEqual([
    { start: new Date(at('12:00')).toISOString(), end: new Date(at('12:30')).toISOString() },
  ]);

  // The short pause is dismissed; then undone, and dismissed again.
  await row('14:00–14:10').getByRole('button', { name: 'Dismiss' }).click();
  await expect(row('14:00–14:10').getByTestId('away-outcome')).toHaveText('Dismissed');
  await expect(page.getByTestId('away-total-open')).toHaveText(minutes(0));
  await expect(page.getByTestId('away-total-resolved')).toHaveText(minutes(85));
  await shotsAtWidths(page, 'away-resolved');
  await row('14:00–14:10').getByRole('button', { name: 'Undo' }).click();
  await expect(row('14:00–14:10').getByRole('button', { name: 'Dismiss' })).toBeVisible();

  // An owner adds an away activity; it is offered at once.
  const card = page.getByRole('region', { name: 'Away activities' });
  await card.getByRole('button', { name: 'Add activity' }).click();
  await card.getByRole('textbox', { name: 'Name' }).last().fill('Client call');
  await card.getByRole('button', { name: 'Save activities' }).click();
  await expect(page.getByText('Away activities saved.')).toBeVisible();
  await expect(row('14:00–14:10').getByRole('button', { name: 'Client call' })).toBeVisible();
  await row('14:00–14:10').getByRole('button', { name: 'Dismiss' }).click();
  await expect(row('14:00–14:10').getByTestId('away-outcome')).toHaveText('Dismissed');

  // The page fits a phone.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBe(0);
  await shot(page, 'away-phone');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The meeting is on the Timesheet.
  await page.goto(`/homepage/timesheet?day=${yesterday}`);
  const sheetDay = page.getByRole('region', { name: `Day ${yesterday}` });
  await expect(sheetDay.getByRole('button', { name: 'Edit entry, 10:00 – 10:45' })).toBeVisible();

  // With the workspace's leave, an owner picks whose away time to read (and only reads it).
  const saved = await page.request.put(`${ws}/computer-time/settings`, {
    data: { keep: 'titles', idleSeconds: 180, retentionDays: null, managersSeeActivity: true, exclusions: [] },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await page.goto(url);
  await expect(page.getByRole('combobox', { name: 'Person' })).toHaveValue(me.user.name);

  // A range the API refuses shows its reason and a retry.
  await page.goto('/homepage/computer-time/away-time?preset=custom&from=2026-01-01&to=2026-03-01');
  await expect(page.getByText('Read at most 31 days of activity at once.')).toBeVisible();
  await shotsAtWidths(page, 'away-error');

  await dispose();
});
