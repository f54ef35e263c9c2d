import { sql } from 'kysely';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, createTestApp, joinWorkspace, type SignedUp, signUp, type TestApp } from '../../../test/harness.js';
import { attachSavedCard, passSecondStep } from '../../../test/payments.js';
import { type Inbox, recipients, startInbox } from '../../../test/smtp.js';
import { SANDBOX_TOKENS_PATH } from '../../platform/payments/sandbox.js';

/**
 * Renewals, dunning and the billing e-mails end to end: the hourly jobs run by the job runner on
 * a clock the tests move, the sandbox gateway's test cards, and a real SMTP inbox.
 */
let t: TestApp;
let inbox: Inbox;
let call: ReturnType<typeof caller>;
let clock = new Date('2026-03-10T12:00:00Z');

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp(
    { SMTP_URL: inbox.url, JOBS_ENABLED: 'false', SELLER_COUNTRY: 'IE', PUBLIC_URL: 'https://sundial.test' },
    { now: () => clock },
  );
  call = caller(t.app);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

const AMERICAN = {
  name: 'Acme Inc.',
  address: '1 Market St',
  city: 'San Francisco',
  postalCode: '94105',
  country: 'US',
};
const PRO_MONTHLY = { plan: 'pro', cycle: 'monthly', licenses: 1 };
const b = (owner: SignedUp, path = '') => `/api/v1/workspaces/${owner.workspaceId}/billing${path}`;

async function tokenOf(number: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: SANDBOX_TOKENS_PATH,
    payload: { number, expMonth: 12, expYear: 2030, cvc: '123', name: 'Ada Lovelace' },
  });
  if (response.statusCode !== 201) throw new Error(`tokenise: ${response.body}`);
  return response.json().id;
}

let keys = 0;
/** A new owner with billing details who bought Pro monthly (1 license, 10.00 USD) with a success card. */
async function payingOwner(): Promise<SignedUp> {
  const owner = await signUp(t.app);
  // Sign-up starts the trial on the real clock; this test's clock is elsewhere.
  await t.db
    .updateTable('workspaces')
    .set({ trial_ends_at: new Date(clock.getTime() + 14 * 86_400_000) })
    .where('id', '=', owner.workspaceId)
    .execute();
  const saved = await call('PUT', b(owner, '/details'), owner.cookie, AMERICAN);
  if (saved.statusCode !== 200) throw new Error(`details: ${saved.body}`);
  const response = await t.app.inject({
    method: 'POST',
    url: b(owner, '/checkout'),
    headers: { cookie: owner.cookie, 'idempotency-key': `renewals-${++keys}` },
    payload: { ...PRO_MONTHLY, paymentToken: await tokenOf('4242424242424242') },
  });
  if (response.statusCode !== 200) throw new Error(`checkout: ${response.body}`);
  return owner;
}

/** The card that attaches and then declines every charge, saved at the gateway (see attachSavedCard). */
const saveDecliningCard = async (owner: SignedUp) =>
  attachSavedCard(t, owner.workspaceId, await tokenOf('4000000000000341'));

/** Replaces the saved card as an owner does, through PUT …/billing/payment-method (and its second step when asked). */
async function replaceCard(owner: SignedUp, number: string) {
  const replaced = await call('PUT', b(owner, '/payment-method'), owner.cookie, {
    paymentToken: await tokenOf(number),
  });
  if (replaced.statusCode === 200) return replaced.json();
  if (replaced.statusCode !== 202) throw new Error(`replace card: ${replaced.body}`);
  await passSecondStep(t.app, replaced.json().nextActionUrl);
  const confirmed = await call('POST', b(owner, `/payment-method/${replaced.json().changeId}/confirm`), owner.cookie);
  if (confirmed.statusCode !== 200) throw new Error(`confirm card: ${confirmed.body}`);
  return confirmed.json();
}

/** Moves the clock and runs every due job, the mail deliveries among them. */
async function at(iso: string) {
  clock = new Date(iso);
  await t.app.services.jobs.drain();
  await t.app.services.jobs.drain();
}

const mailsTo = (owner: SignedUp, subject: RegExp): ParsedMail[] =>
  inbox.messages.filter((m) => recipients(m).includes(owner.email.toLowerCase()) && subject.test(m.subject ?? ''));
