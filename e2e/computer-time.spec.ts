import { expect, test } from '@playwright/test';
import { formatDuration, shiftDay, zonedInstant } from '@sundial/core';
import { ownerWithHarbour, pairedDevice, type Span, span, upload } from './support/agent';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';

test('a person’s day of computer activity shows as lanes, a span becomes a time entry, and Activities totals the apps', async ({
  page,
  playwright,
  baseURL,
}) => {
  const { ws, workspaceId, me, timeZone, today, yesterday } = await ownerWithHarbour(page);

  // Nothing paired yet: the page says where activity comes from.
  await page.goto('/homepage/computer-time/timeline');
  await expect(page.getByTestId('activity-empty')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the Dashboard' })).toHaveAttribute('href', '/homepage/dashboard');
  await shotsAtWidths(page, 'timeline-empty');

  const { device, dispose } = await pairedDevice(page, playwright, baseURL, workspaceId);

  // Yesterday 09:00–12:00: code and firefox in turn, a quarter of an hour away, half an hour of slack.
  const at = (time: string) => zonedInstant(yesterday, time, timeZone);
  const day: Span[] = [];
  for (let t = at('09:00'); t < at('10:30'); t += 10 * 60_000) {
    day.push(span('code', t, t + 6 * 60_000, 'timeline.tsx — sundial'));
    day.push(span('firefox', t + 6 * 60_000, t + 10 * 60_000, 'Pull request · GitHub'));
  }
  day.push(span(null, at('10:30'), at('10:45'), null, 'away'));
  day.push(span('code', at('10:45'), at('11:00'), 'lanes.ts — sundial'));
  day.push(span('slack', at('11:00'), at('11:30'), 'Harbour standup'));
  day.push(span('code', at('11:30'), at('12:00'), 'api.ts — sundial'));
  await upload(device, day);

  // Two days ago: 5,000 spans of ten seconds.
  const busy = shiftDay(today, -2);
  const busyStart = zonedInstant(busy, '06:00', timeZone);
  const many = Array.from({ length: 5000 }, (_, i) =>
    span(
      ['code', 'firefox', 'slack', 'terminal'][i % 4] as string,
      busyStart + i * 10_000,
      busyStart + (i + 1) * 10_000,
      `Window ${i % 50}`,
    ),
  );
  await upload(device, many);

  await page.goto('/homepage/computer-time/timeline');
  await expect(page.getByTestId('activity-empty')).toBeVisible();
  await page.getByRole('button', { name: 'Previous day' }).click();
  await expect(page.getByRole('textbox', { name: 'Day' })).toHaveValue(yesterday);
  const lanes = page.getByRole('region', { name: 'Timeline' });
  await expect(lanes.getByTestId('lane-apps').getByRole('img', { name: /^slack / })).toBeVisible();
  await expect(lanes.getByTestId('lane-away').getByRole('img')).toHaveCount(1);
  await expect(lanes.getByTestId('timeline-legend')).toContainText(
    `slack · ${formatDuration(1800, me.user.durationFormat)}`,
  );
  // The tooltip says the application, the title and the duration.
  await lanes.getByRole('img', { name: /^slack / }).hover();
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toContainText('slack');
  await expect(tooltip).toContainText('Harbour standup');
  await expect(tooltip).toContainText('11:00–11:30');
  await expectNoSeriousViolations(page, 'timeline');
  await shotsAtWidths(page, 'timeline-day');

  // The slack half hour becomes an entry of Harbour in one step.
  await lanes.getByRole('img', { name: /^slack / }).click();
  const form = page.getByRole('region', { name: 'Turn into a time entry' });
  await expect(form.getByTestId('selected-range')).toContainText('11:00–11:30');
  await expect(form.getByLabel('Note')).toHaveValue('Harbour standup');
  await form.getByRole('combobox', { name: 'Project' }).click();
  await page.getByRole('option', { name: 'Harbour', exact: true }).click();
  await shotsAtWidths(page, 'timeline-selected');
  await form.getByRole('button', { name: 'Create entry' }).click();
  await expect(form).toHaveCount(0);
  const entry = lanes.getByTestId('lane-entries').getByRole('img', { name: /^Harbour · Harbour standup 11:00–11:30/ });
  await expect(entry).toBeVisible();
  await shotsAtWidths(page, 'timeline-entry');

  // Dragging across the applications lane selects a range.
  const track = lanes.getByTestId('lane-apps');
  const box = await track.boundingBox();
  if (!box) throw new Error('no lane');
  await page.mouse.move(box.x + box.width * 0.05, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByRole('region', { name: 'Turn into a time entry' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The Timesheet shows the same entry.
  await page.goto(`/homepage/timesheet?day=${yesterday}`);
  const sheetDay = page.getByRole('region', { name: `Day ${yesterday}` });
  await expect(sheetDay.getByRole('textbox', { name: 'Entry note' })).toHaveValue('Harbour standup');
  await expect(sheetDay.getByRole('button', { name: 'Edit entry, 11:00 – 11:30' })).toBeVisible();

  // 5,000 spans draw without freezing the page.
  const started = Date.now();
  await page.goto(`/homepage/computer-time/timeline?day=${busy}`);
  await expect(page.getByTestId('lane-apps').getByRole('img').first()).toBeVisible();
  const drawnIn = Date.now() - started;
  const bands = await page.getByTestId('lane-apps').getByRole('img').count();
  console.log(`timeline of 5000 spans: ${bands} bands, shown ${drawnIn} ms after navigation`);
  expect(bands).toBeGreaterThan(100);
  expect(bands).toBeLessThan(2000);
  await shotsAtWidths(page, 'timeline-5000');

  // Activities: the applications' time per day and in all, sortable.
  await page.goto(`/homepage/computer-time/activities?preset=custom&from=${busy}&to=${yesterday}`);
  const table = page.getByRole('table', { name: 'Time per application and day' });
  const appsInOrder = () => table.locator('tbody th').allTextContents();
  await expect.poll(appsInOrder).toEqual(['code', 'firefox', 'slack', 'terminal']);
  await expect(table.getByRole('row', { name: /^code Development/ })).toBeVisible();
  await expect(page.getByTestId('activities-total')).toHaveText(formatDuration(59_900, me.user.durationFormat));
  await table.getByRole('button', { name: 'Application' }).click();
  await expect.poll(appsInOrder).toEqual(['terminal', 'slack', 'firefox', 'code']);
  await expectNoSeriousViolations(page, 'activities');
  await shotsAtWidths(page, 'activities');

  // With the workspace's leave, an owner may pick whose activity to read.
  const saved = await page.request.put(`${ws}/computer-time/settings`, {
    data: { keep: 'titles', idleSeconds: 180, retentionDays: null, managersSeeActivity: true, exclusions: [] },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'People' })).toBeVisible();
  await page.goto(`/homepage/computer-time/timeline?day=${yesterday}`);
  await expect(page.getByRole('combobox', { name: 'Person' })).toHaveValue(me.user.name);

  // Where the workspace keeps sites, a browser's time is read per site and sorted by the site rules.
  const sites = await page.request.put(`${ws}/computer-time/settings`, {
    data: { keep: 'sites', idleSeconds: 180, retentionDays: null, managersSeeActivity: true, exclusions: [] },
  });
  expect(sites.status(), await sites.text()).toBe(200);
  await upload(device, [span('firefox', at('13:00'), at('13:20'), 'Pull request · GitHub')]);
  await page.goto(`/homepage/computer-time/activities?preset=custom&from=${yesterday}&to=${yesterday}`);
  await expect(table.getByRole('row', { name: /^github\.com in firefox Development/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /^firefox Browsing/ })).toBeVisible();
  await shotsAtWidths(page, 'activities-sites');

  await dispose();
});
