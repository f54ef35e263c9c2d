import { expect, test } from '@playwright/test';
import { approvalMessages, approvalPeriodOf, shiftDay } from '@sundial/core';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

test.describe('approvals', () => {
  test('a member submits a week, the manager rejects it with a comment, the member fixes and resubmits, the manager approves and the entries are locked', async ({
    page,
    browser,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const memberContext = await browser.newContext();
    const member = await memberContext.newPage();
    const managerContext = await browser.newContext();
    const manager = await managerContext.newPage();
    const mia = await joinAsMember(page.request, ws, member.request, 'Mia Member');
    const max = await joinAsMember(page.request, ws, manager.request, 'Max Manager');
    expect((await page.request.patch(`${ws}/members/${max.id}`, { data: { role: 'manager' } })).status()).toBe(200);
    const group = await (await page.request.post(`${ws}/groups`, { data: { name: 'Design' } })).json();
    for (const id of [mia.id, max.id]) {
      expect((await page.request.put(`${ws}/groups/${group.id}/members/${id}`)).status()).toBe(200);
    }

    // Mia's last week (UTC, her zone) has an entry.
    const lastWeekDay = shiftDay(new Date().toISOString().slice(0, 10), -7);
    const week = approvalPeriodOf(lastWeekDay, 'week', 'monday');
    const hh = (hour: number) => String(hour).padStart(2, '0');
    const entry = async (day: string, hour: number) =>
      member.request.post(`${ws}/time-entries`, {
        data: {
          start: `${day}T${hh(hour)}:00:00.000Z`,
          end: `${day}T${hh(hour + 2)}:00:00.000Z`,
          note: 'Design review',
        },
      });
    const first = await entry(week.start, 9);
    expect(first.status()).toBe(201);
    const entryId = (await first.json()).id;

    // She opens last week on her timesheet and submits it.
    await member.goto('/homepage/timesheet');
    await member.getByRole('button', { name: 'Previous week' }).click();
    const bar = member.getByTestId('period-bar');
    await expect(bar.getByTestId('period-status')).toHaveText('Not submitted');
    await bar.getByRole('button', { name: 'Submit for approval' }).click();
    await expect(bar.getByTestId('period-status')).toHaveText('Pending approval');
    await expect(bar.getByTestId('period-lock')).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Withdraw' })).toBeVisible();
    await shotsAtWidths(member, 'approvals-timesheet-submitted');

    // Max reads dates as DD.MM.YYYY on a 12-hour clock (his profile): the approvals list and the bell
    // write them so (one formatter for every screen, issue 30).
    const formats = { dateFormat: 'DD.MM.YYYY', timeFormat: '12h' };
    expect((await manager.request.patch('/api/v1/me', { data: formats })).status()).toBe(200);
    await manager.goto('/homepage/timesheet');
    await manager.getByRole('button', { name: /^Notifications/ }).click();
    await expect(manager.getByRole('dialog', { name: 'Notifications' })).toContainText(
      /· \d{2}\.\d{2}\.\d{4} \d{1,2}:\d{2} (AM|PM)/,
    );
    await manager.keyboard.press('Escape');

    // Max finds it pending under TEAM > Approvals and rejects it with a comment.
    await manager.goto('/homepage/approvals');
    await expect(manager.getByRole('heading', { level: 1, name: 'Approvals' })).toBeVisible();
    const row = manager.getByTestId('approval-row').filter({ hasText: 'Mia Member' });
    await expect(row).toContainText('2:00');
    await expect(row).toContainText(/\d{2}\.\d{2}\.\d{4}/);
    await expectNoSeriousViolations(manager, 'approvals pending');
    await shotsAtWidths(manager, 'approvals-pending');
    await row.getByRole('button', { name: 'Reject' }).click();
    const dialog = manager.getByRole('dialog', { name: 'Reject this period' });
    await dialog.getByLabel('Comment').fill('Thursday’s workshop is missing');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(dialog).toBeHidden();
    await expect(manager.getByTestId('approval-row')).toHaveCount(0);
    await manager.getByRole('tab', { name: 'Rejected' }).click();
    await expect(manager.getByTestId('approval-row').filter({ hasText: 'Mia Member' })).toContainText(
      'Thursday’s workshop is missing',
    );
    await shotsAtWidths(manager, 'approvals-rejected');

    // Mia sees why, adds the missing time (the week is open again) and resubmits.
    await member.reload();
    await member.getByRole('button', { name: 'Previous week' }).click();
    await expect(bar.getByTestId('period-status')).toHaveText('Rejected');
    await expect(bar.getByTestId('period-rejection')).toContainText('Thursday’s workshop is missing');
    await shotsAtWidths(member, 'approvals-timesheet-rejected');
    expect((await entry(shiftDay(week.start, 3), 13)).status()).toBe(201);
    await bar.getByRole('button', { name: 'Submit for approval' }).click();
    await expect(bar.getByTestId('period-status')).toHaveText('Pending approval');

    // Max approves.
    await manager.getByRole('tab', { name: 'Pending' }).click();
    const again = manager.getByTestId('approval-row').filter({ hasText: 'Mia Member' });
    await expect(again).toContainText('4:00');
    await again.getByRole('button', { name: 'Approve' }).click();
    await expect(manager.getByTestId('approval-row')).toHaveCount(0);
    await manager.getByRole('tab', { name: 'Approved' }).click();
    await expect(manager.getByTestId('approval-row').filter({ hasText: 'Mia Member' })).toContainText('Approved');
    await shotsAtWidths(manager, 'approvals-approved');

    // The week is locked: the timesheet says so, and the API refuses a change, even the owner's.
    await member.reload();
    await member.getByRole('button', { name: 'Previous week' }).click();
    await expect(bar.getByTestId('period-status')).toHaveText('Approved');
    await expect(bar.getByTestId('period-lock')).toBeVisible();
    await expect(bar.getByRole('button', { name: 'Submit for approval' })).toHaveCount(0);
    await shotsAtWidths(member, 'approvals-timesheet-approved');
    const locked = approvalMessages.approvedLock(week.start, week.end);
    for (const request of [member.request, page.request]) {
      const refused = await request.patch(`${ws}/time-entries/${entryId}`, { data: { note: 'Changed' } });
      expect(refused.status()).toBe(409);
      expect((await refused.json()).error).toEqual({ code: 'time_locked', message: locked });
    }

    // The owner sets a lock date (payroll closed) from the Approvals page's settings.
    await page.goto('/homepage/approvals');
    await page.getByRole('button', { name: 'Approval settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Approvals and lock date' });
    await settings.getByLabel('Lock time before').fill(week.start);
    await shotsAtWidths(page, 'approvals-settings');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings).toBeHidden();
    await expect(page.getByText(`Lock time before ${week.start}`)).toBeVisible();
    const before = await member.request.post(`${ws}/time-entries`, {
      data: { start: `${shiftDay(week.start, -1)}T09:00:00.000Z`, duration: 600 },
    });
    expect(before.status()).toBe(409);
    expect((await before.json()).error.message).toBe(approvalMessages.lockDate(week.start));
    await memberContext.close();
    await managerContext.close();
  });

  test('an approved week shows read-only with its reason in the week grid and the day list, opened from its link', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const day = shiftDay(new Date().toISOString().slice(0, 10), -7);
    const week = approvalPeriodOf(day, 'week', 'monday');
    const created = await page.request.post(`${ws}/time-entries`, {
      data: { start: `${week.start}T09:00:00.000Z`, end: `${week.start}T10:30:00.000Z`, note: 'Design review' },
    });
    expect(created.status()).toBe(201);
    const submitted = await page.request.post(`${ws}/approvals`, { data: { day: week.start } });
    expect(submitted.status()).toBe(201);
    const approved = await page.request.post(`${ws}/approvals/${(await submitted.json()).id}/approve`, { data: {} });
    expect(approved.status()).toBe(200);

    // The link a notification carries opens that week.
    await page.goto(`/homepage/timesheet?day=${week.start}`);
    await page.getByLabel('View').getByText('Week', { exact: true }).click();
    const cell = page.getByRole('textbox', { name: new RegExp(`on ${week.start}$`) });
    await expect(cell).toHaveValue('1:30:00');
    await expect(cell).toBeDisabled();
    const row = page.getByTestId('grid-row').first();
    await expect(row.getByRole('img', { name: 'Approved week' }).first()).toBeVisible();
    // An empty day of the approved week is closed too.
    await expect(page.getByRole('textbox', { name: new RegExp(`on ${shiftDay(week.start, 2)}$`) })).toBeDisabled();
    await row.getByRole('img', { name: 'Approved week' }).first().hover();
    await expect(page.getByRole('tooltip')).toContainText(approvalMessages.approvedLock(week.start, week.end));

    await page.getByLabel('View').getByText('Day list', { exact: true }).click();
    const entry = page.getByTestId('entry-row');
    await expect(entry.getByRole('img', { name: 'Approved week' })).toBeVisible();
    await expect(entry.getByRole('textbox', { name: 'Entry duration' })).toBeDisabled();
    await expect(entry.getByRole('textbox', { name: 'Entry note' })).toHaveAttribute('readonly', '');
    await expect(entry.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });
});
