import { type APIRequestContext, expect, test } from '@playwright/test';
import { shot } from './support/shots';
import { currentWorkspaceId, signUpOverHttp } from './support/users';

interface Entry {
  id: string;
  start: string;
  end: string | null;
  note: string;
  durationSeconds: number;
  billable: boolean;
  projectId: string | null;
  tagIds: string[];
}

async function entriesOf(request: APIRequestContext, ws: string): Promise<Entry[]> {
  return (await (await request.get(`/api/v1/workspaces/${ws}/time-entries?limit=1000`)).json()).items;
}

/** A workspace with a project "Website" and tags "Acme" and "Beta"; returns their ids. */
async function setUp(request: APIRequestContext) {
  await signUpOverHttp(request);
  const ws = await currentWorkspaceId(request);
  const post = async (path: string, data: object) => {
    const response = await request.post(`/api/v1/workspaces/${ws}${path}`, { data });
    expect(response.status(), path).toBe(201);
    return (await response.json()).id as string;
  };
  const website = await post('/projects', { name: 'Website' });
  const list = await post('/tag-lists', { name: 'Clients' });
  const acme = await post(`/tag-lists/${list}/tags`, { name: 'Acme' });
  const beta = await post(`/tag-lists/${list}/tags`, { name: 'Beta' });
  return { ws, website, acme, beta };
}

