import { effectivePermissions, FEATURES, type Feature, featureLockedMessage, type PlanId } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { type SignedUp, signUp, type TestApp, useTestApp } from '../../test/harness.js';
import { membersRepository } from '../modules/members/members.repository.js';

/**
 * Plan gating: every route of a paid feature, walked on a Free workspace whose trial has ended
 * (403 plan_limit_reached naming the plan), on the trial, on the plan that includes it (Basic vs
 * Pro), and with BILLING=off; and a Free workspace keeps its data, its managers acting as members.
 */
const billed = useTestApp();
const selfHosted = useTestApp({ BILLING: 'off' });

const RANGE = 'preset=custom&from=2026-01-01&to=2026-01-31&timeZone=UTC';
const DAY = 86_400_000;

interface Setup {
  owner: SignedUp;
  ws: string;
  projectId: string;
  taskId: string;
  memberId: string;
  savedReportId: string;
  rateId: string;
  csvPath: string;
  /** Two periods the member submitted, waiting for approval. */
  submittedIds: string[];
  /** Client invoices: a draft (edited, then issued, sent, paid), an issued one (voided), a draft to delete, time left unbilled. */
  invoice: { draft: string; issued: string; doomed: string; unbilled: object };
  tagListId: string;
  roleId: string;
}

