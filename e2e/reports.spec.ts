import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { allow } from './support/time';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

const SHOTS = process.env.E2E_SHOTS_DIR;

/** Each report screen at the two widths a person checks: a desktop and a 1024 px laptop. */
async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe('reports', () => {
  test('an owner filters Summary by a project and a tag and finds the timesheet total there, in Detailed, By days and People; a member sees no amounts of others', async ({
    page,
    browser,
    baseURL,
  }) => {
    // Many pages and several axe scans: 59.7 s measured on a quiet machine, past 60 s under CI load (two journeys at once).
    test.setTimeout(allow(120_000));
    await signUpOverHttp(page.request);
    expect((await page.request.patch('/api/v1/me', { data: { name: 'Olive Owner' } })).status()).toBe(200);
    const ws = await workspaceApi(page.request);
    const atlas = await (await page.request.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    const beacon = await (await page.request.post(`${ws}/projects`, { data: { name: 'Beacon' } })).json();
    const list = await (await page.request.post(`${ws}/tag-lists`, { data: { name: 'Kind' } })).json();
    const design = await (
      await page.request.post(`${ws}/tag-lists/${list.id}/tags`, { data: { name: 'Design' } })
    ).json();
    const add = async (hoursAgo: number, duration: string, projectId: string, tagIds: string[], note: string) => {
      const start = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
      const r = await page.request.post(`${ws}/time-entries`, { data: { start, duration, projectId, tagIds, note } });
      expect(r.status()).toBe(201);
    };
    await add(6, '1h30m', atlas.id, [design.id], 'Logo sketches');
    await add(4, '45m', atlas.id, [design.id], 'Colour study');
    await add(3, '1h', atlas.id, [], 'Client call');
    await add(1.5, '1h', beacon.id, [design.id], 'Wireframes');

    // The member tracks time of their own, on Atlas with Design too.
    const theirs = await browser.newContext({ baseURL });
    await joinAsMember(page.request, ws, theirs.request, 'Mia Member');
    const memberEntry = await theirs.request.post(`${ws}/time-entries`, {
      data: { start: new Date(Date.now() - 2 * 3_600_000).toISOString(), duration: '20m', note: 'Mia works' },
    });
    expect(memberEntry.status()).toBe(201);

    // What the timesheet's week grid shows for Atlas with Design this week.
    await page.goto('/homepage/timesheet');
    await page.getByLabel('View').getByText('Week', { exact: true }).click();
    const gridRow = page
      .getByRole('table', { name: 'Week timesheet' })
      .getByRole('row')
      .filter({ hasText: 'Atlas · Design' });
    await expect(gridRow).toBeVisible();
    const timesheetTotal = ((await gridRow.getByRole('cell').last().textContent()) ?? '').trim();
    expect(timesheetTotal).toMatch(/^\d+:\d\d:\d\d$/);
    expect(timesheetTotal).not.toBe('0:00:00');

    // Summary, opened from the Reports menu, filtered by the project and the tag.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Reports' }).hover();
    await page.getByRole('menu', { name: 'Reports' }).getByRole('menuitem', { name: 'Summary' }).click();
    await expect(page).toHaveURL(/\/homepage\/reports\/summary$/);
    const summary = page.getByTestId('summary-table');
    await expect(summary).toBeVisible();
    await expect(page.getByRole('figure', { name: /Tracked time per day/ })).toBeVisible();
    await page.mouse.move(900, 10);
    await expect(page.getByRole('menu', { name: 'Reports' })).toBeHidden();
    await shots(page, 'reports-summary-full');

    await page.getByRole('combobox', { name: 'Projects' }).click();
    await page.getByRole('option', { name: 'Atlas' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(new RegExp(`projects=${atlas.id}`));
    await page.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Design' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(new RegExp(`tags=${design.id}`));
    const total = page.getByTestId('summary-total');
    await expect(total.getByRole('cell').first()).toHaveText(timesheetTotal);
    await expect(summary.getByRole('columnheader', { name: 'Billable amount' })).toBeVisible();
    await expect(summary.getByRole('rowheader', { name: 'Beacon' })).toHaveCount(0);
    await expectNoSeriousViolations(page, 'summary filtered');

    // The back button undoes the tag filter: a report is a link.
    await page.goBack();
    await expect(page).not.toHaveURL(/tags=/);
    await expect(total.getByRole('cell').first()).not.toHaveText(timesheetTotal);
    await page.goForward();
    await expect(total.getByRole('cell').first()).toHaveText(timesheetTotal);
    const filters = new URL(page.url()).search;

    // Detailed: the same two entries, sortable, and marked as invoiced in bulk.
    await page.goto(`/homepage/reports/detailed${filters}`);
    const rows = page.getByTestId('detailed-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('Colour study');
    await page.getByRole('button', { name: 'Duration', exact: true }).click();
    await expect(page).toHaveURL(/sort=duration/);
    await expect(rows.first()).toContainText('Logo sketches');
    await page.getByRole('checkbox', { name: 'Select every entry shown' }).check();
    await page.getByRole('button', { name: 'Mark as invoiced' }).click();
    await expect(page.getByText('2 entries marked as invoiced.')).toBeVisible();
    await expect(rows.filter({ hasText: 'Not invoiced' })).toHaveCount(0);
    await shots(page, 'reports-detailed-full');
    await expectNoSeriousViolations(page, 'detailed');

    // By days: the same total, on today's column.
    await page.goto(`/homepage/reports/by-days${filters}`);
    const matrixTotal = page.getByTestId('matrix-total');
    await expect(matrixTotal.getByRole('cell').last()).toHaveText(timesheetTotal);
    await expect(page.getByTestId('matrix-table').getByRole('rowheader', { name: /Atlas/ })).toBeVisible();
    await shots(page, 'reports-by-days-full');
    await expectNoSeriousViolations(page, 'by days');

    // People by days and task: Olive's row, opened on her tasks (none here: "Without task").
    await page.goto(`/homepage/reports/people-by-days-and-task${filters}`);
    await expect(matrixTotal.getByRole('cell').last()).toHaveText(timesheetTotal);
    await page.getByRole('button', { name: 'Show the breakdown of Olive Owner' }).click();
    await expect(page.getByRole('rowheader', { name: 'Without task' })).toBeVisible();
    await shots(page, 'reports-people-by-days-and-task');

    // Custom: grouped by tag then project, with a donut; the choice is part of the link.
    await page.goto(
      `/homepage/reports/custom${filters}&groupBy=tag,project&chart=donut&measures=trackedSeconds,entryCount`,
    );
    await expect(page.getByRole('figure', { name: 'Tracked time by tag' })).toBeVisible();
    await expect(page.getByRole('figure', { name: /per day/ })).toHaveCount(0);
    await expect(summary.getByRole('columnheader', { name: 'Entries' })).toBeVisible();
    await expect(total.getByRole('cell').first()).toHaveText(timesheetTotal);
    await expect(total.getByRole('cell').last()).toHaveText('2');
    await shots(page, 'reports-custom');

    // An empty report says so.
    await page.goto('/homepage/reports/people-by-days?preset=lastYear');
    await expect(page.getByText('No time tracked matches these filters in this range.')).toBeVisible();
    await shots(page, 'reports-matrix-empty');
    await page.goto('/homepage/reports/summary?preset=lastYear&billable=maybe');
    await expect(page.getByRole('alert').filter({ hasText: 'could not be read (billable)' })).toBeVisible();
    await expect(page.getByText('No time tracked matches these filters in this range.')).toBeVisible();
    await shots(page, 'reports-summary-empty');

    // The member: only their own time, and no amounts.
    const them = await theirs.newPage();
    await them.goto('/homepage/reports/summary');
    await expect(them.getByTestId('summary-table')).toBeVisible();
    await expect(them.getByTestId('money-hidden')).toBeVisible();
    await expect(them.getByRole('columnheader', { name: 'Billable amount' })).toHaveCount(0);
    await expect(them.getByTestId('summary-total').getByRole('cell').first()).toHaveText('0:20:00');
    await them.goto('/homepage/reports/detailed');
    await expect(them.getByTestId('detailed-row')).toHaveCount(1);
    await expect(them.getByTestId('detailed-row')).toContainText('Mia works');
    await expect(them.getByRole('columnheader', { name: 'Amount' })).toHaveCount(0);
    await theirs.close();
  });
});