test.describe('timesheet, first day', () => {
  test('a 40-second timer shows its seconds on every screen, then in the format chosen in the profile', async ({
    page,
  }) => {
    const { ws } = await setUp(page.request);
    await page.goto('/homepage/timesheet');
    await page.getByRole('textbox', { name: 'Note' }).fill('Quick call');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();

    // Forty seconds without waiting them: the running entry started 40 s ago.
    const running = (await (await page.request.get(`/api/v1/workspaces/${ws}/timer`)).json()).entry;
    const moved = await page.request.patch(`/api/v1/workspaces/${ws}/time-entries/${running.id}`, {
      data: { start: new Date(Date.now() - 40_000).toISOString() },
    });
    expect(moved.status()).toBe(200);
    await expect(page.getByLabel('Elapsed')).toHaveText(/^0:00:4\d$/);
    await expect(page).toHaveTitle(/^▶ 0:00:4\d Quick call/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
    const [entry] = await entriesOf(page.request, ws);
    const seconds = entry?.durationSeconds ?? 0;
    expect(seconds).toBeGreaterThanOrEqual(40);
    expect(seconds).toBeLessThan(50);
    const hms = `0:00:${seconds}`;

    // Day list: the entry and the day total.
    await expect(page.getByRole('textbox', { name: 'Entry duration' })).toHaveValue(hms);
    await expect(page.getByLabel(/^Total of /)).toHaveText(hms);
    await shot(page, 'day-one-seconds-list');

    // Week grid: the cell, the column total and the week total.
    await page.keyboard.press('2');
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toHaveText(hms);
    const cells = page.getByTestId('grid-row').getByRole('textbox');
    await expect
      .poll(async () => (await cells.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).join('|'))
      .toContain(hms);
    await shot(page, 'day-one-seconds-grid');

    // Calendar: the block and the day head.
    await page.keyboard.press('3');
    await expect(page.getByTestId('calendar-block')).toHaveAccessibleName(new RegExp(`^Quick call\\s*${hms}$`));
    await expect(page.getByLabel(/^Calendar total /).filter({ hasText: hms })).toHaveCount(1);
    await page.keyboard.press('1');

    // The profile chooses h:mm, then decimal hours: every screen follows.
    await page.goto('/homepage/profile');
    const format = page.getByRole('combobox', { name: 'Duration format' });
    await expect(format).toHaveValue('h:mm:ss (1:30:15)');
    await format.click();
    await page.getByRole('option', { name: 'h:mm (1:30)' }).click();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved.')).toBeVisible();
    await shot(page, 'day-one-profile');
    expect((await (await page.request.get('/api/v1/me')).json()).user.durationFormat).toBe('h:mm');
    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('textbox', { name: 'Entry duration' })).toHaveValue('0:01');
    await expect(page.getByLabel(/^Total of /)).toHaveText('0:01');
    await page.keyboard.press('2');
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toHaveText('0:01');
    await page.keyboard.press('1');

    await page.goto('/homepage/profile');
    await format.click();
    await page.getByRole('option', { name: 'Decimal hours (1.50)' }).click();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved.')).toBeVisible();
    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('textbox', { name: 'Entry duration' })).toHaveValue('0.01');
    await expect(page.getByLabel(/^Total of /)).toHaveText('0.01');
    // A running timer in the tab title follows the preference too.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveTitle(/^▶ 0\.00 Quick call/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  });

  test('with a tag required, a quick entry in the week grid or the calendar opens the entry form with what was typed', async ({
    page,
  }) => {
    const { ws, website, acme } = await setUp(page.request);
    const rules = await page.request.patch(`/api/v1/workspaces/${ws}/time-settings`, { data: { requireTag: true } });
    expect(rules.status()).toBe(200);
    await page.goto('/homepage/timesheet');

    // Week grid: a row for Website, 1:15 typed on the first day. The shortcut is pressed again
    // until the page has loaded far enough to hear it.
    await expect(async () => {
      await page.keyboard.press('2');
      await expect(page.getByRole('button', { name: 'Add row' })).toBeVisible({ timeout: 1000 });
    }).toPass();
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByRole('combobox', { name: 'Add row' }).click();
    await page.getByRole('option', { name: 'Website' }).click();
    const row = page.getByTestId('grid-row').filter({ hasText: 'Website' });
    const cell = row.getByRole('textbox').first();
    await cell.fill('1:15');
    await cell.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Add a time entry' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Duration' })).toHaveValue('1:15:00');
    await expect(dialog.getByRole('combobox', { name: 'Project' })).toHaveValue('Website');
    await expect(dialog.getByLabel('Start time')).toHaveValue('09:00');
    await expect(dialog.getByRole('alert')).toHaveText('Choose at least one tag.');
    // Nothing was saved, so the grid shows nothing either.
    await expect(cell).toHaveValue('');
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toHaveText('0:00:00');
    await shot(page, 'day-one-grid-blocked');

    await dialog.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toHaveText('1:15:00');
    const [saved] = await entriesOf(page.request, ws);
    expect(saved).toMatchObject({ durationSeconds: 4500, projectId: website, tagIds: [acme] });

    // Calendar: a drag on an empty day opens the form with its times.
    await page.keyboard.press('3');
    // The first day of the week is never in the future; 12:00 leaves the grid's 09:00 entry alone.
    const column = page.locator('[data-testid^="calendar-day-"]').first();
    const area = await column.boundingBox();
    if (!area) throw new Error('no day column');
    const x = area.x + area.width / 2;
    const y = area.y + 12 * 40 + 2; // 12:00
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y + 30, { steps: 3 });
    await page.mouse.move(x, y + 60, { steps: 3 });
    await page.mouse.up();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Start time')).toHaveValue('12:00');
    await expect(dialog.getByLabel('End time')).toHaveValue('13:30');
    await expect(dialog.getByRole('alert')).toHaveText('Choose at least one tag.');
    await expect(page.getByTestId('calendar-block')).toHaveCount(1);
    await shot(page, 'day-one-calendar-blocked');
    await dialog.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('calendar-block')).toHaveCount(2);
    await expect
      .poll(async () => (await entriesOf(page.request, ws)).map((e) => e.durationSeconds).sort())
      .toEqual([4500, 5400]);
  });

  test('Add entry starts empty every time, and the day list edits date, start, end, tags and billable', async ({
    page,
  }) => {
    const { ws, website, acme, beta } = await setUp(page.request);
    await page.goto('/homepage/timesheet');

    await page.getByRole('button', { name: 'Add entry' }).click();
    const add = page.getByRole('dialog', { name: 'Add a time entry' });
    await add.getByLabel('Start time').fill('10:00');
    await add.getByLabel('End time').fill('11:00');
    await add.getByRole('textbox', { name: 'Note' }).fill('Planning');
    await add.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Website', exact: true }).click();
    await add.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.keyboard.press('Escape');
    await add.getByRole('switch', { name: 'Billable' }).check();
    await add.getByRole('button', { name: 'Save entry' }).click();
    await expect(add).toBeHidden();
    await expect(page.getByTestId('entry-row')).toHaveCount(1);

    // The next Add entry does not carry the last one's project, tags or billable flag.
    await page.getByRole('button', { name: 'Add entry' }).click();
    await expect(add.getByRole('combobox', { name: 'Project' })).toHaveValue('');
    await expect(add.getByRole('textbox', { name: 'Note' })).toHaveValue('');
    await expect(add.getByRole('switch', { name: 'Billable' })).not.toBeChecked();
    await expect(add.getByLabel('End time')).toHaveValue('');
    await expect(add.getByText('Acme')).toHaveCount(0);
    // Choosing a tag adds it (it was not silently chosen already).
    await add.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.keyboard.press('Escape');
    await expect(add.getByText('Acme')).toHaveCount(1);
    await shot(page, 'day-one-add-entry');
    await page.keyboard.press('Escape');
    await expect(add).toBeHidden();
    await page.getByRole('button', { name: 'Add entry' }).click();
    await expect(add.getByText('Acme')).toHaveCount(0);
    await page.keyboard.press('Escape');

    // The day list opens one entry for every field: date, start, end, tags, billable.
    const [before] = await entriesOf(page.request, ws);
    if (!before) throw new Error('no entry');
    await page
      .getByTestId('entry-row')
      .getByRole('button', { name: /^Edit entry/ })
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit time entry' });
    await expect(edit.getByLabel('Start time')).toHaveValue('10:00');
    await expect(edit.getByRole('switch', { name: 'Billable' })).toBeChecked();
    const date = await edit.getByLabel('Date').inputValue();
    const dayBefore = new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await edit.getByLabel('Date').fill(dayBefore);
    await edit.getByLabel('Start time').fill('08:00');
    await edit.getByLabel('End time').fill('08:45');
    await edit.getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.getByRole('option', { name: 'Beta' }).click();
    await page.keyboard.press('Escape');
    await edit.getByRole('switch', { name: 'Billable' }).uncheck();
    await shot(page, 'day-one-edit-entry');
    await edit.getByRole('button', { name: 'Save entry' }).click();
    await expect(edit).toBeHidden();
    await expect
      .poll(async () => {
        const e = (await entriesOf(page.request, ws)).find((x) => x.id === before.id);
        return e && { ...e, startShift: (Date.parse(before.start) - Date.parse(e.start)) / 60_000 };
      })
      .toMatchObject({
        startShift: 24 * 60 + 120,
        durationSeconds: 45 * 60,
        tagIds: [beta],
        billable: false,
        projectId: website,
        note: 'Planning',
      });
    expect(acme).not.toBe(beta);
  });
});
