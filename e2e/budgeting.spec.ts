import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

/** A UTC day (the users of this journey keep the default UTC zone). */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function openReport(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Reports' }).hover();
  await page.getByRole('menu', { name: 'Reports' }).getByRole('menuitem', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

test.describe('budgeting reports', () => {
  test('an owner with rates and budgets reads billable, invoiced, revenue, cost, margin and estimates; a member is told why amounts are not shown', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const post = async (path: string, data: object) => {
      const response = await page.request.post(`${ws}${path}`, { data });
      expect(response.status(), await response.text()).toBeLessThan(300);
      return response.json();
    };
    // Before any budget: Estimates says how to set one.
    await page.goto('/homepage/reports/estimates');
    await expect(page.getByText('No project or task here has an estimate yet.')).toBeVisible();
    await shotsAtWidths(page, 'budgeting-estimates-empty');

    await post('/rates', { level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 10_000, costCents: 4_000 });
    const harbour = await post('/projects', {
      name: 'Harbour',
      isPublic: true,
      budget: { type: 'hours', amount: 120, resetsMonthly: false },
    });
    const lighthouse = await post('/projects', {
      name: 'Lighthouse',
      isPublic: true,
      budget: { type: 'fee', amount: 12_000, resetsMonthly: true },
    });
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
    const invoiced = await post('/time-entries', {
      start: at(5),
      duration: '1h30m',
      projectId: harbour.id,
      billable: true,
      note: 'Quay survey',
    });
    await post('/time-entries', {
      start: at(3.4),
      duration: '1h',
      projectId: harbour.id,
      billable: false,
      note: 'Notes',
    });
    await post('/time-entries', {
      start: at(2.2),
      duration: '1h',
      projectId: lighthouse.id,
      billable: true,
      note: 'Lamp',
    });
    await post('/reports/invoiced', { invoiced: true, ids: [invoiced.id] });
    const range = `preset=custom&from=${utcDay(now - 6 * 3_600_000)}&to=${utcDay(now)}`;

    // Billable, unbillable, invoiced: by project, with the totals row and the charts.
    await page.goto('/homepage/timesheet');
    await openReport(page, 'Billable, unbillable, invoiced');
    await page.goto(`/homepage/reports/billable?${range}`);
    const billable = page.getByRole('table', { name: 'Billable, unbillable and invoiced time' });
    const amounts = page.getByRole('table', { name: 'Billable and invoiced amounts' });
    // Tracked, billable, unbillable, invoiced and not invoiced time; billable, invoiced, not invoiced amounts.
    await expect(billable.getByRole('row').filter({ hasText: 'Harbour' }).getByRole('cell')).toHaveText([
      '2:30:00',
      '1:30:00',
      '1:00:00',
      '1:30:00',
      '0:00:00',
    ]);
    await expect(amounts.getByRole('row').filter({ hasText: 'Harbour' }).getByRole('cell')).toHaveText([
      '$150.00',
      '$150.00',
      '$0.00',
    ]);
    await expect(billable.getByTestId('summary-total').getByRole('cell')).toHaveText([
      '3:30:00',
      '2:30:00',
      '1:00:00',
      '1:30:00',
      '1:00:00',
    ]);
    await expect(amounts.getByTestId('summary-total').getByRole('cell')).toHaveText(['$250.00', '$150.00', '$100.00']);
    await expect(page.getByRole('figure', { name: 'Billable and unbillable time by project' })).toBeVisible();
    await expect(
      page.getByRole('figure', { name: 'Invoiced and not invoiced billable amounts by project' }),
    ).toBeVisible();
    await expectNoSeriousViolations(page, 'billable report');
    await shotsAtWidths(page, 'budgeting-billable');

    // The grouping switch: by person, one row for the owner with the same total.
    await page.getByLabel('Group by').getByText('Person', { exact: true }).click();
    await expect(page).toHaveURL(/groupBy=user/);
    await expect(billable.getByRole('row')).toHaveCount(3);
    await expect(billable.getByTestId('summary-total').getByRole('cell').first()).toHaveText('3:30:00');

    // Revenues, by month.
    await page.goto(`/homepage/reports/revenues?${range}&groupBy=month`);
    const revenues = page.getByRole('table', { name: 'Revenues' });
    await expect(revenues.getByTestId('summary-total').getByRole('cell')).toHaveText(['2:30:00', '$250.00']);
    await expect(page.getByRole('figure', { name: 'Revenue by month' })).toBeVisible();
    await shotsAtWidths(page, 'budgeting-revenues');

    // Costs: every hour at the workspace's cost rate.
    await page.goto(`/homepage/reports/costs?${range}`);
    const costs = page.getByRole('table', { name: 'Costs' });
    await expect(costs.getByTestId('summary-total').getByRole('cell')).toHaveText(['3:30:00', '$140.00']);
    await expect(costs.getByRole('row').filter({ hasText: 'Lighthouse' }).getByRole('cell')).toHaveText([
      '1:00:00',
      '$40.00',
    ]);

    // Margin: revenue - cost, and its share of revenue.
    await page.goto(`/homepage/reports/margin?${range}`);
    const margin = page.getByRole('table', { name: 'Margin' });
    await expect(margin.getByTestId('summary-total').getByRole('cell')).toHaveText([
      '$250.00',
      '$140.00',
      '$110.00',
      '44%',
    ]);
    await expect(margin.getByRole('row').filter({ hasText: 'Harbour' }).getByRole('cell')).toHaveText([
      '$150.00',
      '$100.00',
      '$50.00',
      '33.3%',
    ]);
    await expect(page.getByRole('figure', { name: 'Revenue, cost and margin by project' })).toBeVisible();
    await expectNoSeriousViolations(page, 'margin report');
    await shotsAtWidths(page, 'budgeting-margin');

    // Estimates: Harbour's 2 hours are overrun by half an hour; Lighthouse's monthly fee is near.
    await page.goto(`/homepage/reports/estimates?${range}`);
    const estimates = page.getByRole('table', { name: 'Estimates' });
    const harbourEstimate = estimates.getByTestId('estimate-row').filter({ hasText: 'Harbour' });
    await expect(harbourEstimate).toHaveAttribute('data-status', 'over');
    await expect(harbourEstimate).toContainText('2:00:00');
    await expect(harbourEstimate).toContainText('2:30:00');
    await expect(harbourEstimate).toContainText('125 %');
    await expect(harbourEstimate).toContainText('Over by 0:30:00');
    const lighthouseEstimate = estimates.getByTestId('estimate-row').filter({ hasText: '$100.00' });
    await expect(lighthouseEstimate).toHaveAttribute('data-status', 'near');
    await expect(lighthouseEstimate).toContainText('$120.00');
    await expect(lighthouseEstimate).toContainText('83.3 %');
    await expect(lighthouseEstimate).toContainText('$20.00');
    await expectNoSeriousViolations(page, 'estimates report');
    await shotsAtWidths(page, 'budgeting-estimates');

    // A member without money access: the reasons instead of amounts.
    const theirs = await browser.newContext({ baseURL });
    await joinAsMember(page.request, ws, theirs.request, 'Mia Member');
    const member = await theirs.newPage();
    await member.goto(`/homepage/reports/revenues?${range}`);
    await expect(member.getByTestId('money-explanation')).toContainText('Amounts are not shown to you');
    await expect(member.getByRole('table', { name: 'Revenues' })).toHaveCount(0);
    await shotsAtWidths(member, 'budgeting-revenues-member');
    await member.goto(`/homepage/reports/costs?${range}`);
    await expect(member.getByTestId('money-explanation')).toContainText(
      'Only owners and admins can see costs and margins',
    );
    await member.goto(`/homepage/reports/margin?${range}`);
    await expect(member.getByTestId('money-explanation')).toBeVisible();
    await member.goto(`/homepage/reports/billable?${range}`);
    await expect(member.getByTestId('money-hidden')).toBeVisible();
    await expect(member.getByRole('table', { name: 'Billable and invoiced amounts' })).toHaveCount(0);
    await expect(member.getByText('No time tracked matches these filters in this range.')).toBeVisible();
    await shotsAtWidths(member, 'budgeting-billable-member-empty');
    await member.goto(`/homepage/reports/estimates?${range}`);
    const theirEstimates = member.getByRole('table', { name: 'Estimates' });
    await expect(theirEstimates.getByTestId('estimate-row').filter({ hasText: 'Harbour' })).toContainText('0:00:00');
    await expect(theirEstimates.getByTestId('estimate-row').filter({ hasText: 'Lighthouse' })).toContainText('Hidden');
    await expect(member.getByTestId('money-hidden')).toBeVisible();
    await shotsAtWidths(member, 'budgeting-estimates-member');
    await theirs.close();
  });
});
