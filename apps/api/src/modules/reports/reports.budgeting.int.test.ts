import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

/**
 * The budgeting reports: billable / unbillable / invoiced measures and the invoiced dimension,
 * revenues, costs and margins under money visibility, and Estimates (budgets against what the
 * engine counts), each figure checked against a direct computation over the entries.
 */
const ctx = useTestApp();
let owner: SignedUp;
let member: SignedUp;
let ws: string;
const { ok, call: as } = workspaceCalls(ctx, () => ws);
const ids = {} as Record<'alpha' | 'beta' | 'design' | 'sketch' | 'invoicedEntry', string>;

const RANGE = 'preset=custom&from=2026-09-01&to=2026-10-31&timeZone=UTC';
const END = new Date('2026-11-01T00:00:00Z');

/** What the entries table says directly: seconds and copied billable amounts of the matching entries. */
async function direct(where: { project: string; tasks?: string[]; users?: string[]; from?: Date; to?: Date }) {
  const { rows } = await sql<{ seconds: string | null; cents: string | null }>`
    select sum(duration_seconds) as seconds, sum(case when billable then (billable_rate_cents::bigint * duration_seconds + 1800) / 3600 else 0 end) as cents
    from time_entries
    where workspace_id = ${owner.workspaceId} and project_id = ${where.project}
      and start_at < ${where.to ?? END} and start_at >= ${where.from ?? new Date('2000-01-01T00:00:00Z')}
      ${where.tasks ? sql`and task_id in (${sql.join(where.tasks)})` : sql``}
      ${where.users ? sql`and user_id in (${sql.join(where.users)})` : sql``}`.execute(ctx.t.db);
  return { seconds: Number(rows[0]?.seconds ?? 0), cents: Number(rows[0]?.cents ?? 0) };
}

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  member = await signUp(ctx.t.app);
  await membersRepository.add(ctx.t.db, {
    workspaceId: owner.workspaceId,
    userId: member.userId,
    role: 'member',
  });
  await ok(owner, 'POST', '/rates', {
    level: 'workspace',
    effectiveFrom: '2026-01-01',
    billableCents: 10_000,
    costCents: 4_000,
  });
  ids.alpha = (
    await ok(owner, 'POST', '/projects', {
      name: 'Alpha',
      isPublic: true,
      budget: { type: 'hours', amount: 180, resetsMonthly: false },
    })
  ).id;
  ids.beta = (
    await ok(owner, 'POST', '/projects', {
      name: 'Beta',
      isPublic: true,
      budget: { type: 'fee', amount: 20_000, resetsMonthly: true },
    })
  ).id;
  ids.design = (
    await ok(owner, 'POST', `/projects/${ids.alpha}/tasks`, {
      name: 'Design',
      budget: { type: 'hours', amount: 60, resetsMonthly: false },
    })
  ).id;
  ids.sketch = (
    await ok(owner, 'POST', `/projects/${ids.alpha}/tasks`, { name: 'Sketch', parentTaskId: ids.design })
  ).id;
  const entry = async (who: SignedUp, body: object) =>
    (await ok(owner, 'POST', '/time-entries', { userId: who.userId, ...body })).id as string;
  // Before the range: counts against Alpha's budget over its life, not in the range's reports.
  await entry(member, {
    start: '2026-08-15T09:00:00Z',
    end: '2026-08-15T10:00:00Z',
    projectId: ids.alpha,
    taskId: ids.sketch,
    billable: true,
  });
  ids.invoicedEntry = await entry(owner, {
    start: '2026-09-02T09:00:00Z',
    end: '2026-09-02T11:00:00Z',
    projectId: ids.alpha,
    taskId: ids.design,
    billable: true,
  });
  await entry(member, { start: '2026-09-03T09:00:00Z', end: '2026-09-03T09:30:00Z', projectId: ids.alpha });
  await entry(owner, {
    start: '2026-09-10T09:00:00Z',
    end: '2026-09-10T10:30:00Z',
    projectId: ids.beta,
    billable: true,
  });
  await entry(owner, {
    start: '2026-10-01T09:00:00Z',
    end: '2026-10-01T11:00:00Z',
    projectId: ids.beta,
    billable: true,
  });
  await ok(owner, 'POST', '/reports/invoiced', { invoiced: true, ids: [ids.invoicedEntry] });
});

const BILLING = 'trackedSeconds,billableSeconds,unbillableSeconds,invoicedSeconds,uninvoicedSeconds';
const BILLING_MONEY = 'billableAmount,invoicedAmount,uninvoicedAmount,costAmount,margin';

