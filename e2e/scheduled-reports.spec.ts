import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expectNoSeriousViolations } from './support/axe';
import { waitForMail } from './support/mail';
import { shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { joinAsMember, newEmail, signUpOverHttp, workspaceApi } from './support/users';

test.describe('scheduled reports', () => {
  test('the owner schedules a saved report weekly, sends it now, and it arrives over SMTP with the report as a CSV', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const atlas = await (await page.request.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    // Three and a half hours on Atlas, a day before the report's range ends.
    const start = new Date(Date.now() - 26 * 3_600_000);
    for (const [offset, duration] of [
      [0, '2h'],
      [3, '1h30m'],
    ] as const) {
      const r = await page.request.post(`${ws}/time-entries`, {
        data: { start: new Date(start.getTime() + offset * 3_600_000).toISOString(), duration, projectId: atlas.id },
      });
      expect(r.status()).toBe(201);
    }
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const from = day(new Date(start.getTime() - 3 * 86_400_000));
    const to = day(new Date());
    const query = `preset=custom&from=${from}&to=${to}&timeZone=UTC&groupBy=project&measures=trackedSeconds`;
    const saved = await page.request.post(`${ws}/saved-reports`, {
      data: { name: 'Atlas weekly', kind: 'summary', query },
    });
    expect(saved.status()).toBe(201);

    await page.goto('/homepage/reports/saved');
    await page
      .getByRole('group', { name: 'Actions for Atlas weekly' })
      .getByRole('button', { name: 'Schedule e-mail' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'E-mail "Atlas weekly" on a schedule' });
    await expect(dialog.getByRole('radio', { name: 'Weekly' })).toBeChecked();
    await dialog.getByRole('combobox', { name: 'Day of the week' }).click();
    await page.getByRole('option', { name: 'Friday' }).click();
    await dialog.getByRole('combobox', { name: 'Hour' }).click();
    await page.getByRole('option', { name: '07:00' }).click();
    await dialog.getByText('CSV', { exact: true }).click();
    const boss = newEmail('boss');
    const emails = dialog.getByRole('combobox', { name: 'Other e-mail addresses' });
    await emails.fill('not-an-address');
    await emails.press('Enter');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    await expect(dialog.getByText('“not-an-address” is not an e-mail address.')).toBeVisible();
    await shotsAtWidths(page, 'scheduled-reports-error');
    await emails.press('Backspace');
    await emails.fill(boss);
    await emails.press('Enter');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    await expect(page.getByText('Schedule saved.')).toBeVisible();
    const state = dialog.getByRole('status', { name: 'Schedule' });
    await expect(state.getByText('Active', { exact: true })).toBeVisible();
    await expect(state.getByText(/Next send: Fri.*07:00/)).toBeVisible();
    await expect(state.getByText('Not sent yet')).toBeVisible();
    await shotsAtWidths(page, 'scheduled-reports-dialog');
    await expectNoSeriousViolations(page, 'schedule dialog');

    // Send now: the real job runner sends it through the real SMTP catcher.
    await dialog.getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByText('Sending now: it arrives within a minute.')).toBeVisible();
    const mail = await waitForMail(boss, 20_000);
    expect(mail.subject).toBe(`Atlas weekly: ${from} – ${to}`);
    const [file] = mail.attachments;
    expect(file?.filename).toBe(`atlas-weekly-${from}-${to}.csv`);
    expect(file?.contentType).toBe('text/csv');
    const rows: string[][] = parse(Buffer.from(file?.base64 ?? '', 'base64'), { bom: true });
    expect(rows[0]).toEqual(['Project', 'Tracked', 'Tracked (hours)']);
    expect(rows[1]).toEqual(['Atlas', '3:30:00', '3.50']);
    expect(rows[rows.length - 1]).toEqual(['Total', '3:30:00', '3.50']);

    // The dialog shows the send; pause, resume and delete.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page
      .getByRole('group', { name: 'Actions for Atlas weekly' })
      .getByRole('button', { name: 'Schedule e-mail' })
      .click();
    await expect(state.getByText(/Last sent: /)).toBeVisible();
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await expect(state.getByText('Paused', { exact: true })).toBeVisible();
    await expect(state.getByText(/Next send/)).toBeHidden();
    await shotsAtWidths(page, 'scheduled-reports-paused');
    await dialog.getByRole('button', { name: 'Resume' }).click();
    await expect(state.getByText('Active', { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete schedule' }).click();
    await expect(page.getByText('Schedule deleted.')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  test('a send refused by the permissions of the moment is shown on the schedule, nothing mailed', async ({
    browser,
    baseURL,
  }) => {
    const ownerContext = await browser.newContext({ baseURL });
    await signUpOverHttp(ownerContext.request);
    const ws = await workspaceApi(ownerContext.request);
    const memberContext = await browser.newContext({ baseURL });
    await joinAsMember(ownerContext.request, ws, memberContext.request, 'Mo Member');
    const page = await memberContext.newPage();
    // A member's report asking for costs, which members may not see: the send is refused, not mailed.
    const saved = await page.request.post(`${ws}/saved-reports`, {
      data: {
        name: 'Costs',
        kind: 'summary',
        query: 'preset=lastWeek&groupBy=project&measures=trackedSeconds,costAmount',
      },
    });
    expect(saved.status()).toBe(201);
    const id = (await saved.json()).id;
    const reader = newEmail('reader');
    const schedule = `${ws}/saved-reports/${id}/schedule`;
    const put = await page.request.put(schedule, {
      data: { frequency: 'monthly', monthDay: 1, hour: 9, format: 'xlsx', recipientEmails: [reader] },
    });
    expect(put.status()).toBe(200);
    expect((await page.request.post(`${schedule}/send`)).status()).toBe(202);
    await expect
      .poll(async () => (await (await page.request.get(schedule)).json()).schedule.state, { timeout: allow(20_000) })
      .toBe('failed');

    await page.goto('/homepage/reports/saved');
    await page
      .getByRole('group', { name: 'Actions for Costs' })
      .getByRole('button', { name: 'Schedule e-mail' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'E-mail "Costs" on a schedule' });
    const state = dialog.getByRole('status', { name: 'Schedule' });
    await expect(state.getByText('Failed', { exact: true })).toBeVisible();
    await expect(state.getByText('The last send failed')).toBeVisible();
    await expect(state.getByText(/^Not sent: /)).toBeVisible();
    await expect(dialog.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    await shotsAtWidths(page, 'scheduled-reports-failed');
    await expect(dialog.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(waitForMail(reader, 1000)).rejects.toThrow();
  });
});
