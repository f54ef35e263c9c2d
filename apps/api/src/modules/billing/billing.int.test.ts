import fc from 'fast-check';
import { sql, type Updateable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, createTestApp, type SignedUp, signUp, type TestApp } from '../../../test/harness.js';
import { attachSavedCard, passSecondStep } from '../../../test/payments.js';
import type { InvoicesTable } from '../../db/tables/billing.js';
import { SANDBOX_TOKENS_PATH } from '../../platform/payments/sandbox.js';
import { SIGNATURE_HEADER, signPayload } from '../../platform/payments/signature.js';
import { membersRepository } from '../members/members.repository.js';

/**
 * Subscription billing through its routes, on a real app and the sandbox gateway, with a clock
 * the tests set (null: the real time, which the gateway's signed events need).
 */
let t: TestApp;
let call: ReturnType<typeof caller>;
let clock: Date | null = null;
const WEBHOOK_SECRET = 'billing-test-webhook-secret-of-32-characters';

beforeAll(async () => {
  t = await createTestApp(
    { JOBS_ENABLED: 'false', SELLER_COUNTRY: 'IE', PAYMENTS_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { now: () => clock ?? new Date() },
  );
  call = caller(t.app);
});
afterAll(() => t?.close());

const IRISH = { name: 'Aoife Byrne', address: '1 Main Street', city: 'Dublin', postalCode: 'D02 X285', country: 'IE' };
const GERMAN_BUSINESS = {
  name: 'Muster GmbH',
  address: 'Hauptstraße 1',
  city: 'Berlin',
  postalCode: '10115',
  country: 'DE',
  vatId: 'DE136695976',
  isBusiness: true,
};
const AMERICAN = {
  name: 'Acme Inc.',
  address: '1 Market St',
  city: 'San Francisco',
  postalCode: '94105',
  country: 'US',
};
const PRO_3_ANNUAL = { plan: 'pro', cycle: 'annual', licenses: 3 };

const nextYear = new Date().getUTCFullYear() + 1;
async function tokenOf(number: string): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: SANDBOX_TOKENS_PATH,
    payload: { number, expMonth: 12, expYear: nextYear, cvc: '123', name: 'Ada Lovelace' },
  });
  if (response.statusCode !== 201) throw new Error(`tokenise: ${response.body}`);
  return response.json().id;
}

let keys = 0;
const newKey = () => `checkout-${Date.now()}-${++keys}`;
const b = (owner: SignedUp, path = '') => `/api/v1/workspaces/${owner.workspaceId}/billing${path}`;

function checkout(owner: SignedUp, body: object, key: string | null = newKey()) {
  return t.app.inject({
    method: 'POST',
    url: b(owner, '/checkout'),
    headers: { cookie: owner.cookie, ...(key ? { 'idempotency-key': key } : {}) },
    payload: body,
  });
}

/** A new owner (on trial) with billing details saved. */
async function ownerWith(details: object | null = IRISH): Promise<SignedUp> {
  const owner = await signUp(t.app);
  if (details) {
    const saved = await call('PUT', b(owner, '/details'), owner.cookie, details);
    if (saved.statusCode !== 200) throw new Error(`details: ${saved.body}`);
  }
  return owner;
}

async function buy(owner: SignedUp, body: object = PRO_3_ANNUAL, card = '4242424242424242') {
  const response = await checkout(owner, { ...body, paymentToken: await tokenOf(card) });
  if (response.statusCode !== 200) throw new Error(`checkout: ${response.body}`);
  return response.json();
}

const chargesOf = async (amountCents?: number) => {
  let query = t.db
    .selectFrom('payment_sandbox_charges')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('kind', '=', 'charge');
  if (amountCents !== undefined) query = query.where('amount_cents', '=', amountCents);
  return (await query.executeTakeFirstOrThrow()).n;
};
const invoicesOf = async (workspaceId: string) =>
  t.db.selectFrom('invoices').select(['number', 'kind']).where('workspace_id', '=', workspaceId).execute();

