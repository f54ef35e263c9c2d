import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

test.describe('dashboard', () => {
  test("a member's dashboard shows the week the timesheet shows; the owner sees the team, and the real-time dashboard follows a colleague's timer live", async ({
    page,
    browser,
    baseURL,
  }) => {
    await signUpOverHttp(page.request);
    expect((await page.request.patch('/api/v1/me', { data: { name: 'Olive Owner' } })).status()).toBe(200);
    const ws = await workspaceApi(page.request);
    const atlas = await (await page.request.post(`${ws}/projects`, { data: { name: 'Atlas', isPublic: true } })).json();
    const logo = await (await page.request.post(`${ws}/projects/${atlas.id}/tasks`, { data: { name: 'Logo' } })).json();
    const list = await (await page.request.post(`${ws}/tag-lists`, { data: { name: 'Kind' } })).json();
    const design = await (
      await page.request.post(`${ws}/tag-lists/${list.id}/tags`, { data: { name: 'Design' } })
    ).json();

    // Nothing tracked yet: an encouraging empty state that leads to the timesheet.
    await page.goto('/homepage/dashboard');
    await expect(page.getByRole('heading', { name: 'Nothing tracked this week yet' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Desktop app' })).toBeVisible();
    // The desktop app this server offers (issue 35): its download, served here, and how to pair it.
    const download = page.getByRole('link', { name: /^Download sundial-agent\.mjs \(\d/ });
    await expect(download).toHaveAttribute('href', '/api/v1/agent/download');
    await expect(page.getByText(`node sundial-agent.mjs pair --server ${new URL(page.url()).origin}`)).toBeVisible();
    await expect(page.getByText(/^Version \d+\.\d+\.\d+$/)).toBeVisible();
    const agent = await page.request.get('/api/v1/agent/download');
    expect(agent.status()).toBe(200);
    expect((await agent.body()).toString('utf8')).toContain('sundial-agent');
    await shotsAtWidths(page, 'dashboard-empty');

    // A member tracks time of their own this week.
    const theirs = await browser.newContext({ baseURL });
    await joinAsMember(page.request, ws, theirs.request, 'Mia Member');
    for (const [start, duration, note] of [
      [minutesAgo(95), '35m', 'Logo sketches'],
      [minutesAgo(50), '25m', 'Colour study'],
    ] as const) {
      const created = await theirs.request.post(`${ws}/time-entries`, {
        data: {
          start,
          duration,
          note,
          projectId: atlas.id,
          ...(note === 'Logo sketches' ? { billable: true, taskId: logo.id, tagIds: [design.id] } : {}),
        },
      });
      expect(created.status(), await created.text()).toBe(201);
    }

    // Their timesheet's week total is their dashboard's.
    const mia = await theirs.newPage();
    await mia.goto('/homepage/timesheet');
    await mia.getByLabel('View').getByText('Week', { exact: true }).click();
    const weekTotal = mia.getByRole('table', { name: 'Week timesheet' }).getByLabel('Week total');
    await expect(weekTotal).not.toHaveText('0:00:00');
    const timesheetTotal = ((await weekTotal.textContent()) ?? '').trim();
    expect(timesheetTotal).toMatch(/^1:00:00$/);

    await mia.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(mia).toHaveURL(/\/homepage\/dashboard$/);
    await expect(mia.getByTestId('week-total')).toHaveText(timesheetTotal);
    await expect(mia.getByTestId('billable-share')).toHaveText('58 %');
    await expect(mia.getByRole('figure', { name: 'Hours per day' })).toBeVisible();
    await expect(mia.getByRole('figure', { name: 'By project' })).toContainText('Atlas');
    await expect(mia.getByTestId('recent-entries')).toContainText('Colour study');
    await expect(mia.getByRole('region', { name: 'Top tasks' })).toContainText(/Logo\s*0:35:00/);
    await expect(mia.getByRole('region', { name: 'Top tags' })).toContainText(/Design\s*0:35:00/);
    // A member sees their own week only: no team section.
    await expect(mia.getByTestId('team-section')).toHaveCount(0);
    await expectNoSeriousViolations(mia, 'dashboard');
    await shotsAtWidths(mia, 'dashboard-member');

    // The owner's dashboard has the team's week: Mia's hour among the people, and Atlas, whose
    // 50-minute budget her hour overruns, among the projects over budget.
    const budgeted = await page.request.patch(`${ws}/projects/${atlas.id}`, {
      data: { budget: { type: 'hours', amount: 50, resetsMonthly: false } },
    });
    expect(budgeted.status(), await budgeted.text()).toBe(200);
    await page.reload();
    const team = page.getByTestId('team-section');
    await expect(team.getByRole('heading', { name: 'Your team this week' })).toBeVisible();
    await expect(
      page.getByTestId('team-per-person').getByRole('listitem').filter({ hasText: 'Mia Member' }),
    ).toContainText(timesheetTotal);
    await expect(team.getByText('Nobody is tracking right now.')).toBeVisible();
    await expect(team.getByTestId('budget-watch-item').filter({ hasText: 'Atlas' })).toContainText('Over budget');

    // The real-time dashboard: Mia starts a timer from elsewhere; it shows up without a reload and ticks.
    await team.getByRole('link', { name: 'Open the real-time dashboard' }).click();
    await expect(page).toHaveURL(/\/homepage\/reports\/real-time-dashboard$/);
    await expect(page.getByTestId('nobody-tracking')).toBeVisible();
    const idle = page.getByTestId('idle-row').filter({ hasText: 'Mia Member' });
    await expect(idle).toContainText(timesheetTotal);
    await shotsAtWidths(page, 'realtime-idle');

    const started = await theirs.request.post(`${ws}/timer/start`, {
      data: { projectId: atlas.id, note: 'Live pairing' },
    });
    expect(started.status()).toBe(201);
    const row = page.getByTestId('tracking-row').filter({ hasText: 'Mia Member' });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Atlas');
    await expect(row).toContainText('Live pairing');
    await expect(idle).toHaveCount(0);
    const duration = row.getByTestId('running-duration');
    const first = (await duration.textContent()) ?? '';
    await expect(duration).not.toHaveText(first);
    await expect(page.getByTestId('tracking-count')).toHaveText('1');
    await expectNoSeriousViolations(page, 'real-time dashboard');
    await shotsAtWidths(page, 'realtime-tracking');

    // The owner's dashboard lists her as tracking now, ticking too.
    await page.goto('/homepage/dashboard');
    await expect(page.getByTestId('team-tracking-now')).toContainText('Mia Member');
    await shotsAtWidths(page, 'dashboard-owner');

    // Stopped from elsewhere: she leaves "Tracking now" without a reload.
    await page.goto('/homepage/reports/real-time-dashboard');
    await expect(row).toBeVisible();
    const stopped = await theirs.request.post(`${ws}/timer/stop`, { data: {} });
    expect(stopped.status()).toBe(200);
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('nobody-tracking')).toBeVisible();
    await expect(idle).toBeVisible();

    // Mia, a member, sees only herself there: the API scopes the running timers and the totals.
    await mia.goto('/homepage/reports/real-time-dashboard');
    await expect(mia.getByTestId('idle-row')).toHaveCount(1);
    await expect(mia.getByTestId('idle-row')).toContainText('Mia Member');
    await expect(mia.getByText('Olive Owner')).toHaveCount(0);
    await theirs.close();
  });
});