describe('billable, unbillable and invoiced', () => {
  it('splits tracked time into billable and unbillable, billable into invoiced and not, with amounts', async () => {
    const report = await ok(
      owner,
      'GET',
      `/reports/summary?${RANGE}&groupBy=project&measures=${BILLING},${BILLING_MONEY}`,
    );
    expect(report.totals).toEqual({
      trackedSeconds: 7200 + 1800 + 5400 + 7200,
      billableSeconds: 7200 + 5400 + 7200,
      unbillableSeconds: 1800,
      invoicedSeconds: 7200,
      uninvoicedSeconds: 5400 + 7200,
      billableAmount: 20_000 + 15_000 + 20_000,
      invoicedAmount: 20_000,
      uninvoicedAmount: 35_000,
      costAmount: 4_000 * 6,
      margin: 55_000 - 24_000,
    });
    const alpha = report.groups.find((g: { key: { key: string } }) => g.key.key === ids.alpha);
    const fromTable = await direct({ project: ids.alpha, from: new Date('2026-09-01T00:00:00Z') });
    expect([alpha.measures.trackedSeconds, alpha.measures.billableAmount]).toEqual([
      fromTable.seconds,
      fromTable.cents,
    ]);
  });

  it('groups by invoiced, and the invoiced filter agrees with it', async () => {
    const report = await ok(owner, 'GET', `/reports/summary?${RANGE}&groupBy=invoiced&measures=trackedSeconds`);
    expect(
      report.groups.map((g: { key: { key: string; label: string }; measures: { trackedSeconds: number } }) => [
        g.key.label,
        g.measures.trackedSeconds,
      ]),
    ).toEqual([
      ['Invoiced', 7200],
      ['Not invoiced', 14_400],
    ]);
    const filtered = await ok(owner, 'GET', `/reports/summary?${RANGE}&invoiced=true&measures=trackedSeconds`);
    expect(filtered.totals.trackedSeconds).toBe(7200);
  });

  it('revenues, costs and margins follow money visibility: a member is refused until the workspace shows members their own billable amounts', async () => {
    const revenue = `/reports/summary?${RANGE}&groupBy=month&measures=billableAmount`;
    const refused = await as(member, 'GET', revenue);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('money_forbidden');
    expect((await as(member, 'GET', `/reports/summary?${RANGE}&measures=invoicedAmount`)).statusCode).toBe(403);
    // The time figures stay the member's to see.
    expect((await ok(member, 'GET', `/reports/summary?${RANGE}&measures=${BILLING}`)).totals.trackedSeconds).toBe(1800);

    await ok(owner, 'PATCH', '/rates/settings', { membersSeeOwnBillable: true });
    try {
      expect((await ok(member, 'GET', revenue)).totals).toEqual({ billableAmount: 0 });
      const cost = await as(member, 'GET', `/reports/summary?${RANGE}&measures=costAmount`);
      expect([cost.statusCode, cost.json().error.code]).toEqual([403, 'money_forbidden']);
      expect(
        (await as(member, 'GET', `/reports/matrix?${RANGE}&rows=user&columns=month&measures=margin`)).statusCode,
      ).toBe(403);
    } finally {
      await ok(owner, 'PATCH', '/rates/settings', { membersSeeOwnBillable: false });
    }
  });
});

interface Estimate {
  projectId: string;
  projectName: string;
  taskName: string | null;
  taskId: string | null;
  type: 'hours' | 'fee';
  month: string | null;
  budget: number | null;
  used: number | null;
  remaining: number | null;
  percent: number | null;
  status: string;
}
const estimates = async (who: SignedUp, q = '') =>
  (await ok(who, 'GET', `/reports/estimates?${RANGE}${q}`)) as { items: Estimate[]; moneyHidden: boolean };

