import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

test.describe('saved reports', () => {
  test('a manager saves a Summary filtered by a project, reopens it, shares it by a public link that a signed-out reader opens, and revokes it', async ({
    browser,
    baseURL,
  }) => {
    // Many pages and several axe scans: 59.7 s measured on a quiet machine, past 60 s under CI load (two journeys at once).
    test.setTimeout(allow(120_000));
    // The owner sets the workspace up; the manager is a member made manager.
    const ownerContext = await browser.newContext({ baseURL });
    const owner = ownerContext.request;
    await signUpOverHttp(owner);
    const ws = await workspaceApi(owner);
    const atlas = await (await owner.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    const beacon = await (await owner.post(`${ws}/projects`, { data: { name: 'Beacon' } })).json();
    const managerContext = await browser.newContext({ baseURL });
    const manager = await joinAsMember(owner, ws, managerContext.request, 'Maya Manager');
    expect((await owner.patch(`${ws}/members/${manager.id}`, { data: { role: 'manager' } })).status()).toBe(200);
    // Time of the owner's, which the manager does not see, on Atlas too.
    const start = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    await owner.post(`${ws}/time-entries`, { data: { start: start(5), duration: '3h', projectId: atlas.id } });
    const page = await managerContext.newPage();
    for (const [hoursAgo, duration, projectId] of [
      [4, '1h30m', atlas.id],
      [2, '45m', atlas.id],
      [1, '1h', beacon.id],
    ] as const) {
      const r = await page.request.post(`${ws}/time-entries`, {
        data: { start: start(hoursAgo), duration, projectId, note: 'Maya works' },
      });
      expect(r.status()).toBe(201);
    }

    // Nothing saved yet: the list says how to start.
    await page.goto('/homepage/reports/saved');
    await expect(page.getByText('No saved reports yet')).toBeVisible();
    await shotsAtWidths(page, 'saved-reports-empty');

    // The Summary, filtered by Atlas: the manager's own 2:15:00.
    await page.goto('/homepage/reports/summary');
    await page.getByRole('combobox', { name: 'Projects' }).click();
    await page.getByRole('option', { name: 'Atlas' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(new RegExp(`projects=${atlas.id}`));
    const total = page.getByTestId('summary-total').getByRole('cell').first();
    await expect(total).toHaveText('2:15:00');
    const filteredUrl = page.url();

    // Save it.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save this report' });
    await saveDialog.getByRole('textbox', { name: 'Name' }).fill('Atlas this week');
    await shotsAtWidths(page, 'saved-reports-save-dialog');
    await saveDialog.getByRole('button', { name: 'Save report' }).click();
    await expect(page.getByText('Saved "Atlas this week".')).toBeVisible();
    await expect(saveDialog).toBeHidden();

    // Reopen it from the Reports menu's Saved reports.
    await page.goto('/homepage/reports/summary');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Reports' }).hover();
    await page.getByRole('menu', { name: 'Reports' }).getByRole('menuitem', { name: 'Saved reports' }).click();
    await expect(page).toHaveURL(/\/homepage\/reports\/saved$/);
    await page.mouse.move(900, 10);
    await expect(page.getByRole('menu', { name: 'Reports' })).toBeHidden();
    const list = page.getByRole('table', { name: 'Saved reports' });
    await expect(list.getByRole('row', { name: /Atlas this week/ })).toContainText('Only me');
    await shotsAtWidths(page, 'saved-reports-list');
    await expectNoSeriousViolations(page, 'saved reports list');
    await list.getByRole('link', { name: 'Open Atlas this week' }).click();
    await expect(page).toHaveURL(new RegExp(`/homepage/reports/summary\\?.*projects=${atlas.id}`));
    expect(new URL(page.url()).search).toBe(new URL(filteredUrl).search);
    await expect(total).toHaveText('2:15:00');

    // Share it by a public link.
    await page.goBack();
    await list.getByRole('button', { name: 'Share link' }).click();
    const shareDialog = page.getByRole('dialog', { name: 'Share "Atlas this week" by link' });
    // A manager may not show costs on a link: the choice is not offered.
    await expect(shareDialog.getByRole('checkbox', { name: /costs/ })).toHaveCount(0);
    await shareDialog.getByRole('button', { name: 'Create link' }).click();
    const linkBox = shareDialog.getByRole('textbox', { name: 'Public link' });
    await expect(linkBox).toHaveValue(/\/share\/[0-9a-f-]{36}#[\w-]{40,}$/);
    const link = await linkBox.inputValue();
    const secret = link.split('#')[1] ?? '';
    await expect(shareDialog.getByRole('list', { name: 'Links' }).getByRole('listitem')).toContainText('Active');
    await shotsAtWidths(page, 'saved-reports-share-dialog');
    await expectNoSeriousViolations(page, 'share dialog');

    // A reader who is not signed in opens it and sees the same total; the secret never goes in a URL.
    const reader = await browser.newContext({ baseURL });
    const readerPage = await reader.newPage();
    const urls: string[] = [];
    readerPage.on('request', (request) => urls.push(request.url()));
    const policy: string[] = [];
    readerPage.on('console', (message) => {
      if (/content security policy/i.test(message.text())) policy.push(message.text());
    });
    const opened = await readerPage.goto(link);
    expect(opened?.headers()['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'/);
    await expect(readerPage.getByRole('heading', { name: 'Atlas this week', level: 1 })).toBeVisible();
    await expect(readerPage.getByTestId('summary-total').getByRole('cell').first()).toHaveText('2:15:00');
    await expect(readerPage.getByTestId('summary-table').getByRole('rowheader', { name: 'Beacon' })).toHaveCount(0);
    expect(urls.filter((u) => u.includes(secret))).toEqual([]);
    expect(policy).toEqual([]);
    await shotsAtWidths(readerPage, 'saved-reports-public');
    await expectNoSeriousViolations(readerPage, 'public report');

    // Revoked: the link now says so.
    await shareDialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText('Link revoked: it no longer opens the report.')).toBeVisible();
    await expect(shareDialog.getByRole('list', { name: 'Links' }).getByRole('listitem')).toContainText('Revoked');
    await readerPage.reload();
    await expect(readerPage.getByRole('heading', { name: 'This link has expired or was revoked' })).toBeVisible();
    await expect(readerPage.getByTestId('summary-total')).toHaveCount(0);
    await shotsAtWidths(readerPage, 'saved-reports-revoked');
    await expectNoSeriousViolations(readerPage, 'revoked link');

    await reader.close();
    await managerContext.close();
    await ownerContext.close();
  });
});
