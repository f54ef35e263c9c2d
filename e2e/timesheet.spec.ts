import { type APIRequestContext, expect, test } from '@playwright/test';
import { shot } from './support/shots';
import { allow } from './support/time';
import { confirmAddressOverHttp, currentWorkspaceId, signUpOverHttp } from './support/users';

interface Entry {
  id: string;
  start: string;
  end: string | null;
  note: string;
  durationSeconds: number;
  billable: boolean;
  projectId: string | null;
}

async function entriesOf(request: APIRequestContext, ws: string): Promise<Entry[]> {
  return (await (await request.get(`/api/v1/workspaces/${ws}/time-entries?limit=1000`)).json()).items;
}

test.describe('timesheet', () => {
  test('a user runs the timer, edits the week grid, drags in the calendar, and a second tab follows live', async ({
    page,
    context,
  }) => {
    await confirmAddressOverHttp(page.request, await signUpOverHttp(page.request));
    const ws = await currentWorkspaceId(page.request);
    const project = await page.request.post(`/api/v1/workspaces/${ws}/projects`, {
      data: { name: 'Website', keywordsEnabled: true, keywords: ['release'] },
    });
    expect(project.status()).toBe(201);

    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('textbox', { name: 'Note' })).toBeVisible();
    await expect(page.getByText('No time tracked this week yet.')).toBeVisible();

    // Timer: start with a note and a project, pause, resume, stop.
    await page.getByRole('textbox', { name: 'Note' }).fill('Write release notes');
    // The project's keyword rule suggests it from the note.
    await page.getByRole('button', { name: 'Website' }).click();
    await expect(page.getByRole('combobox', { name: 'Project / task' }).first()).toHaveValue('Website');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(page).toHaveTitle(/^▶ 0:00:\d\d Write release notes/);
    await expect(page.getByLabel('Elapsed')).toHaveText(/0:00:0[1-9]/);
    await shot(page, 'timesheet-running');

    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(page).toHaveTitle(/^⏸ /);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
    await expect(page).toHaveTitle('TimeSheet · Sundial');

    const afterTimer = await entriesOf(page.request, ws);
    expect(afterTimer).toHaveLength(1);
    expect(afterTimer[0]?.durationSeconds).toBeGreaterThanOrEqual(0);
    expect(afterTimer[0]).toMatchObject({ note: 'Write release notes' });
    expect(afterTimer[0]?.end).not.toBeNull();
    await expect(page.getByRole('textbox', { name: 'Entry note' })).toHaveValue('Write release notes');
    await shot(page, 'timesheet-day-list');

    // Continue the entry: a new timer with its note and project; stop it again.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Note', exact: true })).toHaveValue('Write release notes');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(page).toHaveTitle(/Write release notes/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
    await expect(page.getByTestId('entry-row')).toHaveCount(2);

    // Week grid of last week: add a row and type a duration.
    await page.getByText('Week', { exact: true }).click();
    await page.getByRole('button', { name: 'Previous week' }).click();
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByRole('combobox', { name: 'Add row' }).click();
    await page.getByRole('option', { name: 'Website' }).click();
    const row = page.getByTestId('grid-row').filter({ hasText: 'Website' });
    const firstCell = row.getByRole('textbox').first();
    await firstCell.fill('2:30');
    await firstCell.press('Enter');
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toHaveText('2:30:00');

    // A second tab on the same week follows changes live.
    const second = await context.newPage();
    await second.goto('/homepage/timesheet');
    await second.getByRole('button', { name: 'Previous week' }).click();
    await expect(second.getByRole('columnheader', { name: 'Week total' })).toHaveText('2:30:00');
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toHaveText('2:30:00');
    await firstCell.fill('3:15');
    await firstCell.press('Enter');
    await expect(second.getByRole('columnheader', { name: 'Week total' })).toHaveText('3:15:00', { timeout: 1000 });
    await shot(page, 'timesheet-week-grid');

    // Calendar: drag last week's block two hours later.
    await page.keyboard.press('Escape');
    await page.getByText('Calendar', { exact: true }).click();
    const block = page.getByTestId('calendar-block').first();
    await block.scrollIntoViewIfNeeded();
    const before = (await entriesOf(page.request, ws)).find((e) => e.durationSeconds === 3 * 3600 + 15 * 60);
    expect(before).toBeDefined();
    const box = await block.boundingBox();
    if (!box) throw new Error('no block');
    await page.mouse.move(box.x + box.width / 2, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + 50, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2, box.y + 90, { steps: 4 });
    await page.mouse.up();
    await expect
      .poll(async () => {
        const moved = (await entriesOf(page.request, ws)).find((e) => e.id === before?.id);
        return moved ? (new Date(moved.start).getTime() - new Date(before?.start ?? 0).getTime()) / 60_000 : 0;
      })
      .toBe(120);

    await expect.poll(async () => (await block.boundingBox())?.y).toBeGreaterThan(box.y + 60);

    // Resize it by its lower edge, one hour longer.
    const handle = page.getByTestId('calendar-resize').first();
    const edge = await handle.boundingBox();
    if (!edge) throw new Error('no resize handle');
    await page.mouse.move(edge.x + edge.width / 2, edge.y + 3);
    await page.mouse.down();
    await page.mouse.move(edge.x + edge.width / 2, edge.y + 23, { steps: 3 });
    await page.mouse.move(edge.x + edge.width / 2, edge.y + 43, { steps: 3 });
    await page.mouse.up();
    await expect
      .poll(async () => (await entriesOf(page.request, ws)).find((e) => e.id === before?.id)?.durationSeconds)
      .toBe(4 * 3600 + 15 * 60);

    // Create an entry by dragging on an empty day: two hours.
    const column = page.locator('[data-testid^="calendar-day-"]').nth(2);
    const area = await column.boundingBox();
    if (!area) throw new Error('no day column');
    const y = box.y;
    await page.mouse.move(area.x + area.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(area.x + area.width / 2, y + 40, { steps: 3 });
    await page.mouse.move(area.x + area.width / 2, y + 80, { steps: 3 });
    await page.mouse.up();
    await expect
      .poll(async () => (await entriesOf(page.request, ws)).filter((e) => e.durationSeconds === 7200).length)
      .toBe(1);
    await expect(page.getByTestId('calendar-block')).toHaveCount(2);
    await shot(page, 'timesheet-calendar');
    await expect(second.getByRole('columnheader', { name: 'Week total' })).toHaveText('6:15:00');
    await second.close();
  });

  test('a manual entry with a typed duration and a suggested project, an overlap flag, bulk edit, and delete with undo', async ({
    page,
  }) => {
    await confirmAddressOverHttp(page.request, await signUpOverHttp(page.request));
    const ws = await currentWorkspaceId(page.request);
    const newProject = async (data: object) =>
      (await (await page.request.post(`/api/v1/workspaces/${ws}/projects`, { data })).json()).id as string;
    await newProject({ name: 'Meetings', keywordsEnabled: true, keywords: ['standup'] });
    const internal = await newProject({ name: 'Internal' });
    await page.goto('/homepage/timesheet');
    await page.getByRole('button', { name: 'Add entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a time entry' });
    await dialog.getByLabel('Start time').fill('00:10');
    await dialog.getByRole('textbox', { name: 'Duration' }).fill('soon');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await expect(dialog.getByText('Enter a duration such as 1:30, 1.5h or 90m.')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Duration' }).fill('90m');
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Daily standup');
    // The keyword rule of "Meetings" suggests it while no project is chosen; one click applies it.
    await dialog.getByRole('button', { name: 'Meetings' }).click();
    await expect(dialog.getByRole('combobox', { name: 'Project' })).toHaveValue('Meetings');
    await expect(dialog.getByRole('button', { name: 'Meetings' })).toBeHidden();
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Entry duration' })).toHaveValue('1:30:00');

    await page.getByRole('button', { name: 'Duplicate' }).click();
    await expect(page.getByTestId('entry-row')).toHaveCount(2);
    await expect(page.getByText('Overlap')).toHaveCount(2);
    await shot(page, 'timesheet-overlap');

    const ids = async () => (await entriesOf(page.request, ws)).map((e) => e.id).sort();
    const before = await ids();
    await page.getByRole('button', { name: 'Delete', exact: true }).first().click();
    await expect(page.getByTestId('entry-row')).toHaveCount(1);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('entry-row')).toHaveCount(2);
    // Undo brings back the very same entry.
    await expect.poll(ids).toEqual(before);

    // Bulk edit: select the whole day, make it billable, move it to another project, delete, undo.
    await page.getByRole('checkbox', { name: /^Select all of / }).check();
    await expect(page.getByText('2 selected')).toBeVisible();
    await page.getByRole('button', { name: 'Billable', exact: true }).click();
    await expect.poll(async () => (await entriesOf(page.request, ws)).every((e) => e.billable)).toBe(true);
    await page.getByRole('combobox', { name: 'Set project / task' }).click();
    await page.getByRole('option', { name: 'Internal', exact: true }).click();
    await expect
      .poll(async () => (await entriesOf(page.request, ws)).every((e) => e.projectId === internal))
      .toBe(true);
    await shot(page, 'timesheet-bulk');
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await expect(page.getByTestId('entry-row')).toHaveCount(0);
    await expect(page.getByText('2 entries deleted.')).toBeVisible();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('entry-row')).toHaveCount(2);
    await expect.poll(ids).toEqual(before);
    await expect(page.getByText('2 selected')).toBeHidden();

    // Rounding from the workspace settings changes every total the same way.
    await page.getByRole('button', { name: 'Time settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Time settings' });
    await settings.getByRole('combobox', { name: 'Rounding in views and reports' }).click();
    await page.getByRole('option', { name: 'Round up' }).click();
    await settings.getByRole('combobox', { name: 'To' }).click();
    await page.getByRole('option', { name: '60 min' }).click();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings).toBeHidden();
    await expect(page.getByText('Rounded up 60 min')).toBeVisible();
    await expect(page.getByLabel(/^Total of /)).toHaveText('4:00:00');

    // Keyboard: S starts and stops the timer, ? lists the shortcuts.
    await page.locator('body').click({ position: { x: 5, y: 700 } });
    await page.keyboard.press('s');
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await page.keyboard.press('s');
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
    await page.keyboard.press('Shift+?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await shot(page, 'timesheet-help');
    await page.keyboard.press('Escape');

    // The calendar's day view: one day, arrows move a day.
    await page.keyboard.press('3');
    await page.getByText('Day', { exact: true }).click();
    await expect(page.locator('[data-testid^="calendar-day-"]')).toHaveCount(1);
    const today = await page.locator('[data-testid^="calendar-day-"]').getAttribute('data-testid');
    await page.locator('body').click({ position: { x: 5, y: 700 } });
    await page.keyboard.press('ArrowLeft');
    await expect(page.locator('[data-testid^="calendar-day-"]')).not.toHaveAttribute('data-testid', today ?? '');
    await expect(page.locator('[data-testid^="calendar-day-"]')).toHaveCount(1);
  });
  test('overlapping entries stand side by side in the calendar, open for editing on a click, and take tags and a note in bulk', async ({
    page,
  }) => {
    await confirmAddressOverHttp(page.request, await signUpOverHttp(page.request));
    const ws = await currentWorkspaceId(page.request);
    const post = async (path: string, data: object) =>
      (await (await page.request.post(`/api/v1/workspaces/${ws}${path}`, { data })).json()).id as string;
    const list = await post('/tag-lists', { name: 'Clients' });
    const acme = await post(`/tag-lists/${list}/tags`, { name: 'Acme' });
    await post('/projects', { name: 'Website', color: '#1c7ed6' });
    await page.goto('/homepage/timesheet');

    // One entry through the dialog (today 09:00, in the user's zone), two more beside it through the API.
    await page.getByRole('button', { name: 'Add entry' }).click();
    const add = page.getByRole('dialog', { name: 'Add a time entry' });
    await add.getByLabel('Start time').fill('09:00');
    await add.getByRole('textbox', { name: 'Duration' }).fill('2h');
    await add.getByRole('textbox', { name: 'Note' }).fill('Design');
    await add.getByRole('button', { name: 'Save entry' }).click();
    await expect(add).toBeHidden();
    const design = (await entriesOf(page.request, ws))[0];
    if (!design) throw new Error('no entry');
    const at = (hours: number) => new Date(new Date(design.start).getTime() + hours * 3_600_000).toISOString();
    const review = await post('/time-entries', { start: at(1), end: at(2.5), note: 'Review' });
    await post('/time-entries', { start: at(3), end: at(3.5), note: 'Lunch' });

    // Calendar, day and week: the two overlapping blocks share the width, the lone one has it all.
    await page.keyboard.press('3');
    for (const view of ['Day', 'Week']) {
      await page.getByLabel('Calendar span').getByText(view, { exact: true }).click();
      const boxOf = async (note: string) => {
        const box = await page.getByTestId('calendar-block').filter({ hasText: note }).boundingBox();
        if (!box) throw new Error(`no block ${note}`);
        return box;
      };
      await expect(page.getByTestId('calendar-block')).toHaveCount(3);
      // Measured once the switched view has laid its blocks out (a loaded machine measured one mid-way).
      await expect(async () => {
        const [a, b, lone] = [await boxOf('Design'), await boxOf('Review'), await boxOf('Lunch')];
        expect(a.x + a.width <= b.x || b.x + b.width <= a.x, `${view}: side by side`).toBe(true);
        expect(b.y).toBeLessThan(a.y + a.height);
        expect(lone.width).toBeGreaterThan(a.width * 1.8);
      }).toPass({ timeout: allow(10_000) });
      await shot(page, `timesheet-calendar-lanes-${view.toLowerCase()}`);
    }

    // A click on a block opens it in the entry dialog: change note, project, tag and end time.
    const reviewBlock = page.getByTestId('calendar-block').filter({ hasText: 'Review' });
    await reviewBlock.click();
    const edit = page.getByRole('dialog', { name: 'Edit time entry' });
    await expect(edit.getByRole('textbox', { name: 'Note' })).toHaveValue('Review');
    await edit.getByRole('textbox', { name: 'Note' }).fill('Code review');
    await edit.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Website', exact: true }).click();
    await edit.getByLabel('End time').fill('12:00');
    await edit.getByRole('button', { name: 'Save entry' }).click();
    await expect(edit).toBeHidden();
    await expect
      .poll(async () => {
        const e = (await entriesOf(page.request, ws)).find((x) => x.id === review);
        return [e?.note, e?.durationSeconds, e?.projectId !== null];
      })
      .toEqual(['Code review', 2 * 3600, true]);
    await expect(reviewBlock).toHaveCount(1);

    // Delete from the dialog, then Undo: the same entry comes back.
    await reviewBlock.click();
    await edit.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('calendar-block')).toHaveCount(2);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('calendar-block')).toHaveCount(3);
    await expect.poll(async () => (await entriesOf(page.request, ws)).some((e) => e.id === review)).toBe(true);
    // The blocks are buttons: Enter opens one from the keyboard.
    await reviewBlock.focus();
    await page.keyboard.press('Enter');
    await expect(edit).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(edit).toBeHidden();

    // Day list: tags and a note for every selected entry.
    await page.keyboard.press('1');
    await page.getByRole('checkbox', { name: /^Select all of / }).check();
    await expect(page.getByText('3 selected')).toBeVisible();
    const addTags = page.getByRole('group', { name: 'Add tags' });
    await addTags.getByPlaceholder('Add tags').click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.keyboard.press('Escape');
    await addTags.getByRole('button', { name: 'Apply' }).click();
    const all = async () => (await entriesOf(page.request, ws)) as (Entry & { tagIds: string[] })[];
    await expect.poll(async () => (await all()).every((e) => e.tagIds.includes(acme))).toBe(true);
    const setNote = page.getByRole('group', { name: 'Set note' });
    await setNote.getByRole('textbox').fill('Sprint 12');
    await setNote.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await all()).map((e) => e.note)).toEqual(['Sprint 12', 'Sprint 12', 'Sprint 12']);
    await shot(page, 'timesheet-bulk-tags');
    const removeTags = page.getByRole('group', { name: 'Remove tags' });
    await removeTags.getByPlaceholder('Remove tags').click();
    await page.getByRole('option', { name: 'Acme' }).click();
    await page.keyboard.press('Escape');
    await removeTags.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await all()).every((e) => e.tagIds.length === 0)).toBe(true);
  });
});