describe('estimates', () => {
  it('sets each budget against the engine: over the life up to the range end, a task with its subtasks, a monthly fee per month', async () => {
    const report = await estimates(owner);
    expect(report.moneyHidden).toBe(false);
    const alpha = await direct({ project: ids.alpha });
    const design = await direct({ project: ids.alpha, tasks: [ids.design, ids.sketch] });
    const betaSep = await direct({
      project: ids.beta,
      from: new Date('2026-09-01T00:00:00Z'),
      to: new Date('2026-10-01T00:00:00Z'),
    });
    const betaOct = await direct({ project: ids.beta, from: new Date('2026-10-01T00:00:00Z') });
    expect([alpha.seconds, design.seconds, betaSep.cents, betaOct.cents]).toEqual([12_600, 10_800, 15_000, 20_000]);
    const rows = report.items.map((i) => [
      i.projectName,
      i.taskName,
      i.type,
      i.month,
      i.budget,
      i.used,
      i.remaining,
      i.percent,
      i.status,
    ]);
    expect(rows).toEqual([
      ['Alpha', null, 'hours', null, 10_800, alpha.seconds, 10_800 - alpha.seconds, 116.7, 'over'],
      ['Alpha', 'Design', 'hours', null, 3_600, design.seconds, 3_600 - design.seconds, 300, 'over'],
      ['Beta', null, 'fee', '2026-09', 20_000, betaSep.cents, 5_000, 75, 'ok'],
      ['Beta', null, 'fee', '2026-10', 20_000, betaOct.cents, 0, 100, 'near'],
    ]);
  });

  it('ends a budget’s count with the range: last year’s range shows nothing used yet', async () => {
    const report = (await ok(
      owner,
      'GET',
      '/reports/estimates?preset=custom&from=2026-08-01&to=2026-08-31&timeZone=UTC',
    )) as { items: Estimate[] };
    const alpha = report.items.find((i) => i.projectId === ids.alpha && i.taskId === null);
    expect(alpha?.used).toBe((await direct({ project: ids.alpha, to: new Date('2026-09-01T00:00:00Z') })).seconds);
    expect(report.items.filter((i) => i.projectId === ids.beta).map((i) => [i.month, i.used])).toEqual([
      ['2026-08', 0],
    ]);
  });

  it('is near from the budget’s own lowest threshold below 100 %, and never near without one', async () => {
    const betaMonths = async () =>
      (await estimates(owner, `&projects=${ids.beta}`)).items.map((i) => [i.month, i.percent, i.status]);
    const setBeta = (alertPercents: number[]) =>
      ok(owner, 'PATCH', `/projects/${ids.beta}`, {
        budget: { type: 'fee', amount: 20_000, resetsMonthly: true, alertPercents },
      });
    try {
      await setBeta([50, 100]);
      expect(await betaMonths()).toEqual([
        ['2026-09', 75, 'near'],
        ['2026-10', 100, 'near'],
      ]);
      await setBeta([100]);
      expect(await betaMonths()).toEqual([
        ['2026-09', 75, 'ok'],
        ['2026-10', 100, 'ok'],
      ]);
    } finally {
      await setBeta([80, 100]);
    }
    expect((await betaMonths()).map((m) => m[2])).toEqual(['ok', 'near']);
  });

  it('filters by project, and counts only what the filters keep', async () => {
    const onlyBeta = await estimates(owner, `&projects=${ids.beta}`);
    expect(new Set(onlyBeta.items.map((i) => i.projectId))).toEqual(new Set([ids.beta]));
    const notBillable = await estimates(owner, `&projects=${ids.alpha}&billable=false`);
    expect(notBillable.items.find((i) => i.taskId === null)?.used).toBe(1800);
  });

  it('shows a member their own time against hour budgets and leaves fee figures out without money access', async () => {
    const report = await estimates(member);
    expect(report.moneyHidden).toBe(true);
    const own = await direct({ project: ids.alpha, users: [member.userId] });
    expect(report.items.find((i) => i.projectId === ids.alpha && i.taskId === null)?.used).toBe(own.seconds);
    for (const fee of report.items.filter((i) => i.type === 'fee'))
      expect(fee).toMatchObject({ budget: null, used: null, remaining: null, percent: null, status: 'hidden' });
  });

  it('answers 404 for another workspace and lists nothing for its project ids', async () => {
    const stranger = await signUp(ctx.t.app);
    const response = await ctx.call('GET', `${ws}/reports/estimates?${RANGE}`, stranger.cookie);
    expect(response.statusCode).toBe(404);
    const foreign = (
      await ctx.call('POST', `/api/v1/workspaces/${stranger.workspaceId}/projects`, stranger.cookie, {
        name: 'Theirs',
        budget: { type: 'hours', amount: 60, resetsMonthly: false },
      })
    ).json().id;
    expect((await estimates(owner, `&projects=${foreign}`)).items).toEqual([]);
  });

  it('puts a monthly budget’s months in the report’s time zone (the last evening of September UTC is October in Paris)', async () => {
    const gamma = (
      await ok(owner, 'POST', '/projects', {
        name: 'Gamma',
        isPublic: true,
        budget: { type: 'fee', amount: 50_000, resetsMonthly: true },
      })
    ).id;
    await ok(owner, 'POST', '/time-entries', {
      start: '2026-09-30T22:30:00Z',
      end: '2026-09-30T23:30:00Z',
      projectId: gamma,
      billable: true,
    });
    const months = async (zone: string) =>
      (
        (await ok(
          owner,
          'GET',
          `/reports/estimates?preset=custom&from=2026-09-01&to=2026-10-31&timeZone=${zone}&projects=${gamma}`,
        )) as { items: Estimate[] }
      ).items.map((i) => [i.month, i.used]);
    expect(await months('UTC')).toEqual([
      ['2026-09', 10_000],
      ['2026-10', 0],
    ]);
    expect(await months('Europe/Paris')).toEqual([
      ['2026-09', 0],
      ['2026-10', 10_000],
    ]);
  });

  it('refuses a bad range with a message', async () => {
    const response = await as(owner, 'GET', '/reports/estimates?preset=custom&from=2026-10-01&to=2026-09-01');
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toMatch(/range/i);
  });
});
