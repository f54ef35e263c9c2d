import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

test.describe('rates', () => {
  test('an admin sets a workspace and a project rate, sees an entry’s amount, changes the rate, re-applies it with a preview; a member sees no money', async ({
    page,
    browser,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const project = await (
      await page.request.post(`${ws}/projects`, { data: { name: 'Harbour', isPublic: true } })
    ).json();

    // The workspace's rate, from the Users screen's "Rates and currency".
    await page.goto('/homepage/user');
    await page.getByRole('button', { name: 'Rates and currency' }).click();
    const settings = page.getByRole('dialog', { name: 'Rates and currency' });
    await expect(settings.getByText('No rate at this level yet')).toBeVisible();
    await settings.getByLabel('From').fill('2026-01-01');
    await settings.getByLabel('Billable rate (USD/h)').fill('100');
    await settings.getByLabel('Cost rate (USD/h)').fill('40');
    await settings.getByRole('button', { name: 'Add rate' }).click();
    const workspaceHistory = settings.getByRole('table', { name: 'Workspace rate history' });
    await expect(workspaceHistory).toContainText('$100.00/h');
    await expect(workspaceHistory).toContainText('$40.00/h');
    await expectNoSeriousViolations(page, 'rates and currency dialog');
    await shotsAtWidths(page, 'rates-workspace');
    await page.keyboard.press('Escape');

    // The project's own billable rate, in its edit panel.
    await page.goto('/homepage/projects');
    await page.getByTestId('project-row').filter({ hasText: 'Harbour' }).click();
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    const rates = pane.getByRole('region', { name: 'Project rates' });
    await rates.getByLabel('From').fill('2026-01-01');
    await rates.getByLabel('Billable rate (USD/h)').fill('150');
    await rates.getByRole('button', { name: 'Add rate' }).click();
    await expect(rates.getByRole('table', { name: 'Project rate history' })).toContainText('$150.00/h');
    await rates.scrollIntoViewIfNeeded();
    await expectNoSeriousViolations(page, 'project rates section');
    await shotsAtWidths(page, 'rates-project');
    // The pane scrolls on its own: its Rates section, as a person scrolled down sees it.
    const shots = process.env.E2E_SHOTS_DIR;
    if (shots) await rates.screenshot({ path: `${shots}/rates-project-section.png` });

    // An entry takes the rates in force at its start: the project's billable, the workspace's cost.
    // 40 minutes ago, but not before midnight UTC: an entry across midnight shows as two rows.
    const midnight = new Date().setUTCHours(0, 0, 0, 0);
    const start = new Date(Math.max(Date.now() - 40 * 60_000, midnight)).toISOString();
    const entry = await (
      await page.request.post(`${ws}/time-entries`, {
        data: { start, duration: 1800, projectId: project.id, billable: true },
      })
    ).json();
    expect([entry.billableAmountCents, entry.costAmountCents]).toEqual([7500, 2000]);
    await page.goto('/homepage/timesheet');
    const row = page.getByTestId('entry-row').first();
    await expect(row.getByTestId('entry-amount')).toHaveText('$75.00 · cost $20.00');

    // A new project rate from today: the saved entry keeps its amount.
    await page.goto('/homepage/projects');
    await page.getByTestId('project-row').filter({ hasText: 'Harbour' }).click();
    await rates.getByLabel('Billable rate (USD/h)').fill('200');
    await rates.getByRole('button', { name: 'Add rate' }).click();
    await expect(rates.getByRole('table', { name: 'Project rate history' }).getByRole('row')).toHaveCount(3);
    await page.goto('/homepage/timesheet');
    await expect(row.getByTestId('entry-amount')).toHaveText('$75.00 · cost $20.00');

    // Time already on a client invoice keeps its rates: the preview says it is left out.
    const client = await (await page.request.post(`${ws}/clients`, { data: { name: 'Harbour Co' } })).json();
    await page.request.patch(`${ws}/projects/${project.id}`, { data: { clientId: client.id } });
    const invoiced = await page.request.post(`${ws}/time-entries`, {
      data: { start: '2026-02-02T10:00:00.000Z', duration: 3600, projectId: project.id, billable: true },
    });
    expect(invoiced.status()).toBe(201);
    const draft = await page.request.post(`${ws}/client-invoices`, {
      data: { clientId: client.id, from: '2026-02-01', to: '2026-02-28', groupBy: 'entry' },
    });
    expect(draft.status(), await draft.text()).toBe(201);
    // A rate from February on would change that entry's rate, were it not invoiced.
    const february = await page.request.post(`${ws}/rates`, {
      data: { level: 'project', projectId: project.id, effectiveFrom: '2026-02-01', billableCents: 175_00 },
    });
    expect(february.status(), await february.text()).toBe(201);

    // Re-applied to the range, after a preview of what changes.
    await page.goto('/homepage/projects');
    await page.getByTestId('project-row').filter({ hasText: 'Harbour' }).click();
    await rates.getByRole('button', { name: 'Re-apply to past entries…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Re-apply rates: Project' });
    await dialog.getByLabel('From').fill('2026-01-01');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByRole('status')).toContainText('1 entry changes: billable $75.00 → $100.00');
    await expect(dialog.getByRole('table', { name: 'Entries that change' })).toContainText('$150.00 → $200.00');
    await expect(dialog.getByRole('note')).toHaveText(
      'Left out, keeping their rates: 1 entry on a client invoice (void the invoice or delete the draft first).',
    );
    await expectNoSeriousViolations(page, 're-apply preview');
    await shotsAtWidths(page, 'rates-reapply');
    await dialog.getByRole('button', { name: 'Apply to 1 entry' }).click();
    await expect(dialog).toBeHidden();
    await page.goto('/homepage/timesheet');
    await expect(row.getByTestId('entry-amount')).toHaveText('$100.00 · cost $20.00');
    await shotsAtWidths(page, 'rates-admin-timesheet');

    // A member tracks time on the same project and sees no rate, amount or cost of it.
    const theirs = await browser.newContext();
    const member = await theirs.newPage();
    await joinAsMember(page.request, ws, member.request, 'Mia Member');
    const own = await (
      await member.request.post(`${ws}/time-entries`, {
        data: { start, duration: 1800, projectId: project.id, billable: true },
      })
    ).json();
    expect([own.billableRateCents, own.costRateCents, own.costAmountCents]).toEqual([null, null, null]);
    const seenByOwner = await (await page.request.get(`${ws}/time-entries/${own.id}`)).json();
    expect([seenByOwner.billableRateCents, seenByOwner.costRateCents]).toEqual([20000, 4000]);
    await member.goto('/homepage/timesheet');
    await expect(member.getByTestId('entry-row')).toHaveCount(1);
    await expect(member.getByTestId('entry-amount')).toHaveCount(0);
    await expect(member.getByRole('button', { name: 'Rates and currency' })).toHaveCount(0);
    await shotsAtWidths(member, 'rates-member-timesheet');
    await theirs.close();
  });
});