/** Receipts of renewals (a purchase's receipt thanks for it instead). */
const renewalReceipts = (owner: SignedUp) => mailsTo(owner, /^Receipt/).filter((m) => m.text?.includes('was renewed'));
const chargesOf = async (workspaceId: string) => {
  const row = await t.db
    .selectFrom('payment_sandbox_charges as c')
    .innerJoin('subscriptions as s', 's.gateway_customer_id', 'c.customer_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('s.workspace_id', '=', workspaceId)
    .where('c.kind', '=', 'charge')
    .executeTakeFirstOrThrow();
  return row.n;
};
const subscriptionOf = (workspaceId: string) =>
  t.db
    .selectFrom('subscriptions')
    .select(['status', 'dunning_attempts', 'next_retry_at', 'plan'])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();

describe('renewals and dunning (jobs billing.renewals and billing.trial-reminders)', () => {
  it('goes trial -> paid -> more seats -> renewal -> failed renewal -> Free, to the cent, with its invoices and e-mails', async () => {
    // The tests move one clock forward, so this earliest one comes first. Its year is its own, so its
    // invoices are the whole series and their numbers can be asserted; a past one, as the outbox's
    // purge compares this clock with rows written on the real one.
    clock = new Date('2025-01-10T12:00:00Z');
    const owner = await signUp(t.app);
    await t.db
      .updateTable('workspaces')
      .set({ trial_ends_at: new Date(clock.getTime() + 14 * 86_400_000) })
      .where('id', '=', owner.workspaceId)
      .execute();
    const IRISH = {
      name: 'Aoife Byrne',
      address: '1 Main Street',
      city: 'Dublin',
      postalCode: 'D02 X285',
      country: 'IE',
    };
    expect((await call('PUT', b(owner, '/details'), owner.cookie, IRISH)).statusCode).toBe(200);
    expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({ isTrial: true, effectivePlan: 'pro' });
    const pay = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: b(owner, '/checkout'),
        headers: { cookie: owner.cookie, 'idempotency-key': `chain-${++keys}` },
        payload,
      });

    // Trial -> Pro monthly, 3 licenses: 3 x 10.00 + 23% Irish VAT.
    const bought = await pay({
      plan: 'pro',
      cycle: 'monthly',
      licenses: 3,
      paymentToken: await tokenOf('4242424242424242'),
    });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().invoice).toMatchObject({
      number: 'SUN-2025-000001',
      periodStart: '2025-01-10',
      periodEnd: '2025-02-10',
      licenses: 3,
      netCents: 3000,
      vatCents: 690,
      grossCents: 3690,
      lines: [{ quantity: 3, unitCents: 1000, amountCents: 3000 }],
    });
    await at('2025-01-10T13:00:00Z');
    expect(mailsTo(owner, /^Plan changed/).map((m) => m.text)).toEqual([
      expect.stringContaining(
        'Pro, monthly, 3 licenses now, paid until 2025-02-10. Invoice SUN-2025-000001, total 36.90 USD.',
      ),
    ]);

    // Mid-period, 3 -> 5 licenses with the saved card: 16 of 31 days left, prorated to the cent.
    // Credit 3000 x 16/31 = 1548.39 -> 1548; charge 5000 x 16/31 = 2580.65 -> 2581; net 1033; VAT 237.59 -> 238.
    clock = new Date('2025-01-25T09:00:00Z');
    const more = await pay({ plan: 'pro', cycle: 'monthly', licenses: 5 });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json().invoice).toMatchObject({
      number: 'SUN-2025-000002',
      periodStart: '2025-01-10',
      periodEnd: '2025-02-10',
      licenses: 5,
      netCents: 1033,
      vatCents: 238,
      grossCents: 1271,
    });
    expect(more.json().invoice.lines.map((l: { amountCents: number }) => l.amountCents)).toEqual([-1548, 2581]);
    await at('2025-01-25T10:00:00Z');
    expect(mailsTo(owner, /^Plan changed/)).toHaveLength(2);
    expect(mailsTo(owner, /^Plan changed/)[1]?.text).toContain(
      'Pro, monthly, 5 licenses now, paid until 2025-02-10. Invoice SUN-2025-000002, total 12.71 USD.',
    );
    expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({ licenses: 5, seats: { limit: 5 } });

    // A new billing address before the renewal: on the renewal's invoice, not on the earlier ones.
    const moved = await call('PUT', b(owner, '/details'), owner.cookie, { ...IRISH, address: '2 Grand Canal Dock' });
    expect(moved.statusCode, moved.body).toBe(200);

    // The renewal charges 5 licenses for the next month and mails the receipt with the PDF.
    await at('2025-02-10T06:00:00Z');
    await at('2025-02-10T07:00:00Z');
    const invoices = (await call('GET', b(owner, '/invoices'), owner.cookie)).json().items;
    expect(invoices[0]).toMatchObject({
      number: 'SUN-2025-000003',
      periodStart: '2025-02-10',
      periodEnd: '2025-03-10',
      licenses: 5,
      netCents: 5000,
      vatCents: 1150,
      grossCents: 6150,
      lines: [{ quantity: 5, unitCents: 1000, amountCents: 5000 }],
    });
    const receipt = renewalReceipts(owner);
    expect(receipt).toHaveLength(1);
    expect(receipt[0]?.subject).toContain('SUN-2025-000003');
    expect(receipt[0]?.text).toContain('Pro, monthly, 5 licenses, 2025-02-10 to 2025-03-10.');
    expect(receipt[0]?.text).toContain('total 61.50 USD, paid');
    expect(receipt[0]?.attachments[0]?.filename).toBe('SUN-2025-000003.pdf');
    expect(receipt[0]?.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    const addresses = await t.db
      .selectFrom('invoices')
      .select(['number', sql<string>`buyer->>'address'`.as('address')])
      .where('workspace_id', '=', owner.workspaceId)
      .orderBy('number')
      .execute();
    expect(addresses).toEqual([
      { number: 'SUN-2025-000001', address: '1 Main Street' },
      { number: 'SUN-2025-000002', address: '1 Main Street' },
      { number: 'SUN-2025-000003', address: '2 Grand Canal Dock' },
    ]);

    // The card is replaced through the route with one whose bank wants every payment confirmed
    // (no test card passes the $1.00 verification and then declines: 0341 fails it, see below).
    clock = new Date('2025-02-20T12:00:00Z');
    expect(await replaceCard(owner, '4000002760003184')).toMatchObject({ status: 'saved', card: { last4: '3184' } });

    // The next renewal fails off-session, and so do the retries on days 1, 3, 5, 7 and 14.
    await at('2025-03-10T06:00:00Z');
    await at('2025-03-10T09:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'past_due', dunning_attempts: 1 });
    expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({
      plan: 'pro',
      subscription: { status: 'past_due' },
    });
    const retries = [
      ['2025-03-11T06:00:00Z', 'We will try again on 2025-03-13.'],
      ['2025-03-13T06:00:00Z', 'We will try again on 2025-03-15.'],
      ['2025-03-15T06:00:00Z', 'We will try again on 2025-03-17.'],
      ['2025-03-17T06:00:00Z', 'We will try again on 2025-03-24.'],
      ['2025-03-24T06:00:00Z', 'This was the last try'],
    ] as const;
    expect(mailsTo(owner, /^Payment failed/).map((m) => m.text)).toEqual([
      expect.stringContaining('We will try again on 2025-03-11.'),
    ]);
    for (const [when, next] of retries) {
      await at(when);
      await at(when.replace('T06', 'T09'));
      const failed = mailsTo(owner, /^Payment failed/);
      expect(failed.at(-1)?.text).toContain('The renewal of');
      expect(failed.at(-1)?.text).toContain('for 61.50 USD did not go through');
      expect(failed.at(-1)?.text).toContain(next);
    }
    expect(mailsTo(owner, /^Payment failed/)).toHaveLength(6);
    expect(mailsTo(owner, /is on the Free plan now$/)).toHaveLength(1);
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'canceled', plan: 'pro' });
    const view = (await call('GET', b(owner), owner.cookie)).json();
    expect(view).toMatchObject({ plan: 'free', effectivePlan: 'free', isTrial: false });
    expect(view.details).toMatchObject({ address: '2 Grand Canal Dock' });

    // Every invoice to the cent, numbered 1, 2, 3 in the year's series; the failed renewal has none.
    const all = (await call('GET', b(owner, '/invoices'), owner.cookie)).json().items;
    expect(
      all.map((i: { number: string; status: string; netCents: number; vatCents: number; grossCents: number }) => [
        i.number,
        i.status,
        i.netCents,
        i.vatCents,
        i.grossCents,
      ]),
    ).toEqual([
      ['SUN-2025-000003', 'paid', 5000, 1150, 6150],
      ['SUN-2025-000002', 'paid', 1033, 238, 1271],
      ['SUN-2025-000001', 'paid', 3000, 690, 3690],
    ]);
    const series = await t.db
      .selectFrom('invoices')
      .select('number')
      .where('number', 'like', 'SUN-2025-%')
      .orderBy('number')
      .execute();
    expect(series.map((r) => r.number)).toEqual(['SUN-2025-000001', 'SUN-2025-000002', 'SUN-2025-000003']);
    expect(mailsTo(owner, /^Receipt/)).toHaveLength(3);
    const charged = await t.db
      .selectFrom('payment_sandbox_charges as c')
      .innerJoin('subscriptions as s', 's.gateway_customer_id', 'c.customer_id')
      .select(['c.amount_cents', 'c.status'])
      .where('s.workspace_id', '=', owner.workspaceId)
      .where('c.kind', '=', 'charge')
      .where('c.status', '=', 'succeeded')
      .orderBy('c.created_at')
      .execute();
    expect(charged.map((c) => Number(c.amount_cents))).toEqual([3690, 1271, 6150]);
  });

  it('renews at the period end once, however often the job runs, and mails the receipt', async () => {
    clock = new Date('2026-03-10T12:00:00Z');
    const owner = await payingOwner();
    await at('2026-03-10T12:30:00Z');
    const changed = mailsTo(owner, /^Plan changed/);
    expect(changed).toHaveLength(1);
    expect(changed[0]?.text).toContain('Pro, monthly, 1 license');
    expect(await chargesOf(owner.workspaceId)).toBe(1);

    await at('2026-04-09T23:00:00Z');
    expect(await chargesOf(owner.workspaceId)).toBe(1);
    await at('2026-04-10T06:00:00Z');
    await at('2026-04-10T07:00:00Z');
    expect(await chargesOf(owner.workspaceId)).toBe(2);
    const invoices = await t.db
      .selectFrom('invoices')
      .select(['id', 'number'])
      .where('workspace_id', '=', owner.workspaceId)
      .orderBy('number', 'desc')
      .execute();
    expect(invoices).toHaveLength(2);
    const receipts = renewalReceipts(owner);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.subject).toContain(invoices[0]?.number);
    expect(receipts[0]?.text).toContain('total 10.00 USD');
    expect(receipts[0]?.text).toContain(`https://sundial.test/homepage/invoice?invoice=${invoices[0]?.id}`);
    const pdf = receipts[0]?.attachments[0];
    expect(pdf?.filename).toBe(`${invoices[0]?.number}.pdf`);
    expect(pdf?.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'active', dunning_attempts: 0 });
  });

  it('mails a receipt with the invoice PDF for a first purchase and for an upgrade, once each', async () => {
    clock = new Date('2026-03-12T12:00:00Z');
    const owner = await payingOwner();
    await at('2026-03-12T12:30:00Z');
    await at('2026-03-12T13:30:00Z');
    const bought = await t.db
      .selectFrom('invoices')
      .select(['id', 'number'])
      .where('workspace_id', '=', owner.workspaceId)
      .executeTakeFirstOrThrow();
    let receipts = mailsTo(owner, /^Receipt/);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.subject).toMatch(new RegExp(`^Receipt for .+: invoice ${bought.number}$`));
    expect(receipts[0]?.text).toContain('Thank you for your purchase');
    expect(receipts[0]?.text).toContain('Pro, monthly, 1 license, 2026-03-12 to 2026-04-12.');
    expect(receipts[0]?.text).toContain('total 10.00 USD, paid');
    expect(receipts[0]?.attachments.map((a) => a.filename)).toEqual([`${bought.number}.pdf`]);
    expect(receipts[0]?.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(mailsTo(owner, /^Plan changed/)).toHaveLength(1);

    // An upgrade with the saved card: a receipt for its own invoice, beside "Plan changed".
    const upgraded = await t.app.inject({
      method: 'POST',
      url: b(owner, '/checkout'),
      headers: { cookie: owner.cookie, 'idempotency-key': `renewals-${++keys}` },
      payload: { ...PRO_MONTHLY, licenses: 2 },
    });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    const upgrade = upgraded.json().invoice;
    await at('2026-03-12T14:30:00Z');
    await at('2026-03-12T15:30:00Z');
    receipts = mailsTo(owner, /^Receipt/);
    expect(receipts).toHaveLength(2);
    expect(receipts[1]?.subject).toContain(upgrade.number);
    expect(receipts[1]?.text).toContain(`total ${(upgrade.grossCents / 100).toFixed(2)} USD, paid`);
    expect(receipts[1]?.attachments[0]?.filename).toBe(`${upgrade.number}.pdf`);
    expect(mailsTo(owner, /^Plan changed/)).toHaveLength(2);
    expect(
      await t.db
        .selectFrom('billing_mails')
        .select('key')
        .where('key', 'like', 'receipt:%')
        .where('workspace_id', '=', owner.workspaceId)
        .execute(),
    ).toHaveLength(2);
  });

  it('retries a declined renewal on days 1, 3, 5, 7 and 14, mailing each time, then drops to Free with data kept', async () => {
    clock = new Date('2026-04-20T12:00:00Z');
    const owner = await payingOwner();
    await saveDecliningCard(owner);
    const project = await call('POST', `/api/v1/workspaces/${owner.workspaceId}/projects`, owner.cookie, {
      name: 'Kept',
    });
    expect(project.statusCode, project.body).toBe(201);

    await at('2026-05-20T06:00:00Z');
    await at('2026-05-20T07:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'past_due', dunning_attempts: 1 });
    expect((await call('GET', b(owner), owner.cookie)).json().subscription.status).toBe('past_due');
    let failed = mailsTo(owner, /^Payment failed/);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.text).toContain('10.00 USD');
    expect(failed[0]?.text).toMatch(/declined/i);
    expect(failed[0]?.text).toContain('We will try again on 2026-05-21.');
    // It links to the form that replaces the card.
    expect(failed[0]?.text).toContain('https://sundial.test/homepage/billing?replace-card=1');

    const retries = [
      ['2026-05-21T06:00:00Z', '2026-05-23'],
      ['2026-05-23T06:00:00Z', '2026-05-25'],
      ['2026-05-25T06:00:00Z', '2026-05-27'],
      ['2026-05-27T06:00:00Z', '2026-06-03'],
    ] as const;
    for (const [when, next] of retries) {
      const charges = await chargesOf(owner.workspaceId);
      await at(when);
      await at(when.replace('T06', 'T09'));
      expect(await chargesOf(owner.workspaceId)).toBe(charges + 1);
      failed = mailsTo(owner, /^Payment failed/);
      expect(failed.at(-1)?.text).toContain(`We will try again on ${next}.`);
    }
    expect(failed).toHaveLength(5);
    await at('2026-06-02T06:00:00Z');
    expect(mailsTo(owner, /^Payment failed/)).toHaveLength(5);
    expect((await call('GET', b(owner), owner.cookie)).json().plan).toBe('pro');

    await at('2026-06-03T06:00:00Z');
    await at('2026-06-03T09:00:00Z');
    expect(mailsTo(owner, /^Payment failed/)).toHaveLength(6);
    expect(mailsTo(owner, /is on the Free plan now$/)).toHaveLength(1);
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'canceled', next_retry_at: null });
    const view = (await call('GET', b(owner), owner.cookie)).json();
    expect(view).toMatchObject({ plan: 'free', effectivePlan: 'free', subscription: { status: 'canceled' } });
    const projects = await t.db
      .selectFrom('projects')
      .select('name')
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
    expect(projects.map((p) => p.name)).toContain('Kept');
    expect(
      await t.db.selectFrom('invoices').select('id').where('workspace_id', '=', owner.workspaceId).execute(),
    ).toHaveLength(1);

    const charges = await chargesOf(owner.workspaceId);
    await at('2026-06-20T06:00:00Z');
    expect(await chargesOf(owner.workspaceId)).toBe(charges);
  });

  it('e-mails the bank’s confirmation link when a renewal needs the second step', async () => {
    clock = new Date('2026-07-01T12:00:00Z');
    const owner = await payingOwner();
    await replaceCard(owner, '4000002760003184');
    await at('2026-08-01T06:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'past_due', dunning_attempts: 1 });
    const attempt = await t.db
      .selectFrom('checkout_attempts')
      .select(['status', 'next_action_url'])
      .where('workspace_id', '=', owner.workspaceId)
      .where('idempotency_key', 'like', 'renewal:%')
      .executeTakeFirstOrThrow();
    expect(attempt.status).toBe('requires_action');
    expect(attempt.next_action_url).toBeTruthy();
    const mails = mailsTo(owner, /^Payment failed .*confirm it with your bank$/);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`Confirm the payment with your bank here: ${attempt.next_action_url}`);
  });

  it('mails "Your trial ends in 3 days" once, and not to a paying workspace', async () => {
    clock = new Date('2026-09-01T12:00:00Z');
    const trial = await signUp(t.app);
    const paying = await payingOwner();
    await t.db
      .updateTable('workspaces')
      .set({ trial_ends_at: new Date('2026-09-10T12:00:00Z') })
      .where('id', 'in', [trial.workspaceId, paying.workspaceId])
      .execute();
    await at('2026-09-07T11:00:00Z');
    expect(mailsTo(trial, /^Your trial ends in 3 days$/)).toHaveLength(0);
    await at('2026-09-07T13:00:00Z');
    await at('2026-09-08T13:00:00Z');
    const mails = mailsTo(trial, /^Your trial ends in 3 days$/);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('2026-09-10');
    expect(mails[0]?.text).toContain('https://sundial.test/homepage/payment');
    expect(mailsTo(paying, /^Your trial ends in 3 days$/)).toHaveLength(0);
  });

  it('clears past due when a retry succeeds, and mails the plan change of a cancel', async () => {
    clock = new Date('2026-10-01T12:00:00Z');
    const owner = await payingOwner();
    await saveDecliningCard(owner);
    await at('2026-11-01T06:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'past_due', dunning_attempts: 1 });
    // Not through the route, which would charge the open renewal at once: here dunning's retry pays.
    await attachSavedCard(t, owner.workspaceId, await tokenOf('4242424242424242'));
    await at('2026-11-02T06:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({
      status: 'active',
      dunning_attempts: 0,
      next_retry_at: null,
      plan: 'pro',
    });
    expect((await call('GET', b(owner), owner.cookie)).json().subscription).toMatchObject({
      status: 'active',
      periodEnd: '2026-12-01',
    });
    expect(renewalReceipts(owner)).toHaveLength(1);
    expect(mailsTo(owner, /^Payment failed/)).toHaveLength(1);

    const changed = mailsTo(owner, /^Plan changed/).length;
    expect((await call('POST', b(owner, '/cancel'), owner.cookie)).statusCode).toBe(200);
    await at('2026-11-02T07:00:00Z');
    const mails = mailsTo(owner, /^Plan changed/);
    expect(mails).toHaveLength(changed + 1);
    expect(mails.at(-1)?.text).toContain('is canceled: it ends on 2026-12-01');

    // Reactivated before the period's end: the owners hear it continues.
    expect((await call('POST', b(owner, '/reactivate'), owner.cookie)).statusCode).toBe(200);
    await at('2026-11-02T08:00:00Z');
    const reactivated = mailsTo(owner, /^Plan changed/);
    expect(reactivated).toHaveLength(changed + 2);
    expect(reactivated.at(-1)?.text).toContain('continues: Pro, monthly, 1 license, renewing on 2026-12-01.');
    expect(reactivated.at(-1)?.text).toContain('https://sundial.test/homepage/billing');
  });

  it('charges the open renewal at once when a past-due workspace replaces its card', async () => {
    clock = new Date('2026-11-03T12:00:00Z');
    const owner = await payingOwner();
    await saveDecliningCard(owner);
    await at('2026-11-03T12:30:00Z');
    await at('2026-12-03T06:00:00Z');
    await at('2026-12-03T07:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'past_due', dunning_attempts: 1 });
    expect(mailsTo(owner, /^Payment failed/)).toHaveLength(1);

    clock = new Date('2026-12-03T15:00:00Z');
    // A new plan waits for the open renewal: the answer says how to pay it.
    const upgrade = { plan: 'pro', cycle: 'annual', licenses: 2 };
    for (const [path, body] of [
      ['/quote', upgrade],
      ['/checkout', { ...upgrade, paymentToken: await tokenOf('4242424242424242') }],
    ] as const) {
      const blocked = await t.app.inject({
        method: 'POST',
        url: b(owner, path),
        headers: { cookie: owner.cookie, 'idempotency-key': `overdue-${++keys}` },
        payload: body,
      });
      expect(blocked.statusCode, blocked.body).toBe(409);
      expect(blocked.json().error).toEqual({
        code: 'payment_overdue',
        message:
          'The last renewal of this workspace is unpaid. Replace the card on "Your subscription" to pay it, then change the plan.',
      });
    }
    expect(await chargesOf(owner.workspaceId)).toBe(2);
    const replaced = await call('PUT', b(owner, '/payment-method'), owner.cookie, {
      paymentToken: await tokenOf('4242424242424242'),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().renewal).toEqual({ status: 'renewed', message: null, nextActionUrl: null });
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({
      status: 'active',
      dunning_attempts: 0,
      next_retry_at: null,
    });
    expect((await call('GET', b(owner), owner.cookie)).json().subscription).toMatchObject({
      status: 'active',
      periodEnd: '2027-01-03',
    });
    expect(await chargesOf(owner.workspaceId)).toBe(3);
    // Dunning's retry the next day finds it paid: no second charge, no more "payment failed".
    await at('2026-12-04T06:00:00Z');
    await at('2026-12-04T07:00:00Z');
    expect(await chargesOf(owner.workspaceId)).toBe(3);
    expect(mailsTo(owner, /^Payment failed/)).toHaveLength(1);
    expect(renewalReceipts(owner)).toHaveLength(1);
    // Paid up, the new plan can be bought.
    const bought = await t.app.inject({
      method: 'POST',
      url: b(owner, '/checkout'),
      headers: { cookie: owner.cookie, 'idempotency-key': `overdue-${++keys}` },
      payload: upgrade,
    });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().status).toBe('succeeded');
  });

  it('renews the other workspaces when one fails, records the failure and tries it again next hour', async () => {
    clock = new Date('2026-12-01T12:00:00Z');
    const broken = await payingOwner();
    const fine = await payingOwner();
    // The gateway no longer knows the broken one's saved card: its charge throws (404), it is no decline.
    await t.db
      .updateTable('subscriptions')
      .set({ payment_method_id: 'tok_gone' })
      .where('workspace_id', '=', broken.workspaceId)
      .execute();
    const renewalRuns = async () => {
      const runs = await t.app.services.jobs.list({ name: 'billing.renewals', limit: 1000 });
      return { failed: runs.filter((run) => run.lastError !== null || run.state === 'dead').length };
    };
    expect(await renewalRuns()).toEqual({ failed: 0 });

    await at('2027-01-01T06:00:00Z');
    await at('2027-01-01T07:00:00Z');
    expect(await subscriptionOf(fine.workspaceId)).toMatchObject({ status: 'active', plan: 'pro' });
    expect((await call('GET', b(fine), fine.cookie)).json().subscription.periodEnd).toBe('2027-02-01');
    expect(await chargesOf(fine.workspaceId)).toBe(2);
    const recorded = await t.db
      .selectFrom('subscriptions')
      .select(['status', 'period_end', 'renewal_error', 'renewal_error_at'])
      .where('workspace_id', '=', broken.workspaceId)
      .executeTakeFirstOrThrow();
    expect(recorded.status).toBe('active');
    expect(recorded.renewal_error).toMatch(/^payment_method_not_found: /);
    expect(recorded.renewal_error_at?.toISOString()).toBe('2027-01-01T07:00:00.000Z');
    expect(mailsTo(broken, /^Payment failed/)).toHaveLength(0);
    // The job succeeded: the failure is the workspace's, not the run's.
    expect(await renewalRuns()).toEqual({ failed: 0 });

    // Next hour, with a card the gateway knows, the same renewal goes through (charged once).
    await replaceCard(broken, '4242424242424242');
    await at('2027-01-01T08:00:00Z');
    expect(await chargesOf(broken.workspaceId)).toBe(2);
    const renewed = await t.db
      .selectFrom('subscriptions')
      .select(['status', 'renewal_error', 'renewal_error_at'])
      .where('workspace_id', '=', broken.workspaceId)
      .executeTakeFirstOrThrow();
    expect(renewed).toEqual({ status: 'active', renewal_error: null, renewal_error_at: null });
    expect((await call('GET', b(broken), broken.cookie)).json().subscription.periodEnd).toBe('2027-02-01');
    expect(renewalReceipts(broken)).toHaveLength(1);
  });

  it('replaces the saved card (owners and admins), once per token; a declined card leaves the saved one', async () => {
    clock = new Date('2027-02-01T12:00:00Z');
    const owner = await payingOwner();
    const admin = await joinWorkspace(t, owner.workspaceId, 'admin');
    const member = await joinWorkspace(t, owner.workspaceId, 'member');
    const cardOf = async () => (await call('GET', b(owner), owner.cookie)).json().subscription.card;
    expect(await cardOf()).toMatchObject({ brand: 'visa', last4: '4242' });

    const token = await tokenOf('5555555555554444');
    const refused = await call('PUT', b(owner, '/payment-method'), member.cookie, { paymentToken: token });
    expect(refused.statusCode).toBe(403);
    const declinedCard = await call('PUT', b(owner, '/payment-method'), admin.cookie, {
      paymentToken: await tokenOf('4000000000009995'),
    });
    expect(declinedCard.statusCode).toBe(402);
    expect(declinedCard.json().error).toEqual({
      code: 'payment_declined',
      message: 'Your card has insufficient funds.',
    });
    // A card that attaches but cannot be charged fails its $1.00 verification.
    const failsLater = await call('PUT', b(owner, '/payment-method'), admin.cookie, {
      paymentToken: await tokenOf('4000000000000341'),
    });
    expect(failsLater.statusCode).toBe(402);
    expect(await cardOf()).toMatchObject({ brand: 'visa', last4: '4242' });

    const saved = await call('PUT', b(owner, '/payment-method'), admin.cookie, { paymentToken: token });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      status: 'saved',
      card: { brand: 'mastercard', last4: '4444', expMonth: 12, expYear: 2030 },
      renewal: null,
    });
    expect(await cardOf()).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const again = await call('PUT', b(owner, '/payment-method'), owner.cookie, { paymentToken: token });
    expect(again.json()).toEqual(saved.json());
    // Nothing was charged; the next renewal pays with the new card.
    expect(await chargesOf(owner.workspaceId)).toBe(1);
    await at('2027-03-01T06:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'active', dunning_attempts: 0 });
    const renewal = await t.db
      .selectFrom('payment_sandbox_charges as c')
      .innerJoin('payment_sandbox_tokens as k', 'k.id', 'c.token_id')
      .select('k.last4')
      .where('c.kind', '=', 'charge')
      .where('c.description', 'like', 'Sundial%')
      .orderBy('c.created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(renewal.last4).toBe('4444');
  });

  it('saves a card that asks for the second step once the bank says yes', async () => {
    clock = new Date('2027-04-01T12:00:00Z');
    const owner = await payingOwner();
    const pending = await call('PUT', b(owner, '/payment-method'), owner.cookie, {
      paymentToken: await tokenOf('4000002500003155'),
    });
    expect(pending.statusCode, pending.body).toBe(202);
    const { changeId, nextActionUrl } = pending.json();
    expect((await call('POST', b(owner, `/payment-method/${changeId}/confirm`), owner.cookie)).statusCode).toBe(202);
    expect((await call('GET', b(owner), owner.cookie)).json().subscription.card.last4).toBe('4242');
    const step = await passSecondStep(t.app, nextActionUrl);
    expect(step.statusCode).toBe(303);
    expect(step.headers.location).toBe(`/homepage/billing?card=${changeId}`);
    const done = await call('POST', b(owner, `/payment-method/${changeId}/confirm`), owner.cookie);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'saved', card: { last4: '3155' } });
    expect((await call('GET', b(owner), owner.cookie)).json().subscription.card.last4).toBe('3155');
    // Set up for off-session use, it renews without asking again.
    await at('2027-05-01T06:00:00Z');
    expect(await subscriptionOf(owner.workspaceId)).toMatchObject({ status: 'active' });
    expect(await chargesOf(owner.workspaceId)).toBe(2);
  });

  it('sends no trial reminder and renews nothing with BILLING=off', async () => {
    const offInbox = await startInbox();
    let offClock = new Date('2026-05-01T12:00:00Z');
    const off = await createTestApp(
      { SMTP_URL: offInbox.url, JOBS_ENABLED: 'false', BILLING: 'off' },
      { now: () => offClock },
    );
    try {
      const owner = await signUp(off.app);
      await off.db
        .updateTable('workspaces')
        .set({ trial_ends_at: new Date('2026-05-03T12:00:00Z') })
        .where('id', '=', owner.workspaceId)
        .execute();
      await off.app.services.jobs.drain(); // saves the schedules: their first slots are the next ones
      offClock = new Date('2026-05-01T14:00:00Z');
      await off.app.services.jobs.drain();
      await off.app.services.jobs.drain();
      const done = await off.app.services.jobs.list({ state: 'done' });
      expect(done.map((j) => j.name)).toContain('billing.trial-reminders');
      expect(offInbox.messages.filter((m) => /trial ends/.test(m.subject ?? ''))).toHaveLength(0);
      expect(await off.db.selectFrom('billing_mails').select('key').execute()).toHaveLength(0);
    } finally {
      await off.close();
      await offInbox.close();
    }
  });
});
