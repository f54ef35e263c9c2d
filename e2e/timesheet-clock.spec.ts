import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { dayKey, formatDayRange, shiftDay, weekDays, zonedInstant } from '@sundial/core';
import { shotsAtWidths } from './support/shots';
import { confirmAddressOverHttp, newEmail, PASSWORD, workspacePoster } from './support/users';

/**
 * The timesheet's figures and places by the clock: calendar blocks on DST days sit at their
 * wall-clock hour labels (the user's profile zone, Berlin), the week grid's Total column holds 10 h
 * and more, and the day list's running entry and week total tick (issue 30).
 */

const ZONE = 'Europe/Berlin';

/** Signs a Berlin user up over HTTP; answers the workspace API base. */
async function signUpInBerlin(request: APIRequestContext): Promise<string> {
  const email = newEmail('clock');
  const response = await request.post('/api/v1/auth/signup', { data: { email, password: PASSWORD, timeZone: ZONE } });
  expect(response.status(), await response.text()).toBe(201);
  // Confirmed first: the banner asking for it would otherwise arrive after the first paint and move the page.
  await confirmAddressOverHttp(request, email);
  const me = await (await request.get('/api/v1/me')).json();
  expect(me.user.timeZone).toBe(ZONE);
  return `/api/v1/workspaces/${me.currentWorkspaceId}`;
}

/** Opens the calendar's week view and goes back (the arrow key, once a week) to the week holding `day`. */
async function openCalendarDay(page: Page, day: string) {
  await openTimesheet(page);
  await page.keyboard.press('3');
  const monday = (d: string) => Date.parse(weekDays(d, 'monday')[0] ?? d);
  const weeks = Math.round((monday(dayKey(Date.now(), ZONE)) - monday(day)) / (7 * 86_400_000));
  for (let i = 0; i < weeks; i++) await page.keyboard.press('ArrowLeft');
  const column = page.getByTestId(`calendar-day-${day}`);
  await expect(column).toBeVisible();
  return column;
}

