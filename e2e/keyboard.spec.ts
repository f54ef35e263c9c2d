import { expect, type Locator, type Page, test } from '@playwright/test';
import { shot } from './support/shots';
import { allow } from './support/time';
import { newEmail, signUpOverHttp } from './support/users';

/**
 * Keyboard-only journeys (issue 11): after a signed-in page loads, every step below uses
 * page.keyboard alone — Tab, Shift+Tab, Enter, Space, Escape, arrows and typing. Locators only
 * assert where focus is and what the screen shows.
 */

/** Presses Tab (or Shift+Tab) until the target holds focus; fails if it never does. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<void> {
  await target.waitFor({ state: 'attached' });
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
  await expectVisibleFocus(page);
}

/**
 * The focused element shows where focus is: an outline, a ring (box-shadow), or — for text
 * fields — a border that changes colour on focus.
 */
async function expectVisibleFocus(page: Page): Promise<void> {
  // Polled, since a field's border colour eases in over a few frames.
  await expect
    .poll(async () => (await focusStyle(page))?.visible, { timeout: 2000 })
    .toBe(true)
    .catch(() => {});
  const style = await focusStyle(page);
  expect(style, 'something is focused').not.toBeNull();
  expect(style?.visible, `visible focus on ${style?.tag} "${style?.name}" ${JSON.stringify(style)}`).toBe(true);
}

async function focusStyle(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    // A visually hidden radio (the view switcher) shows its focus on its label.
    const shown = el instanceof HTMLInputElement && el.type === 'radio' && el.labels?.[0] ? el.labels[0] : el;
    const s = getComputedStyle(shown);
    // A text field shows focus by its border: it takes the focus colour, unlike the resting grey.
    let focusBorder = false;
    if (el.matches('input, textarea') && el.parentElement) {
      const resolve = (value: string) => {
        const probe = document.createElement('div');
        probe.style.color = value;
        el.parentElement?.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      };
      const focus = s.getPropertyValue('--input-bd-focus').trim();
      focusBorder =
        focus !== '' &&
        resolve(focus) === s.borderTopColor &&
        resolve('var(--mantine-color-gray-4)') !== s.borderTopColor;
    }
    const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
    const ring = s.boxShadow !== 'none';
    return {
      tag: el.tagName,
      name: el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '',
      outline,
      ring,
      focusBorder,
      visible: outline || ring || focusBorder,
    };
  });
}

/** A dialog keeps focus inside: Tab from its last control and Shift+Tab from its first stay in it. */
async function expectFocusTrapped(page: Page, dialog: Locator): Promise<void> {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((el) => el.contains(document.activeElement)), `${key} #${i} stays in`).toBe(true);
    }
  }
}