describe('the billing page', () => {
  it('shows a trial owner the banner’s days left, seats in use and the catalogue', async () => {
    const owner = await ownerWith(null);
    const response = await call('GET', b(owner), owner.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const me = (await call('GET', '/api/v1/me', owner.cookie)).json();
    const view = response.json();
    const banner = me.workspaces.find((w: { id: string }) => w.id === owner.workspaceId).trialDaysLeft;
    expect(view).toMatchObject({
      plan: 'free',
      effectivePlan: 'pro',
      isTrial: true,
      trialDaysLeft: 14,
      seats: { used: 1, limit: null },
      subscription: null,
      details: null,
      currency: 'USD',
      sellerCountry: 'IE',
    });
    expect(view.trialDaysLeft).toBe(banner);
    expect(view.prices).toEqual([
      { plan: 'free', name: 'Free', monthlyCents: 0, annualCents: 0 },
      { plan: 'basic', name: 'Basic', monthlyCents: 700, annualCents: 7560 },
      { plan: 'pro', name: 'Pro', monthlyCents: 1000, annualCents: 10800 },
      { plan: 'enterprise', name: 'Enterprise', monthlyCents: null, annualCents: null },
    ]);
  });
});

describe('quotes', () => {
  it('prices Pro for 3 licenses annually with VAT by the buyer’s country', async () => {
    const irish = await ownerWith(IRISH);
    const quote = (await call('POST', b(irish, '/quote'), irish.cookie, PRO_3_ANNUAL)).json();
    expect(quote).toMatchObject({
      pricePerLicenseCents: 10800,
      subtotalCents: 32400,
      timing: 'immediate',
      netCents: 32400,
      vatCents: 7452,
      grossCents: 39852,
      tax: { kind: 'standard', rateBasisPoints: 2300 },
    });
    expect(quote.lines).toEqual([expect.objectContaining({ quantity: 3, unitCents: 10800, amountCents: 32400 })]);
    const noDetails = await ownerWith(null);
    expect((await call('POST', b(noDetails, '/quote'), noDetails.cookie, PRO_3_ANNUAL)).json()).toMatchObject({
      tax: null,
      netCents: 32400,
      grossCents: 32400,
    });
  });

  it('prices the VAT of the address being filled in, and the checkout after saving it charges exactly that quote', async () => {
    const owner = await ownerWith(null);
    const quoteFor = async (billingAddress?: object, terms: object = PRO_3_ANNUAL) => {
      const response = await call('POST', b(owner, '/quote'), owner.cookie, { ...terms, billingAddress });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    expect(await quoteFor()).toMatchObject({ tax: null, taxCountry: null, grossCents: 32400 });
    expect(await quoteFor({ country: 'de' })).toMatchObject({
      tax: { kind: 'standard', rateBasisPoints: 1900, note: 'VAT 19% (Germany)' },
      taxCountry: 'DE',
      netCents: 32400,
      vatCents: 6156,
      grossCents: 38556,
    });
    // A VAT id still being typed is no error: it counts once it is valid.
    expect((await quoteFor({ country: 'DE', isBusiness: true, vatId: 'DE1366' })).tax.kind).toBe('standard');
    const reverse = await quoteFor({ country: 'DE', isBusiness: true, vatId: 'de 136 695 976' });
    expect(reverse).toMatchObject({
      tax: { kind: 'reverse_charge', rateBasisPoints: 0 },
      vatCents: 0,
      grossCents: 32400,
    });
    const bad = await call('POST', b(owner, '/quote'), owner.cookie, {
      ...PRO_3_ANNUAL,
      billingAddress: { country: 'XX' },
    });
    expect([bad.statusCode, Object.keys(bad.json().error.fields)]).toEqual([422, ['billingAddress.country']]);

    // Saved as quoted: the checkout charges the quote's gross, and the invoice has its lines and tax.
    const irishQuote = await quoteFor({ country: 'IE', isBusiness: false, vatId: null });
    await call('PUT', b(owner, '/details'), owner.cookie, IRISH);
    const paid = await buy(owner);
    expect(paid.invoice).toMatchObject({
      netCents: irishQuote.netCents,
      vatCents: irishQuote.vatCents,
      grossCents: irishQuote.grossCents,
      tax: irishQuote.tax,
    });
    const charged = await t.db
      .selectFrom('payment_sandbox_charges')
      .select('amount_cents')
      .where(
        'id',
        '=',
        (
          await t.db
            .selectFrom('checkout_attempts')
            .select('charge_id')
            .where('id', '=', paid.checkoutId)
            .executeTakeFirstOrThrow()
        ).charge_id ?? '',
      )
      .executeTakeFirstOrThrow();
    expect(charged.amount_cents).toBe(irishQuote.grossCents);
  });

  it('refuses licenses outside 1..999, below the members in use, and Enterprise, with human messages', async () => {
    const owner = await ownerWith();
    const member = await signUp(t.app);
    await membersRepository.add(t.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    const refused = async (body: object) => {
      const response = await call('POST', b(owner, '/quote'), owner.cookie, body);
      expect(response.statusCode, response.body).toBe(422);
      return response.json().error;
    };
    expect((await refused({ ...PRO_3_ANNUAL, licenses: 0 })).fields.licenses).toBe(
      'Number of licenses must be a whole number from 1 to 999.',
    );
    expect((await refused({ ...PRO_3_ANNUAL, licenses: 1000 })).fields.licenses).toMatch(/1 to 999/);
    expect((await refused({ ...PRO_3_ANNUAL, licenses: 1 })).fields.licenses).toBe(
      '2 members are in use: buy at least 2 licenses, or remove members first.',
    );
    expect((await refused({ ...PRO_3_ANNUAL, plan: 'enterprise' })).fields.plan).toMatch(/book a call/);
  });
});

describe('checkout', () => {
  it('a trial owner buys Pro for 3 licenses annually: a numbered paid invoice, VAT for an Irish consumer', async () => {
    clock = new Date('2026-03-01T10:00:00Z');
    try {
      const owner = await ownerWith(IRISH);
      const answer = await buy(owner);
      expect(answer.status).toBe('succeeded');
      expect(answer.invoice).toMatchObject({
        number: expect.stringMatching(/^SUN-2026-\d{6}$/),
        kind: 'invoice',
        status: 'paid',
        plan: 'pro',
        cycle: 'annual',
        licenses: 3,
        periodStart: '2026-03-01',
        periodEnd: '2027-03-01',
        country: 'IE',
        netCents: 32400,
        vatCents: 7452,
        grossCents: 39852,
        tax: { kind: 'standard', rateBasisPoints: 2300, note: 'VAT 23% (Ireland)' },
      });
      const view = (await call('GET', b(owner), owner.cookie)).json();
      expect(view).toMatchObject({
        plan: 'pro',
        isTrial: false,
        licenses: 3,
        seats: { used: 1, limit: 3 },
        subscription: {
          plan: 'pro',
          cycle: 'annual',
          licenses: 3,
          status: 'active',
          periodStart: '2026-03-01',
          periodEnd: '2027-03-01',
          cancelAtPeriodEnd: false,
          scheduledChange: null,
          card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: nextYear },
        },
      });
      const list = (await call('GET', b(owner, '/invoices'), owner.cookie)).json();
      expect(list.items.map((i: { number: string }) => i.number)).toEqual([answer.invoice.number]);
      const pdf = await call('GET', b(owner, `/invoices/${answer.invoice.id}/pdf`), owner.cookie);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      clock = null;
    }
  });

  it('a German business with a valid VAT id pays no VAT under reverse charge; a US buyer none', async () => {
    const german = (await buy(await ownerWith(GERMAN_BUSINESS))).invoice;
    expect(german).toMatchObject({ netCents: 32400, vatCents: 0, grossCents: 32400, country: 'DE' });
    expect(german.tax).toMatchObject({ kind: 'reverse_charge', note: expect.stringMatching(/^Reverse charge/) });
    const american = (await buy(await ownerWith(AMERICAN))).invoice;
    expect(american).toMatchObject({ netCents: 32400, vatCents: 0, grossCents: 32400, tax: { kind: 'none' } });
  });

  it('needs billing details and an Idempotency-Key', async () => {
    const owner = await ownerWith(null);
    const token = await tokenOf('4242424242424242');
    const noDetails = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: token });
    expect([noDetails.statusCode, noDetails.json().error.code]).toEqual([422, 'billing_details_required']);
    const noKey = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: token }, null);
    expect(noKey.statusCode).toBe(422);
    expect(noKey.json().error.fields['idempotency-key']).toMatch(/Idempotency-Key/);
  });

  it('a declined card answers 402 with the gateway’s message: nothing charged, no invoice, no plan', async () => {
    const owner = await ownerWith();
    const before = await chargesOf();
    const response = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000000000000002') });
    expect(response.statusCode).toBe(402);
    expect(response.json().error).toEqual({ code: 'payment_declined', message: 'Your card was declined.' });
    expect(await chargesOf()).toBe(before);
    expect(await invoicesOf(owner.workspaceId)).toEqual([]);
    expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({ plan: 'free', subscription: null });
  });

  it('a card that needs the second step answers 202, then confirm completes it once', async () => {
    const owner = await ownerWith();
    const key = newKey();
    const body = { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') };
    const pending = await checkout(owner, body, key);
    expect(pending.statusCode, pending.body).toBe(202);
    const { checkoutId, nextActionUrl } = pending.json();
    expect(nextActionUrl).toMatch(/^http:\/\/localhost:3000\/api\/v1\/payments\/sandbox\/actions\//);
    // Confirming before the step is done still waits.
    expect((await call('POST', b(owner, `/checkout/${checkoutId}/confirm`), owner.cookie)).statusCode).toBe(202);
    const step = await passSecondStep(t.app, nextActionUrl);
    expect(step.statusCode).toBe(303);
    expect(step.headers.location).toBe(`/homepage/payment?checkout=${checkoutId}&plan=pro&cycle=annual&licenses=3`);
    const done = await call('POST', b(owner, `/checkout/${checkoutId}/confirm`), owner.cookie);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().invoice).toMatchObject({ status: 'paid', grossCents: 39852 });
    // The gateway's event, the same confirm and the same checkout again change nothing.
    await t.app.services.jobs.drain();
    expect((await call('POST', b(owner, `/checkout/${checkoutId}/confirm`), owner.cookie)).json()).toEqual(done.json());
    expect((await checkout(owner, body, key)).json()).toEqual(done.json());
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
  });

  it('completes from the gateway’s event when the browser never comes back', async () => {
    const owner = await ownerWith();
    const pending = (
      await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: new URL(pending.nextActionUrl).pathname,
      payload: { outcome: 'complete' },
    });
    await t.app.services.jobs.drain();
    const view = (await call('GET', b(owner), owner.cookie)).json();
    expect(view).toMatchObject({ plan: 'pro', licenses: 3, subscription: { status: 'active' } });
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
    const confirmed = await call('POST', b(owner, `/checkout/${pending.checkoutId}/confirm`), owner.cookie);
    expect([confirmed.statusCode, confirmed.json().status]).toEqual([200, 'succeeded']);
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
  });

  it('five checkouts at once with different Idempotency-Keys charge once and issue one invoice, trial after trial', async () => {
    for (let trial = 0; trial < 8; trial++) {
      const owner = await ownerWith(AMERICAN);
      const tokens = await Promise.all([1, 2, 3, 4, 5].map(() => tokenOf('4242424242424242')));
      const before = await chargesOf();
      const answers = await Promise.all(
        tokens.map((paymentToken) => checkout(owner, { ...PRO_3_ANNUAL, paymentToken })),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(await chargesOf(), `trial ${trial}: ${statuses}`).toBe(before + 1);
      expect(await invoicesOf(owner.workspaceId), `trial ${trial}`).toHaveLength(1);
      // The others join the one under way, or find it bought; none is charged.
      const paid = answers.filter((answer) => answer.statusCode === 200);
      expect(paid.length, `trial ${trial}: ${answers.map((a) => a.body)}`).toBeGreaterThanOrEqual(1);
      for (const answer of paid) expect(answer.json().invoice.number).toBe(paid[0]?.json().invoice.number);
      for (const answer of answers.filter((a) => a.statusCode !== 200))
        expect([409], answer.body).toContain(answer.statusCode);
    }
  });

  // A checkout priced before another one completed, and claimed after it: no open attempt is left to
  // collide with, and that quote charged the same purchase twice (a CI run on PostgreSQL, issue 31).
  // A transaction holding this request's own Idempotency-Key (as the same request sent twice would)
  // keeps it between its pricing and its claim while `meanwhile` changes the subscription.
  async function pricedThenHeld(owner: SignedUp, late: object, meanwhile: () => Promise<void>) {
    const key = newKey();
    let answer: Awaited<ReturnType<typeof checkout>> | undefined;
    await t.db
      .transaction()
      .execute(async (tx) => {
        await tx
          .insertInto('checkout_attempts')
          .values({
            id: crypto.randomUUID(),
            workspace_id: owner.workspaceId,
            user_id: owner.userId,
            idempotency_key: key,
            request_hash: 'held',
            terms: JSON.stringify(PRO_3_ANNUAL),
            quote: '{}',
            status: 'declined',
          })
          .execute();
        const held = checkout(owner, late, key).then((response) => {
          answer = response;
        });
        // The late checkout has priced its change and waits at its claim.
        for (let i = 0; i < 600; i++) {
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%insert into "checkout_attempts"%'`.execute(t.db);
          if (rows[0]?.n) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await meanwhile();
        // The transaction ends without its row: the late claim goes on.
        throw Object.assign(new Error('rolled back'), { held });
      })
      .catch(async (error: { held?: Promise<void> }) => {
        if (!error.held) throw error;
        await error.held;
      });
    if (!answer) throw new Error('no answer');
    return answer;
  }

  it.runIf(process.env.DATABASE_URL)(
    'a checkout priced before another completed is refused at its claim, and charges nothing',
    async () => {
      const owner = await ownerWith(AMERICAN);
      const late = { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') };
      const first = { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') };
      const before = await chargesOf();
      const waited = await pricedThenHeld(owner, late, async () => {
        const bought = await checkout(owner, first);
        expect(bought.statusCode, bought.body).toBe(200);
      });
      expect([waited.statusCode, waited.json().error?.code], waited.body).toEqual([409, 'checkout_in_progress']);
      expect(await chargesOf()).toBe(before + 1);
      expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    'a change for the period’s end priced before an upgrade completed is refused, and schedules nothing',
    async () => {
      const owner = await ownerWith(AMERICAN);
      await buy(owner);
      const upgrade = { ...PRO_3_ANNUAL, licenses: 5, paymentToken: await tokenOf('4242424242424242') };
      const waited = await pricedThenHeld(owner, { plan: 'basic', cycle: 'annual', licenses: 2 }, async () => {
        const bought = await checkout(owner, upgrade);
        expect(bought.statusCode, bought.body).toBe(200);
      });
      expect([waited.statusCode, waited.json().error?.code], waited.body).toEqual([409, 'checkout_in_progress']);
      const view = (await call('GET', b(owner), owner.cookie)).json();
      expect(view).toMatchObject({ licenses: 5, subscription: { licenses: 5, scheduledChange: null } });
    },
  );

  it('a second tab buying other terms while the first waits for its bank step is refused, and charges nothing', async () => {
    const owner = await ownerWith(AMERICAN);
    const pending = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') });
    expect(pending.statusCode, pending.body).toBe(202);
    const before = await chargesOf();
    // The same terms from another tab answer the first one's bank step rather than charging again.
    const same = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') });
    expect([same.statusCode, same.json()]).toEqual([202, pending.json()]);
    const other = await checkout(owner, {
      ...PRO_3_ANNUAL,
      licenses: 4,
      paymentToken: await tokenOf('4242424242424242'),
    });
    expect([other.statusCode, other.json().error.code]).toEqual([409, 'checkout_in_progress']);
    expect(await chargesOf()).toBe(before);
    // The database holds one open checkout per workspace whatever the service does.
    const open = await t.db
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('id', '=', pending.json().checkoutId)
      .executeTakeFirstOrThrow();
    await expect(
      t.db
        .insertInto('checkout_attempts')
        .values({
          ...open,
          id: crypto.randomUUID(),
          idempotency_key: newKey(),
          status: 'pending',
          terms: JSON.stringify(open.terms),
          quote: JSON.stringify(open.quote),
          payment_method: null,
        })
        .execute(),
    ).rejects.toThrow(/checkout_attempts_one_open/);
  });

  it('a checkout left open past its time is superseded by a new one, which charges once', async () => {
    const owner = await ownerWith(AMERICAN);
    const pending = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') });
    expect(pending.statusCode).toBe(202);
    await t.db
      .updateTable('checkout_attempts')
      .set({ created_at: new Date(Date.now() - 31 * 60_000) })
      .where('id', '=', pending.json().checkoutId)
      .execute();
    const before = await chargesOf();
    const paid = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await chargesOf()).toBe(before + 1);
    const old = await call('POST', b(owner, `/checkout/${pending.json().checkoutId}/confirm`), owner.cookie);
    expect([old.statusCode, old.json().error.code]).toEqual([409, 'checkout_superseded']);
  });

  it('refuses an Idempotency-Key in the renewals’ namespace (it would stand in for a renewal)', async () => {
    const owner = await ownerWith(AMERICAN);
    const response = await checkout(
      owner,
      { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') },
      'renewal:2027-03-01',
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields['idempotency-key']).toMatch(/renewal:/);
  });

  it('a card token the gateway refuses (used already) blocks nothing: a new card then pays', async () => {
    const owner = await ownerWith();
    const token = await tokenOf('4242424242424242');
    expect((await checkout(owner, { ...PRO_3_ANNUAL, licenses: 4, paymentToken: token })).statusCode).toBe(200);
    const other = await ownerWith();
    const reused = await checkout(other, { ...PRO_3_ANNUAL, paymentToken: token });
    expect([reused.statusCode, reused.json().error.code]).toEqual([409, 'payment_token_used']);
    const paid = await checkout(other, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('a signed payment event completes a checkout only for its amount and currency', async () => {
    const owner = await ownerWith(AMERICAN);
    const pending = await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') });
    expect(pending.statusCode).toBe(202);
    const attempt = await t.db
      .selectFrom('checkout_attempts')
      .select(['charge_id', 'status'])
      .where('id', '=', pending.json().checkoutId)
      .executeTakeFirstOrThrow();
    const charge = await t.db
      .selectFrom('payment_sandbox_charges')
      .select(['customer_id'])
      .where('id', '=', attempt.charge_id ?? '')
      .executeTakeFirstOrThrow();
    let events = 0;
    const deliver = (data: { amountCents: number; currency: string }) => {
      const body = JSON.stringify({
        id: `evt_mismatch_${Date.now()}_${++events}`,
        type: 'charge.succeeded',
        created: new Date().toISOString(),
        data: {
          chargeId: attempt.charge_id,
          object: 'charge',
          customerId: charge.customer_id,
          offSession: false,
          ...data,
        },
      });
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/payments/events',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signPayload(body, WEBHOOK_SECRET, new Date()),
        },
        payload: body,
      });
    };
    for (const wrong of [
      { amountCents: 100, currency: 'USD' },
      { amountCents: 32400, currency: 'EUR' },
    ]) {
      const delivered = await deliver(wrong);
      expect(delivered.statusCode, delivered.body).toBe(200);
      const after = await t.db
        .selectFrom('checkout_attempts')
        .select('status')
        .where('id', '=', pending.json().checkoutId)
        .executeTakeFirstOrThrow();
      expect(after.status).toBe('requires_action');
      expect(await invoicesOf(owner.workspaceId)).toEqual([]);
      expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({ plan: 'free', subscription: null });
    }
    const audited = await t.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('workspace_id', '=', owner.workspaceId)
      .where('action', '=', 'checkout.payment_mismatch')
      .orderBy('created_at')
      .execute();
    expect(audited.map((row) => row.detail)).toEqual([
      expect.objectContaining({ expectedCents: 32400, paidCents: 100, paidCurrency: 'USD' }),
      expect.objectContaining({ expectedCents: 32400, paidCents: 32400, paidCurrency: 'EUR' }),
    ]);
    // The event of the amount and currency charged completes it.
    expect((await deliver({ amountCents: 32400, currency: 'USD' })).statusCode).toBe(200);
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
  });

  it('a failed second step answers 402 on confirm, nothing bought', async () => {
    const owner = await ownerWith();
    const pending = (
      await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') })
    ).json();
    await t.app.inject({ method: 'POST', url: new URL(pending.nextActionUrl).pathname, payload: { outcome: 'fail' } });
    const confirmed = await call('POST', b(owner, `/checkout/${pending.checkoutId}/confirm`), owner.cookie);
    expect([confirmed.statusCode, confirmed.json().error.code]).toEqual([402, 'payment_declined']);
    expect(await invoicesOf(owner.workspaceId)).toEqual([]);
  });

  it('after a failed second step the browser comes back with the purchase, and paying again works', async () => {
    const owner = await ownerWith();
    const pending = (
      await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') })
    ).json();
    const back = await passSecondStep(t.app, pending.nextActionUrl, 'fail');
    expect(back.headers.location).toBe(
      `/homepage/payment?checkout=${pending.checkoutId}&plan=pro&cycle=annual&licenses=3`,
    );
    const confirmed = await call('POST', b(owner, `/checkout/${pending.checkoutId}/confirm`), owner.cookie);
    expect(confirmed.statusCode).toBe(402);
    // The card form again: a new attempt (new key) with a card that needs the step, completed this time.
    const again = (await checkout(owner, { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') })).json();
    expect(again.status).toBe('requires_action');
    await passSecondStep(t.app, again.nextActionUrl);
    const paid = await call('POST', b(owner, `/checkout/${again.checkoutId}/confirm`), owner.cookie);
    expect([paid.statusCode, paid.json().status]).toEqual([200, 'succeeded']);
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
  });

  it('charges once for the same Idempotency-Key, retried and concurrent; another body is refused', async () => {
    const owner = await ownerWith(AMERICAN);
    const key = newKey();
    const body = { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') };
    const before = await chargesOf();
    const answers = await Promise.all([
      checkout(owner, body, key),
      checkout(owner, body, key),
      checkout(owner, body, key),
    ]);
    const again = await checkout(owner, body, key);
    for (const answer of [...answers, again]) expect(answer.json(), answer.body).toEqual(answers[0]?.json());
    expect(await chargesOf()).toBe(before + 1);
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
    const other = await checkout(owner, { ...body, licenses: 4 }, key);
    expect([other.statusCode, other.json().error.code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('a process killed after charging and before recording it charges once when retried', async () => {
    const owner = await ownerWith(AMERICAN);
    const key = newKey();
    const body = { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4000002760003184') };
    const first = (await checkout(owner, body, key)).json();
    // As if the process died after the gateway's answer: the attempt still says pending.
    await t.db
      .updateTable('checkout_attempts')
      .set({ status: 'pending', charge_id: null, next_action_url: null })
      .where('id', '=', first.checkoutId)
      .execute();
    const before = await chargesOf();
    const retried = await checkout(owner, body, key);
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toEqual(first);
    expect(await chargesOf()).toBe(before);
  });

  it('a process killed after a successful charge and before the invoice charges once when retried', async () => {
    const owner = await ownerWith(AMERICAN);
    const key = newKey();
    const body = { ...PRO_3_ANNUAL, paymentToken: await tokenOf('4242424242424242') };
    // The gateway really charges; the process dies before it hears the answer (and before any invoice).
    const gateway = t.app.services.payments.gateway;
    const charge = gateway.charge;
    gateway.charge = async (options) => {
      gateway.charge = charge;
      await charge.call(gateway, options);
      throw new Error('the process died here');
    };
    const before = await chargesOf();
    try {
      const crashed = await checkout(owner, body, key);
      expect(crashed.statusCode).toBe(500);
    } finally {
      gateway.charge = charge;
    }
    expect(await chargesOf()).toBe(before + 1);
    expect(await invoicesOf(owner.workspaceId)).toEqual([]);

    const retried = await checkout(owner, body, key);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'succeeded', invoice: { status: 'paid', grossCents: 32400 } });
    // The gateway's own event of that charge changes nothing more.
    await t.app.services.jobs.drain();
    expect(await chargesOf()).toBe(before + 1);
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
    expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({ plan: 'pro', licenses: 3 });
  });

  it('keeps every invoice series gapless under concurrent checkouts, declines and credit notes, in any mix', async () => {
    /** Every series (a prefix and a year) runs 1, 2, 3 … without a gap or a repeat, whatever the clock said. */
    const expectGapless = async () => {
      const all = await t.db.selectFrom('invoices').select('number').execute();
      const series = new Map<string, number[]>();
      for (const { number } of all)
        series.set(number.slice(0, -7), [...(series.get(number.slice(0, -7)) ?? []), Number(number.slice(-6))]);
      for (const unsorted of series.values()) {
        const numbers = unsorted.sort((x, y) => x - y);
        expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
      }
      return all.length;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('success', 'decline', 'credit'), { minLength: 2, maxLength: 8 }),
        async (mix) => {
          // A credit note needs a paid invoice first; the rest are new trial workspaces.
          const work = await Promise.all(
            mix.map(async (kind) => {
              const owner = await ownerWith(AMERICAN);
              if (kind === 'credit') {
                const { invoice } = await buy(owner);
                return () =>
                  call('POST', b(owner, `/invoices/${invoice.id}/credit-note`), owner.cookie, {
                    amountCents: 1000,
                    reason: 'Goodwill',
                  });
              }
              const token = await tokenOf(kind === 'success' ? '4242424242424242' : '4000000000000002');
              return () => checkout(owner, { ...PRO_3_ANNUAL, paymentToken: token });
            }),
          );
          const before = await expectGapless();
          const answers = await Promise.all(work.map((run) => run()));
          const expected = { success: 200, decline: 402, credit: 201 } as const;
          expect(answers.map((answer) => answer.statusCode)).toEqual(mix.map((kind) => expected[kind]));
          // Declines take no number; every success and credit note takes one.
          expect(await expectGapless()).toBe(before + mix.filter((kind) => kind !== 'decline').length);
        },
      ),
      { numRuns: 4 },
    );
  });
});

describe('changes, cancel and reactivate', () => {
  it('an upgrade from 3 to 5 licenses mid-period is immediate and prorated to the cent', async () => {
    clock = new Date('2026-03-01T09:00:00Z');
    try {
      const owner = await ownerWith(AMERICAN);
      await buy(owner);
      clock = new Date('2026-06-09T15:00:00Z'); // 100 days in: 265 of 365 days left
      const terms = { ...PRO_3_ANNUAL, licenses: 5 };
      const quote = (await call('POST', b(owner, '/quote'), owner.cookie, terms)).json();
      expect(quote).toMatchObject({
        timing: 'immediate',
        effectiveOn: '2026-06-09',
        netCents: 15682,
        grossCents: 15682,
      });
      expect(quote.lines.map((l: { amountCents: number }) => l.amountCents)).toEqual([-23523, 39205]);
      const answer = (await checkout(owner, terms)).json();
      expect(answer.invoice).toMatchObject({
        netCents: 15682,
        grossCents: 15682,
        licenses: 5,
        periodStart: '2026-03-01',
        periodEnd: '2027-03-01',
      });
      expect(await chargesOf(15682)).toBeGreaterThanOrEqual(1);
      const view = (await call('GET', b(owner), owner.cookie)).json();
      expect(view).toMatchObject({ licenses: 5, subscription: { licenses: 5, periodEnd: '2027-03-01' } });
    } finally {
      clock = null;
    }
  });

  it('a downgrade is scheduled for the period’s end with no charge', async () => {
    const owner = await ownerWith(AMERICAN);
    await buy(owner);
    const before = await chargesOf();
    const response = await checkout(owner, { plan: 'basic', cycle: 'annual', licenses: 2 });
    expect(response.statusCode, response.body).toBe(200);
    const view = (await call('GET', b(owner), owner.cookie)).json();
    expect(response.json()).toMatchObject({ status: 'scheduled', effectiveOn: view.subscription.periodEnd });
    expect(view).toMatchObject({
      plan: 'pro',
      licenses: 3,
      subscription: { scheduledChange: { plan: 'basic', cycle: 'annual', licenses: 2 } },
    });
    expect(await chargesOf()).toBe(before);
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
  });

  it('cancels at the period’s end and reactivates before it; change-to-free is the same as cancel', async () => {
    const owner = await ownerWith(AMERICAN);
    const nothing = await call('POST', b(owner, '/cancel'), owner.cookie);
    expect([nothing.statusCode, nothing.json().error.code]).toEqual([409, 'no_subscription']);
    await buy(owner);
    const canceled = await call('POST', b(owner, '/cancel'), owner.cookie);
    expect(canceled.json()).toMatchObject({ plan: 'pro', subscription: { status: 'active', cancelAtPeriodEnd: true } });
    const back = await call('POST', b(owner, '/reactivate'), owner.cookie);
    expect(back.json().subscription.cancelAtPeriodEnd).toBe(false);
    const again = await call('POST', b(owner, '/reactivate'), owner.cookie);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'not_canceled']);
    const free = await call('POST', b(owner, '/change-to-free'), owner.cookie);
    expect(free.json().subscription.cancelAtPeriodEnd).toBe(true);
  });

  it('a trial owner who chooses Free ends the trial now: Free with Free’s limits, data kept, a retry the same', async () => {
    const owner = await ownerWith(null);
    const project = await call('POST', `/api/v1/workspaces/${owner.workspaceId}/projects`, owner.cookie, {
      name: 'Kept',
    });
    expect(project.statusCode, project.body).toBe(201);
    const exportPath = `/api/v1/workspaces/${owner.workspaceId}/reports/export?kind=summary&format=csv&groupBy=project&preset=custom&from=2026-01-01&to=2026-01-31&timeZone=UTC`;
    expect((await call('GET', exportPath, owner.cookie)).statusCode).toBe(200);

    const free = await call('POST', b(owner, '/change-to-free'), owner.cookie);
    expect(free.statusCode, free.body).toBe(200);
    expect(free.json()).toMatchObject({ plan: 'free', effectivePlan: 'free', isTrial: false, trialDaysLeft: 0 });
    const me = (await call('GET', '/api/v1/me', owner.cookie)).json();
    expect(me.workspaces.find((w: { id: string }) => w.id === owner.workspaceId)).toMatchObject({
      plan: 'free',
      trialDaysLeft: 0,
    });
    const locked = await call('GET', exportPath, owner.cookie);
    expect([locked.statusCode, locked.json().error.code]).toEqual([403, 'plan_limit_reached']);
    const projects = await call('GET', `/api/v1/workspaces/${owner.workspaceId}/projects`, owner.cookie);
    expect(projects.body).toContain('Kept');
    const again = await call('POST', b(owner, '/change-to-free'), owner.cookie);
    expect([again.statusCode, again.json().effectivePlan]).toEqual([200, 'free']);
    const audited = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('workspace_id', '=', owner.workspaceId)
      .where('action', '=', 'subscription.trial_ended')
      .execute();
    expect(audited).toHaveLength(1);
  });
});

describe('renewal (the seam for the renewals job)', () => {
  it('charges the next period off-session once, applies a scheduled change, and ends a canceled plan', async () => {
    clock = new Date('2026-03-31T12:00:00Z');
    try {
      const owner = await ownerWith(AMERICAN);
      await buy(owner, { plan: 'pro', cycle: 'monthly', licenses: 2 });
      const { billing } = t.app.services;
      expect(await billing.renew(owner.workspaceId, new Date('2026-04-29T23:00:00Z'))).toEqual({ status: 'not_due' });

      // Begun on the 31st: April's period ends on the 30th and May's runs to the 31st.
      const renewed = await billing.renew(owner.workspaceId, new Date('2026-04-30T06:00:00Z'));
      expect(renewed.status).toBe('renewed');
      expect(await billing.renew(owner.workspaceId, new Date('2026-04-30T07:00:00Z'))).toEqual({ status: 'not_due' });
      clock = new Date('2026-05-02T12:00:00Z');
      let invoices = (await call('GET', b(owner, '/invoices'), owner.cookie)).json().items;
      expect(invoices).toHaveLength(2);
      expect(invoices[0]).toMatchObject({
        periodStart: '2026-04-30',
        periodEnd: '2026-05-31',
        grossCents: 2000,
        lines: [{ quantity: 2, unitCents: 1000, amountCents: 2000 }],
      });

      expect((await checkout(owner, { plan: 'pro', cycle: 'monthly', licenses: 1 })).json().status).toBe('scheduled');
      expect((await billing.renew(owner.workspaceId, new Date('2026-05-31T00:00:00Z'))).status).toBe('renewed');
      clock = new Date('2026-06-02T12:00:00Z');
      invoices = (await call('GET', b(owner, '/invoices'), owner.cookie)).json().items;
      expect(invoices[0]).toMatchObject({ licenses: 1, grossCents: 1000, periodEnd: '2026-06-30' });
      expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({
        licenses: 1,
        subscription: { licenses: 1, scheduledChange: null, status: 'active' },
      });

      await call('POST', b(owner, '/cancel'), owner.cookie);
      expect(await billing.renew(owner.workspaceId, new Date('2026-06-30T00:00:00Z'))).toEqual({ status: 'ended' });
      expect((await call('GET', b(owner), owner.cookie)).json()).toMatchObject({
        plan: 'free',
        subscription: { status: 'canceled' },
      });
      expect(await invoicesOf(owner.workspaceId)).toHaveLength(3);
    } finally {
      clock = null;
    }
  });

  it('leaves a declined renewal past due, with no invoice', async () => {
    const owner = await ownerWith(AMERICAN);
    await buy(owner, { plan: 'pro', cycle: 'monthly', licenses: 1 });
    const sub = await t.db
      .selectFrom('subscriptions')
      .select(sql<string>`to_char(period_end, 'YYYY-MM-DD')`.as('end'))
      .where('workspace_id', '=', owner.workspaceId)
      .executeTakeFirstOrThrow();
    // The saved card now declines every charge (the card-replacement route refuses this card at its
    // $1.00 verification, so it is saved at the gateway: see attachSavedCard).
    await attachSavedCard(t, owner.workspaceId, await tokenOf('4000000000000341'));
    const renewal = await t.app.services.billing.renew(owner.workspaceId, new Date(`${sub.end}T08:00:00Z`));
    expect(renewal.status).toBe('declined');
    expect((await call('GET', b(owner), owner.cookie)).json().subscription.status).toBe('past_due');
    expect(await invoicesOf(owner.workspaceId)).toHaveLength(1);
  });
});

describe('credit notes', () => {
  it('credit what is left on an invoice and no more, numbered in the same series, refunded once', async () => {
    const owner = await ownerWith(IRISH);
    const invoice = (await buy(owner)).invoice;
    const credit = (body: object) => call('POST', b(owner, `/invoices/${invoice.id}/credit-note`), owner.cookie, body);
    const part = await credit({ amountCents: 12300, reason: 'Goodwill' });
    expect(part.statusCode, part.body).toBe(201);
    expect(part.json()).toMatchObject({
      kind: 'credit_note',
      creditedInvoiceId: invoice.id,
      number: expect.stringMatching(/^SUN-\d{4}-\d{6}$/),
      grossCents: -12300,
      vatCents: -2300,
      netCents: -10000,
    });
    const tooMuch = await credit({ amountCents: 27553, reason: 'Too much' });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().error.fields.amountCents).toBe('At most 275.52 USD is left to credit on this invoice.');
    const rest = await credit({ reason: 'Refund the rest' });
    expect(rest.json().grossCents).toBe(-27552);
    const none = await credit({ reason: 'Again' });
    expect([none.statusCode, none.json().error.code]).toEqual([409, 'fully_credited']);
    const list = (await call('GET', b(owner, '/invoices'), owner.cookie)).json().items;
    expect(list.find((i: { id: string }) => i.id === invoice.id).creditableCents).toBe(0);
    const charged = await t.db
      .selectFrom('invoices')
      .select('charge_id')
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    const refunds = await t.db
      .selectFrom('payment_sandbox_charges')
      .select(sql<number>`sum(amount_cents)::int`.as('total'))
      .where('refunded_charge_id', '=', charged.charge_id)
      .executeTakeFirstOrThrow();
    expect(refunds.total).toBe(39852);
  });
});

describe('issued invoices are immutable (a database guard)', () => {
  it('refuses changes to an issued invoice’s amounts, number, buyer and lines; only its status may move to void', async () => {
    const owner = await ownerWith(IRISH);
    const { invoice } = await buy(owner);
    const refused = /An issued invoice cannot be changed/;
    const change = (values: Updateable<InvoicesTable>) =>
      t.db.updateTable('invoices').set(values).where('id', '=', invoice.id).execute();
    await expect(change({ gross_cents: 1, net_cents: 1, vat_cents: 0 })).rejects.toThrow(refused);
    await expect(change({ number: 'SUN-2026-999999' })).rejects.toThrow(refused);
    await expect(change({ buyer: JSON.stringify({ ...IRISH, address: 'Elsewhere' }) })).rejects.toThrow(refused);
    await expect(change({ tax_rate_basis_points: 0 })).rejects.toThrow(refused);
    await expect(
      t.db.updateTable('invoice_lines').set({ amount_cents: 1 }).where('invoice_id', '=', invoice.id).execute(),
    ).rejects.toThrow(refused);
    // The lines and totals are as issued.
    const list = (await call('GET', b(owner, '/invoices'), owner.cookie)).json().items;
    expect(list[0]).toMatchObject({ number: invoice.number, grossCents: 39852, lines: invoice.lines });

    await change({ status: 'void' });
    await expect(change({ status: 'paid' })).rejects.toThrow(refused);
    await expect(change({ status: 'void', gross_cents: 0, net_cents: 0, vat_cents: 0 })).rejects.toThrow(refused);
    expect((await call('GET', b(owner, '/invoices'), owner.cookie)).json().items[0]).toMatchObject({
      status: 'void',
      grossCents: 39852,
    });
  });
});

describe('who may', () => {
  it('refuses members and managers (403) and other workspaces (404)', async () => {
    const owner = await ownerWith(AMERICAN);
    const invoice = (await buy(owner)).invoice;
    for (const role of ['member', 'manager'] as const) {
      const person = await signUp(t.app);
      await membersRepository.add(t.db, { workspaceId: owner.workspaceId, userId: person.userId, role });
      expect((await call('GET', b(owner), person.cookie)).statusCode).toBe(403);
      expect((await call('GET', b(owner, `/invoices/${invoice.id}/pdf`), person.cookie)).statusCode).toBe(403);
    }
    const stranger = await ownerWith(AMERICAN);
    expect((await call('GET', b(owner), stranger.cookie)).statusCode).toBe(404);
    expect((await call('GET', b(stranger, `/invoices/${invoice.id}/pdf`), stranger.cookie)).statusCode).toBe(404);
  });
});
