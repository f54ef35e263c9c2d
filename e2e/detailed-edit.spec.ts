import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

/** Monday 00:00 UTC of last week (entries may not lie in the future). */
function lastMonday(): Date {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7) - 7);
  return day;
}

const ok = async (
  response: Promise<{ status: () => number; json: () => Promise<unknown>; text: () => Promise<string> }>,
) => {
  const r = await response;
  expect(r.status(), await r.text()).toBeLessThan(300);
  return r.json() as Promise<{ id: string }>;
};

test('a manager edits a Detailed row in place and the totals and the timesheet agree; a member sees only their own rows; two rows marked invoiced filter as invoiced', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(allow(180_000));
  const owner = page.request;
  await signUpOverHttp(owner);
  const ws = await workspaceApi(owner);
  const monday = lastMonday();
  const day = monday.toISOString().slice(0, 10);
  const at = (h: number, m = 0) => new Date(monday.getTime() + (h * 60 + m) * 60_000).toISOString();
  const atlas = await ok(owner.post(`${ws}/projects`, { data: { name: 'Atlas', isPublic: true } }));

  // A manager and Mia in the manager's group; the owner's own time stays out of the manager's reach.
  const managing = await browser.newContext({ baseURL });
  const manager = await joinAsMember(owner, ws, managing.request, 'Max Manager');
  await ok(owner.patch(`${ws}/members/${manager.id}`, { data: { role: 'manager' } }));
  const hers = await browser.newContext({ baseURL });
  const mia = await joinAsMember(owner, ws, hers.request, 'Mia Member');
  const crew = await ok(owner.post(`${ws}/groups`, { data: { name: 'Crew' } }));
  for (const id of [manager.id, mia.id]) await ok(owner.put(`${ws}/groups/${crew.id}/members/${id}`));
  // Mia bills $80.00 an hour (and costs $30.00, which the manager may not see).
  await ok(
    owner.post(`${ws}/rates`, {
      data: { level: 'member', userId: mia.id, effectiveFrom: '2020-01-01', billableCents: 80_00, costCents: 30_00 },
    }),
  );
  const track = (as: APIRequestContext, start: string, end: string, note: string, billable = false) =>
    ok(as.post(`${ws}/time-entries`, { data: { start, end, note, projectId: atlas.id, billable } }));
  const draft = await track(hers.request, at(9), at(9, 30), 'Draft proposal', true);
  const call = await track(hers.request, at(10), at(11), 'Client call', true);
  await track(managing.request, at(12), at(12, 45), 'Team sync');
  await track(owner, at(13), at(14), 'Owner planning');

  const kinds = await ok(owner.post(`${ws}/tag-lists`, { data: { name: 'Kinds' } }));
  await ok(owner.post(`${ws}/tag-lists/${kinds.id}/tags`, { data: { name: 'Review' } }));
  const range = `preset=custom&from=${day}&to=${day}`;
  const m = await managing.newPage();
  await m.setViewportSize({ width: 1440, height: 900 });
  await m.goto(`/homepage/reports/detailed?${range}`);
  const rows = m.getByTestId('detailed-row');
  await expect(rows).toHaveCount(3);
  await expect(m.getByTestId('detailed-table')).not.toContainText('Owner planning');
  const total = m.getByTestId('detailed-total-trackedSeconds');
  await expect(total).toHaveText('2:15:00');
  const amount = m.getByTestId('detailed-total-billableAmount');
  await expect(amount).toHaveText('$120.00');
  await shotsAtWidths(m, 'detailed-edit-full');

  // Description: Escape gives up, Enter saves.
  // Newest first: the draft (09:00) is the last row, and stays there whatever its note and length.
  const draftRow = rows.nth(2);
  await expect(draftRow).toContainText('Draft proposal');
  await draftRow.getByRole('button', { name: 'Description: Draft proposal' }).click();
  const description = draftRow.getByRole('textbox', { name: 'Description' });
  await expect(description).toBeFocused();
  await description.fill('Thrown away');
  await description.press('Escape');
  await expect(draftRow.getByRole('button', { name: 'Description: Draft proposal' })).toBeFocused();
  await draftRow.getByRole('button', { name: 'Description: Draft proposal' }).press('Enter');
  await description.fill('Final proposal');
  await description.press('Enter');
  const edited = draftRow;
  await expect(edited).toContainText('Final proposal');

  // Duration: the row and the totals change; the server stored it through the timesheet's write.
  await edited.getByRole('button', { name: 'Duration: 0:30:00' }).click();
  await edited.getByRole('textbox', { name: 'Duration' }).fill('1:15');
  await shotsAtWidths(m, 'detailed-edit-editing');
  await edited.getByRole('textbox', { name: 'Duration' }).press('Enter');
  await expect(edited.getByRole('button', { name: 'Duration: 1:15:00' })).toBeVisible();
  await expect(total).toHaveText('3:00:00');
  // The row's amount and the report's come back from the server at Mia's rate.
  await expect(edited.getByRole('cell', { name: '$100.00' })).toBeVisible();
  await expect(amount).toHaveText('$180.00');
  const stored = await (await managing.request.get(`${ws}/time-entries/${draft.id}`)).json();
  expect([stored.note, stored.durationSeconds]).toEqual(['Final proposal', 4500]);
  await expectNoSeriousViolations(m, 'detailed after an edit');

  // Tags: chosen in the timesheet's tag picker, saved on leaving it.
  const callRow = rows.nth(1);
  await callRow.getByRole('button', { name: 'Change the tags of Client call' }).click();
  await m.getByRole('option', { name: 'Review' }).click();
  await m.keyboard.press('Tab');
  await expect(callRow.getByLabel('Tags', { exact: true })).toHaveText('Review');
  // The row shows the tag before the server has it (optimistic): wait for the stored entry.
  await expect
    .poll(async () => (await (await managing.request.get(`${ws}/time-entries/${call.id}`)).json()).tagIds)
    .toHaveLength(1);

  // A change the server refuses is shown, then taken back with the reason.
  await edited.getByRole('button', { name: 'Duration: 1:15:00' }).click();
  await edited.getByRole('textbox', { name: 'Duration' }).fill('200:00');
  await edited.getByRole('textbox', { name: 'Duration' }).press('Enter');
  await expect(m.getByRole('alert').filter({ hasText: 'Not saved: your change was undone' })).toBeVisible();
  await expect(edited.getByRole('button', { name: 'Duration: 1:15:00' })).toBeVisible();
  await expect(total).toHaveText('3:00:00');
  await shotsAtWidths(m, 'detailed-edit-refused');

  // The timesheet agrees: Mia's Monday is her two entries, as the Detailed report of her time says.
  await m.goto(`/homepage/reports/detailed?${range}&users=${mia.id}`);
  await expect(rows).toHaveCount(2);
  await expect(total).toHaveText('2:15:00');
  await m.goto('/homepage/timesheet');
  await m.getByRole('combobox', { name: 'Timesheet of' }).click();
  await m.getByRole('option', { name: 'Mia Member' }).click();
  await m.getByRole('button', { name: 'Previous week' }).click();
  await expect(m.getByLabel(`Total of ${day}`)).toHaveText('2:15:00');
  await expect(m.getByRole('textbox', { name: 'Entry note' }).and(m.locator('[value="Final proposal"]'))).toBeVisible();

  // Two rows marked invoiced, then only the invoiced ones.
  await m.goto(`/homepage/reports/detailed?${range}`);
  await expect(rows).toHaveCount(3);
  await rows
    .filter({ hasText: 'Final proposal' })
    .getByRole('checkbox', { name: /^Select/ })
    .check();
  await rows
    .filter({ hasText: 'Client call' })
    .getByRole('checkbox', { name: /^Select/ })
    .check();
  await m.getByRole('button', { name: 'Mark as invoiced' }).click();
  await expect(m.getByText('2 entries marked as invoiced.')).toBeVisible();
  await expect(rows.filter({ hasText: 'Not invoiced' })).toHaveCount(1);
  await m.getByRole('button', { name: 'More filters' }).click();
  // Opened until its options show: under load the page re-renders after the marking's refetch and a
  // first click can land on a select that closes again (seen once in CI, the option never came).
  await expect(async () => {
    await m.getByRole('combobox', { name: 'Invoiced' }).click();
    await m.getByRole('option', { name: 'Yes' }).click({ timeout: 3_000 });
  }).toPass({ timeout: allow(30_000) });
  await expect(m).toHaveURL(/invoiced=true/);
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Not invoiced' })).toHaveCount(0);
  await expect(total).toHaveText('2:15:00');
  await expect(amount).toHaveText('$180.00');
  await m.keyboard.press('Escape');
  await shotsAtWidths(m, 'detailed-edit-invoiced');
  const invoicedIds = (
    await (await managing.request.get(`${ws}/reports/detailed?${range}&invoiced=true`)).json()
  ).items.map((e: { id: string }) => e.id);
  expect(invoicedIds.sort()).toEqual([draft.id, call.id].sort());

  // The manager reads Mia's rate history, read-only and without her cost rate.
  await m.goto('/homepage/user');
  await m.getByRole('button', { name: `Actions for ${mia.email}` }).click();
  await m.getByRole('menuitem', { name: 'Rates' }).click();
  const rates = m.getByRole('dialog', { name: 'Rates of Mia Member' });
  const history = rates.getByRole('table', { name: 'Mia Member rate history' });
  await expect(history.getByRole('row').nth(1)).toContainText('$80.00/h');
  await expect(history.getByRole('columnheader', { name: 'Cost rate' })).toHaveCount(0);
  await expect(
    rates.getByText('Read-only; cost rates are confidential: owners and admins change rates.'),
  ).toBeVisible();
  await expect(rates.getByRole('button', { name: 'Add rate' })).toHaveCount(0);
  await shotsAtWidths(m, 'detailed-edit-rates-read-only');
  await m.keyboard.press('Escape');

  // Mia: her own rows only, which she may edit; nobody else's.
  const her: Page = await hers.newPage();
  await her.setViewportSize({ width: 1440, height: 900 });
  await her.goto(`/homepage/reports/detailed?${range}`);
  const herRows = her.getByTestId('detailed-row');
  await expect(herRows).toHaveCount(2);
  await expect(her.getByTestId('detailed-table')).not.toContainText('Team sync');
  await expect(her.getByTestId('detailed-table')).not.toContainText('Owner planning');
  await expect(
    herRows.filter({ hasText: 'Client call' }).getByRole('button', { name: 'Description: Client call' }),
  ).toBeVisible();
  await shotsAtWidths(her, 'detailed-edit-member');

  // An empty range says so.
  await her.goto('/homepage/reports/detailed?preset=lastYear');
  await expect(her.getByText('No time tracked matches these filters in this range.')).toBeVisible();
  await shotsAtWidths(her, 'detailed-edit-empty');
  await managing.close();
  await hers.close();
});