test.describe('keyboard only', () => {
  // Hundreds of single key presses, each followed by a look at where focus went.
  test.describe.configure({ timeout: allow(180_000) });

  test('timer, manual entry, week grid and calendar by keyboard alone', async ({ page }) => {
    await signUpOverHttp(page.request);
    const me = await (await page.request.get('/api/v1/me')).json();
    const ws = me.currentWorkspaceId as string;
    expect((await page.request.post(`/api/v1/workspaces/${ws}/projects`, { data: { name: 'Website' } })).status()).toBe(
      201,
    );

    await page.goto('/homepage/timesheet');
    const note = page.getByRole('textbox', { name: 'Note', exact: true });
    await expect(note).toBeVisible();

    // The first Tab reaches the skip link; Enter on it puts focus in the page's main region.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();

    // Timer: type a note, Enter starts (focus stays in the note); Tab to Stop, Enter stops.
    await tabTo(page, note);
    await page.keyboard.type('Keyboard work');
    await page.keyboard.press('Enter');
    const stop = page.getByRole('button', { name: 'Stop' });
    await expect(stop).toBeVisible();
    await expect(note).toBeFocused();
    await tabTo(page, stop);
    await page.keyboard.press('Enter');
    const start = page.getByRole('button', { name: 'Start' });
    await expect(start).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Entry note' })).toHaveValue('Keyboard work');
    // Stop gave way to Start, and focus went with it (not to the page).
    await expect(start).toBeFocused();

    // Start again with the Start button (Space): focus moves to Stop; Space stops, focus back on Start.
    await page.keyboard.press('Space');
    await expect(stop).toBeFocused();
    await page.keyboard.press('Space');
    await expect(start).toBeFocused();
    await expect(page.getByTestId('entry-row')).toHaveCount(2);

    // Manual entry: the dialog traps focus and gives it back to "Add entry" on Escape.
    const newEntry = page.getByRole('button', { name: 'Add entry' });
    await tabTo(page, newEntry);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a time entry' });
    await expect(dialog).toBeVisible();
    await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await expectFocusTrapped(page, dialog);
    // Escape in an open picker closes only the picker, so leave from a button.
    await tabTo(page, dialog.getByRole('button', { name: 'Save entry' }));
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(newEntry).toBeFocused();

    // Now add one: a duration and a note, saved with Enter on the save button.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await tabTo(page, dialog.getByRole('textbox', { name: 'Duration' }));
    await page.keyboard.type('0:30');
    await tabTo(page, dialog.getByRole('textbox', { name: 'Note' }));
    await page.keyboard.type('Typed by hand');
    await tabTo(page, dialog.getByRole('button', { name: 'Save entry' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('entry-row')).toHaveCount(3);
    const entries = async () =>
      (await (await page.request.get(`/api/v1/workspaces/${ws}/time-entries?limit=100`)).json()).items as {
        note: string;
        durationSeconds: number;
      }[];
    expect((await entries()).find((e) => e.note === 'Typed by hand')?.durationSeconds).toBe(1800);

    // Week grid: arrows move in the view switcher; add a row and type a duration.
    const view = page.getByRole('radiogroup', { name: 'View' });
    await tabTo(page, view.getByRole('radio', { checked: true }));
    await page.keyboard.press('ArrowRight');
    await expect(view.getByRole('radio', { name: 'Week' })).toBeChecked();
    const addRow = page.getByRole('button', { name: 'Add row' });
    await tabTo(page, addRow);
    await page.keyboard.press('Enter');
    const rowPicker = page.getByRole('combobox', { name: 'Add row' });
    await expect(rowPicker).toBeFocused();
    // Escape gives up on the picker and puts focus back on the button.
    await page.keyboard.press('Escape');
    await expect(rowPicker).toHaveCount(0);
    await expect(addRow).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(rowPicker).toBeFocused();
    await shot(page, 'keyboard-week-add-row');
    await page.keyboard.type('Web');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const row = page.getByTestId('grid-row').filter({ hasText: 'Website' });
    await expect(row).toBeVisible();
    const cell = row.getByRole('textbox').first();
    await tabTo(page, cell, { back: true });
    await page.keyboard.type('1:45');
    await page.keyboard.press('Enter');
    await expect(cell).toHaveValue(/^1:45/);
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toHaveText(/^[2-9]:\d\d:\d\d$/);

    // Calendar: a block is a tab stop; Enter opens its entry form (the keyboard way to move or resize).
    await tabTo(page, view.getByRole('radio', { checked: true }), { back: true });
    await page.keyboard.press('ArrowRight');
    await expect(view.getByRole('radio', { name: 'Calendar' })).toBeChecked();
    const block = page.getByTestId('calendar-block').first();
    await tabTo(page, block);
    await shot(page, 'keyboard-calendar-block');
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Edit time entry' });
    await expect(form).toBeVisible();
    await expectFocusTrapped(page, form);
    await tabTo(page, form.getByRole('button', { name: 'Save entry' }));
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    await expect(block).toBeFocused();
  });

  test('add a project and a task, then invite a person, by keyboard alone', async ({ page }) => {
    await signUpOverHttp(page.request);
    await page.goto('/homepage/projects');
    await expect(page.getByText('Choose project or task to edit')).toBeVisible();

    const addProject = page.getByRole('button', { name: 'Add Project' });
    await tabTo(page, addProject);
    await page.keyboard.press('Enter');
    const nameBar = page.getByPlaceholder('Enter the name for new project or task...');
    await expect(nameBar).toBeFocused();
    await page.keyboard.type('Keyboard project');
    await page.keyboard.press('Enter');
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    await expect(pane.getByRole('heading', { name: 'Edit Project' })).toBeVisible();

    const addTask = page.getByRole('button', { name: 'Add Task to Keyboard project' });
    await tabTo(page, addTask, { back: true });
    await page.keyboard.press('Enter');
    const title = pane.getByRole('textbox', { name: 'Task title' });
    await tabTo(page, title);
    await page.keyboard.type('Keyboard task');
    await tabTo(page, pane.getByRole('button', { name: 'Save', exact: true }));
    await page.keyboard.press('Enter');
    await expect(page.getByText('Task created.')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Tasks of Keyboard project' })).toContainText('Keyboard task');

    // Team: invite someone through the dialog, which traps and returns focus.
    await page.goto('/homepage/user');
    const invite = page.getByRole('button', { name: 'Invite people' });
    await tabTo(page, invite);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Invite people' });
    await expect(dialog).toBeVisible();
    await expectFocusTrapped(page, dialog);
    await tabTo(page, dialog.getByRole('button', { name: 'Send invitations' }));
    await shot(page, 'keyboard-invite-dialog');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(invite).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    const colleague = newEmail('kbd');
    await tabTo(page, dialog.getByLabel('Email addresses'));
    await page.keyboard.type(colleague);
    await tabTo(page, dialog.getByRole('button', { name: 'Send invitations' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText(colleague);
  });
});
