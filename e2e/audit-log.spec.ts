import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi, workspacePoster } from './support/users';

test.describe('audit log', () => {
  test('an owner reads what happened, filters it to one kind and one object, and finds the chain intact; a member is not shown it', async ({
    page,
    browser,
    baseURL,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const post = workspacePoster(page.request, ws);
    const harbour = (await post('/projects', { name: 'Harbour' })).id as string;
    await page.request.patch(`${ws}/projects/${harbour}`, { data: { name: 'Harbour bridge' } });
    await post('/clients', { name: 'Port authority' });

    await page.goto('/homepage/audit-log');
    const rows = page.getByTestId('audit-entry');
    await expect(rows.first()).toContainText('Client created');
    const updated = rows.filter({ hasText: 'Project updated' });
    await expect(updated).toHaveCount(1);
    // What the edit changed, before and after, and where the request came from.
    await expect(updated).toContainText('name: Harbour → Harbour bridge');
    await expect(updated).toContainText(/127\.0\.0\.1|::1/);
    await expect(rows.filter({ hasText: 'Project created' })).toHaveCount(1);
    await shotsAtWidths(page, 'audit-log');
    await expectNoSeriousViolations(page, 'audit log');

    // One kind of action.
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Projects' }).click();
    await expect(rows.filter({ hasText: 'Client created' })).toHaveCount(0);
    await expect(rows).toHaveCount(2);
    await expect(page).toHaveURL(/action=project\./);
    // The CSV holds what the filters show.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d\d-\d\d\.csv$/);
    const csv = readFileSync((await file.path()) ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toBe('Time (UTC),Person,E-mail,API key,IP address,Action,Object,Details,Sealed as,Record');
    expect(csv.slice(1).map((line) => line.split(',')[5])).toEqual(['project.updated', 'project.created']);

    // One object's history, from its row.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await rows.filter({ hasText: 'Project updated' }).getByRole('button', { name: 'History' }).click();
    await expect(page).toHaveURL(new RegExp(`subjectId=${harbour}`));
    await expect(rows).toHaveCount(2);
    await expect(page.getByText('One object’s history')).toBeVisible();

    // The project's own screen leads to the same history.
    await page.goto('/homepage/projects');
    const row = page.getByTestId('project-row').filter({ hasText: 'Harbour bridge' });
    await row.hover();
    await row.getByRole('button', { name: 'Actions for Harbour bridge' }).click();
    await page.getByRole('menuitem', { name: 'History' }).click();
    await expect(page).toHaveURL(new RegExp(`/homepage/audit-log\\?subjectId=${harbour}`));
    await expect(rows).toHaveCount(2);

    // A client's history, from the clients list.
    await page.goto('/homepage/projects');
    await page.getByRole('button', { name: 'Clients', exact: true }).click();
    await page.getByRole('link', { name: 'History of client Port authority' }).click();
    await expect(page).toHaveURL(/\/homepage\/audit-log\?subjectId=/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Client created');

    // The owner keeps records for a year: the change is itself recorded.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('combobox', { name: 'Keep records' }).click();
    await page.getByRole('option', { name: '1 year' }).click();
    await expect(rows.first()).toContainText('Audit settings updated');
    await expect(rows.first()).toContainText('retention days: (none) → 365');

    // The chain: sealed on demand, intact.
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Intact' })).toContainText(
      /The log is intact: \d+ sealed records? checked\./,
    );

    // A member has no Audit log in the sidebar and is told so on the page.
    const memberContext = await browser.newContext({ baseURL });
    const member = await memberContext.newPage();
    await joinAsMember(page.request, ws, member.request, 'Mo Member');
    await member.goto('/homepage/audit-log');
    await expect(member.getByText('The audit log is for the workspace’s owners and administrators.')).toBeVisible();
    await expect(member.getByRole('navigation').getByRole('link', { name: 'Audit log' })).toHaveCount(0);
    await memberContext.close();
  });
});