/** Screenshots at 1440 and 1024 in the light and the dark scheme (when E2E_SHOTS_DIR is set). */
async function shotsInBothSchemes(page: Page, name: string) {
  if (!process.env.E2E_SHOTS_DIR) return;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await shotsAtWidths(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Opens the timesheet and waits for its views (and their keys) to be there. */
async function openTimesheet(page: Page) {
  await page.goto('/homepage/timesheet');
  await expect(page.getByRole('radiogroup', { name: 'View' })).toBeVisible();
}

/** The vertical middle of the gutter's hour label "HH:00" (labels are centred on their line). */
async function labelY(page: Page, hour: string) {
  const box = await page.getByText(hour, { exact: true }).first().boundingBox();
  if (!box) throw new Error(`no label ${hour}`);
  return box.y + box.height / 2;
}

test.describe('timesheet by the clock', () => {
  test('calendar blocks on DST days sit at their hour labels, and a drag at the 10:00 line starts at 10:00', async ({
    page,
  }) => {
    const ws = await signUpInBerlin(page.request);
    const post = workspacePoster(page.request, '');
    // 09:00-09:30 Berlin time: CEST on 29 March (the clocks went forward at 02:00), CET on 25 October.
    await post(`${ws}/time-entries`, { start: '2026-03-29T07:00:00Z', end: '2026-03-29T07:30:00Z', note: 'Spring' });
    await post(`${ws}/time-entries`, { start: '2026-10-25T08:00:00Z', end: '2026-10-25T08:30:00Z', note: 'Autumn' });
    await post(`${ws}/time-entries`, { start: '2026-10-25T22:30:00Z', end: '2026-10-25T23:00:00Z', note: 'Late' });

    for (const [day, note, tenOClock] of [
      ['2026-03-29', 'Spring', '2026-03-29T08:00:00.000Z'], // 10:00 CEST
      ['2026-10-25', 'Autumn', '2026-10-25T09:00:00.000Z'], // 10:00 CET
    ] as const) {
      const column = await openCalendarDay(page, day);
      const block = column.getByTestId('calendar-block').filter({ hasText: note });
      await block.scrollIntoViewIfNeeded();
      const box = await block.boundingBox();
      expect(Math.abs((box?.y ?? 0) - (await labelY(page, '09:00'))), `${day} block top at 09:00`).toBeLessThanOrEqual(
        2,
      );
      const half = ((await labelY(page, '09:00')) + (await labelY(page, '10:00'))) / 2;
      expect(Math.abs((box?.y ?? 0) + (box?.height ?? 0) - half), `${day} block bottom at 09:30`).toBeLessThanOrEqual(
        2,
      );
      // The hour the clocks skip or repeat is marked in its place.
      await expect(column.getByTestId('clock-change')).toHaveAttribute(
        'title',
        day === '2026-03-29' ? '02:00–03:00 skipped: clocks go forward' : '02:00–03:00 twice: clocks go back',
      );
      await shotsInBothSchemes(page, `clock-calendar-${day}`);

      // A drag from the 10:00 line down to the 11:00 line creates 10:00-11:00 local time.
      const frame = await column.boundingBox();
      const x = (frame?.x ?? 0) + (frame?.width ?? 0) * 0.8;
      const ten = await labelY(page, '10:00');
      const eleven = await labelY(page, '11:00');
      await page.mouse.move(x, ten);
      await page.mouse.down();
      await page.mouse.move(x, (ten + eleven) / 2, { steps: 3 });
      await page.mouse.move(x, eleven, { steps: 3 });
      await page.mouse.up();
      const blocks = column.getByTestId('calendar-block');
      await expect(blocks).toHaveCount(day === '2026-10-25' ? 3 : 2);
      const created = (await (await page.request.get(`${ws}/time-entries?limit=100`)).json()).items.find(
        (e: { note: string; start: string }) => e.note === '' && e.start.startsWith(day),
      );
      expect(created?.start, `${day} drag start`).toBe(tenOClock);
      expect(Date.parse(created?.end) - Date.parse(created?.start)).toBe(3_600_000);
    }

    // 23:30 on the 25-hour day stays inside its column, its bottom at the column's.
    const column = page.getByTestId('calendar-day-2026-10-25');
    const late = await column.getByTestId('calendar-block').filter({ hasText: 'Late' }).boundingBox();
    const frame = await column.boundingBox();
    expect(
      Math.abs((late?.y ?? 0) + (late?.height ?? 0) - ((frame?.y ?? 0) + (frame?.height ?? 0))),
    ).toBeLessThanOrEqual(2);
  });

  test('the week grid shows totals of 10 h and more whole, and the day list ticks and totals the week', async ({
    page,
  }) => {
    const ws = await signUpInBerlin(page.request);
    const post = workspacePoster(page.request, '');
    const project = await post(`${ws}/projects`, { name: 'Website' });
    // Last week, so nothing runs in it: 12 h on Monday, 11 h on Tuesday (from 08:00 Berlin time).
    const monday = weekDays(shiftDay(dayKey(Date.now(), ZONE), -7), 'monday')[0] ?? '';
    const tuesday = shiftDay(monday, 1);
    const at = (day: string, hours: number) => new Date(zonedInstant(day, '08:00', ZONE) + hours * 3_600_000);
    for (const [day, hours] of [
      [monday, 12],
      [tuesday, 11],
    ] as const) {
      await post(`${ws}/time-entries`, { start: at(day, 0), end: at(day, hours), projectId: project.id });
    }
    await openTimesheet(page);
    await page.keyboard.press('2');
    await page.getByRole('button', { name: 'Previous week' }).click();
    await expect(page.getByLabel('Week shown')).toHaveText(
      formatDayRange(monday, shiftDay(monday, 6), { dateFormat: 'YYYY-MM-DD' }),
    );
    const row = page.getByTestId('grid-row');
    const rowTotal = row.getByRole('cell').last();
    const weekTotal = page.getByRole('columnheader', { name: 'Week total' });
    await expect(rowTotal).toHaveText('23:00:00');
    await expect(weekTotal).toHaveText('23:00:00');
    const clipped = (locator: typeof rowTotal) =>
      locator.evaluate((el) => [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth));
    for (const width of [1024, 1920, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await clipped(rowTotal), `row total clipped at ${width}`).toBe(false);
      expect(await clipped(weekTotal), `week total clipped at ${width}`).toBe(false);
      expect(await clipped(page.getByRole('columnheader', { name: `Column total ${monday}` }))).toBe(false);
      expect(await clipped(page.getByRole('textbox', { name: `Website on ${monday}` }))).toBe(false);
    }
    await shotsInBothSchemes(page, 'clock-week-grid');

    // The day list's header shows the same week total.
    await page.keyboard.press('1');
    await expect(page.getByLabel('Week total')).toHaveText('23:00:00');
    await shotsAtWidths(page, 'clock-day-list');

    // This week, on the real clock: a timer started 10 s ago ticks in its row and in the week total.
    const started = await page.request.post(`${ws}/timer/start`, { data: { note: 'Ticking' } });
    expect(started.status(), await started.text()).toBe(201);
    const { entry } = await started.json();
    const moved = await page.request.patch(`${ws}/time-entries/${entry.id}`, {
      data: { start: new Date(Date.now() - 10_000).toISOString() },
    });
    expect(moved.status()).toBe(200);
    await openTimesheet(page);
    const duration = page.getByTestId('running-entry-duration');
    await expect(duration).toHaveText(/^0:00:1\d$/);
    const first = await duration.textContent();
    await expect(duration).not.toHaveText(first ?? '');
    const total = page.getByLabel('Week total');
    const before = await total.textContent();
    await expect(total).not.toHaveText(before ?? '');
    await shotsInBothSchemes(page, 'clock-day-list-running');
  });
});