/** A workspace with something of every gated feature, made on its trial (which has them all). */
async function setUp(t: TestApp): Promise<Setup> {
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, cookie: string, body?: object) =>
    t.app.inject({ method, url, payload: body, headers: { cookie } });
  const owner = await signUp(t.app);
  const ws = `/api/v1/workspaces/${owner.workspaceId}`;
  const ok = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: object) => {
    const response = await call(method, `${ws}${url}`, owner.cookie, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  const project = await ok('POST', '/projects', { name: 'Website', budget: { type: 'hours', amount: 600 } });
  const task = await ok('POST', `/projects/${project.id}/tasks`, { name: 'Design' });
  const member = await signUp(t.app);
  await membersRepository.add(t.db, { workspaceId: owner.workspaceId, userId: member.userId, role: 'member' });
  const saved = await ok('POST', '/saved-reports', { name: 'Hours', kind: 'summary', query: RANGE });
  await ok('PUT', `/saved-reports/${saved.id}/schedule`, weekly);
  const rate = await ok('POST', '/rates', { level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 100_00 });
  const link = await ok('POST', `/saved-reports/${saved.id}/csv-link`, {});
  const submittedIds: string[] = [];
  for (const day of ['2026-01-05', '2026-01-12']) {
    const submitted = await call('POST', `${ws}/approvals`, member.cookie, { day });
    expect(submitted.statusCode, submitted.body).toBe(201);
    submittedIds.push(submitted.json().id);
  }
  const client = await ok('POST', '/clients', { name: 'Invoiced' });
  const billed = await ok('POST', '/projects', { name: 'Billed', clientId: client.id });
  const days = ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08'];
  for (const day of days)
    await ok('POST', '/time-entries', {
      start: `${day}T10:00:00Z`,
      duration: '1h',
      projectId: billed.id,
      billable: true,
    });
  const range = (day: string) => ({ clientId: client.id, from: day, to: day, groupBy: 'project' });
  const [draft, issued, doomed] = await Promise.all(
    days.slice(0, 3).map((d) => ok('POST', '/client-invoices', range(d))),
  );
  await ok('POST', `/client-invoices/${issued.id}/issue`);
  const tagList = await ok('POST', '/tag-lists', { name: 'Phase' });
  const role = await ok('POST', '/roles', { ...REVIEWER, name: `Reviewer ${Math.random()}` });
  return {
    owner,
    ws,
    projectId: project.id,
    taskId: task.id,
    memberId: member.userId,
    savedReportId: saved.id,
    rateId: rate.id,
    csvPath: link.path,
    submittedIds,
    invoice: { draft: draft.id, issued: issued.id, doomed: doomed.id, unbilled: range('2026-01-08') },
    tagListId: tagList.id,
    roleId: role.id,
  };
}

/** A custom role: a Regular user who also sees others' time. */
const REVIEWER = { name: 'Reviewer', baseRole: 'member', permissions: ['time:track', 'time:view_others'] };

const weekly = {
  frequency: 'weekly',
  weekday: 1,
  hour: 8,
  timeZone: 'UTC',
  format: 'csv',
  recipientEmails: ['boss@example.com'],
};

/** Puts the workspace on a plan; `trial` false ends the trial (yesterday). */
async function putOn(t: TestApp, workspaceId: string, plan: PlanId, trial = false) {
  await t.db
    .updateTable('workspaces')
    .set({ plan, licenses: 50, trial_ends_at: new Date(Date.now() + (trial ? 7 : -1) * DAY) })
    .where('id', '=', workspaceId)
    .execute();
}

interface GatedRoute {
  feature: Feature;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: (s: Setup) => string;
  body?: (s: Setup) => object;
  /** Signed out: the public CSV link. */
  anonymous?: boolean;
}

/** Every route a plan gates today (the list docs/architecture.md, "Plan gating", gives). */
const GATED: GatedRoute[] = [
  // Exports (Basic)
  {
    feature: 'export',
    method: 'GET',
    url: (s) => `${s.ws}/reports/export?kind=summary&format=csv&groupBy=project&${RANGE}`,
  },
  {
    feature: 'export',
    method: 'POST',
    url: (s) => `${s.ws}/reports/export-jobs`,
    body: () => ({ query: `kind=detailed&${RANGE}`, format: 'csv' }),
  },
  // Before a new CSV link replaces the one the setup made.
  { feature: 'export', method: 'GET', url: (s) => s.csvPath, anonymous: true },
  {
    feature: 'export',
    method: 'POST',
    url: (s) => `${s.ws}/saved-reports/${s.savedReportId}/csv-link`,
    body: () => ({}),
  },
  {
    feature: 'export',
    method: 'PUT',
    url: (s) => `${s.ws}/saved-reports/${s.savedReportId}/schedule`,
    body: () => weekly,
  },
  { feature: 'export', method: 'POST', url: (s) => `${s.ws}/saved-reports/${s.savedReportId}/schedule/resume` },
  { feature: 'export', method: 'POST', url: (s) => `${s.ws}/saved-reports/${s.savedReportId}/schedule/send` },
  // Budgets and the Estimates report (Basic)
  {
    feature: 'budgets',
    method: 'POST',
    url: (s) => `${s.ws}/projects`,
    body: () => ({ name: `Budgeted ${Math.random()}`, budget: { type: 'fee', amount: 100_000 } }),
  },
  {
    feature: 'budgets',
    method: 'PATCH',
    url: (s) => `${s.ws}/projects/${s.projectId}`,
    body: () => ({ budget: { type: 'hours', amount: 1200 } }),
  },
  {
    feature: 'budgets',
    method: 'POST',
    url: (s) => `${s.ws}/projects/${s.projectId}/tasks`,
    body: () => ({ name: `Task ${Math.random()}`, budget: { type: 'hours', amount: 60 } }),
  },
  {
    feature: 'budgets',
    method: 'PATCH',
    url: (s) => `${s.ws}/tasks/${s.taskId}`,
    body: () => ({ budget: { type: 'hours', amount: 120 } }),
  },
  { feature: 'budgets', method: 'GET', url: (s) => `${s.ws}/reports/estimates?${RANGE}` },
  // Management roles (Basic)
  {
    feature: 'management_roles',
    method: 'PATCH',
    url: (s) => `${s.ws}/members/${s.memberId}`,
    body: () => ({ role: 'manager' }),
  },
  {
    feature: 'management_roles',
    method: 'POST',
    url: (s) => `${s.ws}/members/bulk`,
    body: (s) => ({ userIds: [s.memberId], role: 'manager' }),
  },
  {
    feature: 'management_roles',
    method: 'POST',
    url: (s) => `${s.ws}/invites`,
    body: () => ({ emails: [`boss.${Math.random()}@example.com`], role: 'manager' }),
  },
  // Billing rates and labour costs (Pro)
  {
    feature: 'billing_rates',
    method: 'PATCH',
    url: (s) => `${s.ws}/rates/settings`,
    body: () => ({ currency: 'EUR' }),
  },
  { feature: 'billing_rates', method: 'GET', url: (s) => `${s.ws}/rates?level=workspace` },
  {
    feature: 'billing_rates',
    method: 'POST',
    url: (s) => `${s.ws}/rates`,
    body: () => ({ level: 'workspace', effectiveFrom: '2026-02-01', billableCents: 120_00 }),
  },
  {
    feature: 'billing_rates',
    method: 'POST',
    url: (s) => `${s.ws}/rates/reapply/preview`,
    body: () => ({ level: 'workspace', from: '2026-01-01', to: '2026-12-31' }),
  },
  {
    feature: 'billing_rates',
    method: 'POST',
    url: (s) => `${s.ws}/rates/reapply`,
    body: () => ({ level: 'workspace', from: '2026-01-01', to: '2026-12-31' }),
  },
  { feature: 'billing_rates', method: 'DELETE', url: (s) => `${s.ws}/rates/${s.rateId}` },
  {
    feature: 'billing_rates',
    method: 'GET',
    url: (s) => `${s.ws}/reports/summary?${RANGE}&groupBy=month&measures=billableAmount`,
  },
  {
    feature: 'billing_rates',
    method: 'GET',
    url: (s) => `${s.ws}/reports/summary?${RANGE}&groupBy=month&measures=costAmount`,
  },
  {
    feature: 'billing_rates',
    method: 'GET',
    url: (s) => `${s.ws}/reports/summary?${RANGE}&groupBy=month&measures=margin`,
  },
  {
    feature: 'billing_rates',
    method: 'GET',
    url: (s) => `${s.ws}/reports/matrix?${RANGE}&rows=user&columns=month&measures=billableAmount`,
  },
  // Approvals (Pro): withdrawing stays open to every plan, so a workspace that left Pro can unlock time.
  {
    feature: 'approvals',
    method: 'PUT',
    url: (s) => `${s.ws}/approvals/settings`,
    body: () => ({ period: 'week', approverRule: 'managers_and_admins', lockDate: '2025-12-01' }),
  },
  { feature: 'approvals', method: 'POST', url: (s) => `${s.ws}/approvals`, body: () => ({ day: '2026-02-02' }) },
  {
    feature: 'approvals',
    method: 'POST',
    url: (s) => `${s.ws}/approvals/${s.submittedIds[0]}/approve`,
    body: () => ({}),
  },
  {
    feature: 'approvals',
    method: 'POST',
    url: (s) => `${s.ws}/approvals/${s.submittedIds[1]}/reject`,
    body: () => ({ comment: 'Monday is missing' }),
  },
  // Client invoices (Pro)
  { feature: 'invoicing', method: 'GET', url: (s) => `${s.ws}/client-invoice-settings` },
  {
    feature: 'invoicing',
    method: 'PUT',
    url: (s) => `${s.ws}/client-invoice-settings`,
    body: () => ({ paymentDetails: 'IBAN XX00' }),
  },
  { feature: 'invoicing', method: 'GET', url: (s) => `${s.ws}/client-invoices` },
  {
    feature: 'invoicing',
    method: 'POST',
    url: (s) => `${s.ws}/client-invoices/preview`,
    body: (s) => s.invoice.unbilled,
  },
  { feature: 'invoicing', method: 'GET', url: (s) => `${s.ws}/client-invoices/${s.invoice.draft}` },
  {
    feature: 'invoicing',
    method: 'PATCH',
    url: (s) => `${s.ws}/client-invoices/${s.invoice.draft}`,
    body: () => ({ notes: 'Thanks' }),
  },
  { feature: 'invoicing', method: 'POST', url: (s) => `${s.ws}/client-invoices/${s.invoice.draft}/issue` },
  { feature: 'invoicing', method: 'POST', url: (s) => `${s.ws}/client-invoices/${s.invoice.draft}/mark-sent` },
  {
    feature: 'invoicing',
    method: 'POST',
    url: (s) => `${s.ws}/client-invoices/${s.invoice.draft}/mark-paid`,
    body: () => ({ paidOn: '2026-02-01' }),
  },
  { feature: 'invoicing', method: 'GET', url: (s) => `${s.ws}/client-invoices/${s.invoice.issued}/pdf` },
  {
    feature: 'invoicing',
    method: 'POST',
    url: (s) => `${s.ws}/client-invoices/${s.invoice.issued}/send`,
    body: () => ({ to: ['client@example.com'] }),
  },
  { feature: 'invoicing', method: 'POST', url: (s) => `${s.ws}/client-invoices/${s.invoice.issued}/void` },
  { feature: 'invoicing', method: 'DELETE', url: (s) => `${s.ws}/client-invoices/${s.invoice.doomed}` },
  {
    feature: 'invoicing',
    method: 'POST',
    url: (s) => `${s.ws}/client-invoices`,
    body: (s) => s.invoice.unbilled,
  },
  // Advanced tags (Pro): turning a rule on; turning them all off is allowed on every plan.
  {
    feature: 'advanced_tags',
    method: 'PUT',
    url: (s) => `${s.ws}/tag-lists/${s.tagListId}/rules`,
    body: (s) => ({ exclusive: true, projectIds: [s.projectId], requiredProjectIds: [] }),
  },
  {
    feature: 'advanced_tags',
    method: 'PUT',
    url: (s) => `${s.ws}/projects/${s.projectId}/required-tag-lists`,
    body: (s) => ({ tagListIds: [s.tagListId] }),
  },
  // Workspace single sign-on (Pro, issue 18)
  {
    feature: 'sso',
    method: 'PUT',
    url: (s) => `${s.ws}/sso`,
    body: () => ({
      protocol: 'saml',
      entryPoint: 'https://idp.example.com/sso',
      idpIssuer: 'https://idp.example.com',
      idpCertificate: `-----BEGIN CERTIFICATE-----\n${'A'.repeat(200)}\n-----END CERTIFICATE-----`,
    }),
  },
  { feature: 'sso', method: 'POST', url: (s) => `${s.ws}/sso/domains`, body: () => ({ domain: 'corp.example.org' }) },
  // Two-factor authentication (Pro): requiring it of members. A person's own 2FA is never gated.
  { feature: 'two_factor', method: 'PUT', url: (s) => `${s.ws}/two-factor-policy`, body: () => ({ required: false }) },
];

GATED.push(
  // Custom roles (Pro): defining, changing and giving them; reading and deleting stay open.
  {
    feature: 'custom_roles',
    method: 'POST',
    url: (s) => `${s.ws}/roles`,
    body: () => ({ ...REVIEWER, name: `R ${Math.random()}` }),
  },
  { feature: 'custom_roles', method: 'PUT', url: (s) => `${s.ws}/roles/${s.roleId}`, body: () => REVIEWER },
  {
    feature: 'custom_roles',
    method: 'PUT',
    url: (s) => `${s.ws}/members/${s.memberId}/custom-role`,
    body: (s) => ({ customRoleId: s.roleId }),
  },
  // SCIM provisioning rides with SSO (Pro): a new token; the SCIM API itself refuses such a workspace's token.
  { feature: 'sso', method: 'POST', url: (s) => `${s.ws}/scim-token` },
);

const label = (r: GatedRoute) =>
  `${r.method} ${r.url({ ws: '/api/v1/workspaces/:id', savedReportId: ':report', projectId: ':project', taskId: ':task', memberId: ':member', rateId: ':rate', submittedIds: [':approval', ':approval'], invoice: { draft: ':draft', issued: ':issued', doomed: ':doomed', unbilled: {} }, tagListId: ':list', roleId: ':role', csvPath: '/api/v1/public/reports/csv/:token.csv' } as Setup)}`;

async function walk(t: TestApp, setup: Setup, features: readonly Feature[]) {
  for (const route of GATED) {
    const response = await t.app.inject({
      method: route.method,
      url: route.url(setup),
      payload: route.body?.(setup),
      headers: route.anonymous ? {} : { cookie: setup.owner.cookie },
    });
    const name = `${label(route)} (${route.feature}): ${response.body.slice(0, 300)}`;
    if (features.includes(route.feature)) {
      expect(response.statusCode, name).toBeLessThan(300);
    } else {
      expect(response.statusCode, name).toBe(403);
      expect(response.json().error, name).toEqual({
        code: 'plan_limit_reached',
        message: featureLockedMessage(route.feature),
      });
    }
  }
}

const BASIC: Feature[] = ['export', 'budgets', 'management_roles'];
const ALL: Feature[] = [
  ...BASIC,
  'billing_rates',
  'approvals',
  'invoicing',
  'advanced_tags',
  'sso',
  'two_factor',
  'custom_roles',
];

describe('every gated route', () => {
  it('answers 403 plan_limit_reached on a Free workspace whose trial has ended', async () => {
    const setup = await setUp(billed.t);
    await putOn(billed.t, setup.owner.workspaceId, 'free');
    await walk(billed.t, setup, []);
  });

  it('works during the trial', async () => {
    const setup = await setUp(billed.t);
    await putOn(billed.t, setup.owner.workspaceId, 'free', true);
    await walk(billed.t, setup, ALL);
  });

  it('works on Basic for Basic features, and refuses Pro ones', async () => {
    const setup = await setUp(billed.t);
    await putOn(billed.t, setup.owner.workspaceId, 'basic');
    await walk(billed.t, setup, BASIC);
  });

  it('works on Pro', async () => {
    const setup = await setUp(billed.t);
    await putOn(billed.t, setup.owner.workspaceId, 'pro');
    await walk(billed.t, setup, ALL);
  });

  it('works on Free when billing is off', async () => {
    const setup = await setUp(selfHosted.t);
    await putOn(selfHosted.t, setup.owner.workspaceId, 'free');
    await walk(selfHosted.t, setup, ALL);
  });
});

describe('a workspace that drops to Free', () => {
  it('keeps its tag rules in force, and may turn them off but not on', async () => {
    const setup = await setUp(billed.t);
    const as = (method: 'POST' | 'PUT', url: string, body: object) =>
      billed.call(method, `${setup.ws}${url}`, setup.owner.cookie, body);
    const tags: string[] = [];
    for (const name of ['Design', 'Build'])
      tags.push((await as('POST', `/tag-lists/${setup.tagListId}/tags`, { name })).json().id);
    const pickOne = { exclusive: true, projectIds: [], requiredProjectIds: [] };
    expect((await as('PUT', `/tag-lists/${setup.tagListId}/rules`, pickOne)).statusCode).toBe(200);
    await putOn(billed.t, setup.owner.workspaceId, 'free');
    const entry = { start: '2026-01-05T09:00:00Z', end: '2026-01-05T10:00:00Z', tagIds: tags };
    expect((await as('POST', '/time-entries', entry)).json().error.message).toBe(
      'Pick only one tag from "Phase": "Design" and "Build" exclude each other.',
    );
    expect((await as('PUT', `/tag-lists/${setup.tagListId}/rules`, pickOne)).statusCode).toBe(403);
    const off = await as('PUT', `/tag-lists/${setup.tagListId}/rules`, { ...pickOne, exclusive: false });
    expect(off.json()).toMatchObject({ exclusive: false });
    expect((await as('POST', '/time-entries', entry)).statusCode).toBe(201);
    const none = await as('PUT', `/projects/${setup.projectId}/required-tag-lists`, { tagListIds: [] });
    expect(none.json()).toEqual({ tagListIds: [] });
  });

  it('keeps its data: budgets, rates and schedules stay stored and the project still shows its budget', async () => {
    const setup = await setUp(billed.t);
    await putOn(billed.t, setup.owner.workspaceId, 'free');
    const project = await billed.call('GET', `${setup.ws}/projects/${setup.projectId}`, setup.owner.cookie);
    expect(project.json().budget).toEqual({
      type: 'hours',
      amount: 600,
      resetsMonthly: false,
      alertPercents: [80, 100],
    });
    const rates = await billed.t.db
      .selectFrom('rates')
      .select('id')
      .where('workspace_id', '=', setup.owner.workspaceId)
      .execute();
    expect(rates.map((r) => r.id)).toEqual([setup.rateId]);
    const schedule = await billed.call(
      'GET',
      `${setup.ws}/saved-reports/${setup.savedReportId}/schedule`,
      setup.owner.cookie,
    );
    expect(schedule.json().schedule).not.toBeNull();
    // Taking a budget off is always allowed; a time report without money still runs.
    const off = await billed.call('PATCH', `${setup.ws}/projects/${setup.projectId}`, setup.owner.cookie, {
      budget: null,
    });
    expect(off.statusCode, off.body).toBe(200);
    const summary = await billed.call(
      'GET',
      `${setup.ws}/reports/summary?${RANGE}&groupBy=project`,
      setup.owner.cookie,
    );
    expect(summary.statusCode, summary.body).toBe(200);
  });

  it('has a custom role act as its base role, and group roles count for nothing, the roles kept', async () => {
    const setup = await setUp(billed.t);
    const { ws, owner, memberId, roleId } = setup;
    const given = await billed.call('PUT', `${ws}/members/${memberId}/custom-role`, owner.cookie, {
      customRoleId: roleId,
    });
    expect(given.statusCode, given.body).toBe(204);
    const member = await billed.t.db
      .selectFrom('memberships')
      .select('custom_role_id')
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(member.custom_role_id).toBe(roleId);
    await putOn(billed.t, owner.workspaceId, 'free');
    // Stored still, listed still, and back in force on Pro.
    const roles = await billed.call('GET', `${ws}/roles`, owner.cookie);
    expect(roles.json().items.map((r: { id: string; memberIds: string[] }) => [r.id, r.memberIds])).toEqual([
      [roleId, [memberId]],
    ]);
    const free = await billed.t.app.services.workspaces.getMembership(owner.workspaceId, memberId);
    expect(free.customRole).toBeNull();
    expect([...free.permissions]).toEqual([...effectivePermissions({ role: 'member', features: [] })]);
    await putOn(billed.t, owner.workspaceId, 'pro');
    const pro = await billed.t.app.services.workspaces.getMembership(owner.workspaceId, memberId);
    expect(pro.customRole?.id).toBe(roleId);
    expect([...pro.permissions].sort()).toEqual(['time:track', 'time:view_others', 'workspace:view']);
  });

  it('tells the web its features and that billing is on; off says billing is off and shows no trial', async () => {
    const setup = await setUp(billed.t);
    await putOn(billed.t, setup.owner.workspaceId, 'basic');
    const view = (await billed.call('GET', setup.ws, setup.owner.cookie)).json();
    expect(view).toMatchObject({ billing: true, purchasedPlan: 'basic', trialDaysLeft: 0 });
    expect(view.features).toEqual(['export', 'management_roles', 'budgets']);

    const own = await setUp(selfHosted.t);
    const me = (await selfHosted.call('GET', '/api/v1/me', own.owner.cookie)).json();
    expect(me.workspaces[0]).toMatchObject({ billing: false, trialDaysLeft: 0 });
    expect(me.workspaces[0].features).toEqual([...FEATURES]);
  });

  it('has its managers act as members until it upgrades, their role kept', async () => {
    const setup = await setUp(billed.t);
    const manager = await signUp(billed.t.app);
    await membersRepository.add(billed.t.db, {
      workspaceId: setup.owner.workspaceId,
      userId: manager.userId,
      role: 'manager',
    });
    const asManager = (method: 'GET' | 'POST', url: string, body?: object) =>
      billed.call(method, `${setup.ws}${url}`, manager.cookie, body);
    expect((await asManager('POST', '/projects', { name: 'On trial' })).statusCode).toBe(201);
    const secret = await billed.call('POST', `${setup.ws}/projects`, setup.owner.cookie, {
      name: 'Secret',
      isPublic: false,
    });
    const secretId = secret.json().id;
    expect((await asManager('GET', `/projects/${secretId}`)).statusCode).toBe(200);

    await putOn(billed.t, setup.owner.workspaceId, 'free');
    expect((await asManager('GET', '')).json()).toMatchObject({ role: 'member', assignedRole: 'manager' });
    const refused = await asManager('POST', '/projects', { name: 'On Free' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    // A member does not see private projects they are not assigned to, nor may have time on them.
    expect((await asManager('GET', `/projects/${secretId}`)).statusCode).toBe(404);
    const theirTime = { start: '2026-01-05T09:00:00Z', duration: '1h', projectId: secretId, userId: manager.userId };
    const onFree = await billed.call('POST', `${setup.ws}/time-entries`, setup.owner.cookie, theirTime);
    expect(onFree.statusCode, onFree.body).toBe(422);
    // The list shows the role as assigned; nothing was rewritten.
    const listed = await billed.call('GET', `${setup.ws}/members/${manager.userId}`, setup.owner.cookie);
    expect(listed.json().role).toBe('manager');
    const stored = await billed.t.db
      .selectFrom('memberships')
      .select('role')
      .where('workspace_id', '=', setup.owner.workspaceId)
      .where('user_id', '=', manager.userId)
      .executeTakeFirstOrThrow();
    expect(stored.role).toBe('manager');

    await putOn(billed.t, setup.owner.workspaceId, 'basic');
    expect((await asManager('GET', '')).json()).toMatchObject({ role: 'manager', assignedRole: 'manager' });
    expect((await asManager('POST', '/projects', { name: 'On Basic' })).statusCode).toBe(201);
    expect((await asManager('GET', `/projects/${secretId}`)).statusCode).toBe(200);
    const onBasic = await billed.call('POST', `${setup.ws}/time-entries`, setup.owner.cookie, theirTime);
    expect(onBasic.statusCode, onBasic.body).toBe(201);
    const projects = await billed.t.db
      .selectFrom('projects')
      .select('name')
      .where('workspace_id', '=', setup.owner.workspaceId)
      .execute();
    expect(projects.map((p) => p.name).sort()).toEqual(['Billed', 'On Basic', 'On trial', 'Secret', 'Website']);
  });
});

describe('seats', () => {
  it('are limited by the licenses when billing is on, and not at all when it is off', async () => {
    for (const [ctx, expected] of [
      [billed, 402],
      [selfHosted, 201],
    ] as const) {
      const owner = await signUp(ctx.t.app);
      await ctx.t.db
        .updateTable('workspaces')
        .set({ plan: 'basic', licenses: 1, trial_ends_at: null })
        .where('id', '=', owner.workspaceId)
        .execute();
      const invited = await ctx.call('POST', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie, {
        emails: [`seat.${Math.random()}@example.com`],
        role: 'member',
      });
      expect(invited.statusCode, invited.body).toBe(expected);
    }
  });
});
