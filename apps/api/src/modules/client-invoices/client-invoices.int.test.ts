import { describe, expect, it } from 'vitest';
import { auditTrail, joinWorkspace, type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';

/**
 * Client invoices: from a client's unbilled billable time to a numbered invoice, the entries
 * locked while on it and freed by voiding; numbering gapless under concurrency.
 */
const ctx = useTestApp();
const { call, ok } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);

let owner: SignedUp;

interface World {
  clientId: string;
  website: string;
  app: string;
  design: string;
  entries: Record<'web1' | 'web2' | 'design' | 'unpaid' | 'other' | 'february', string>;
}

const JAN = { from: '2026-01-01', to: '2026-01-31' };

/** A workspace (USD) with a client (preferring EUR) of two projects, 100.00 an hour, and time in January and February. */
async function world(): Promise<World> {
  owner = await signUp(ctx.t.app);
  await ok(owner, 'POST', '/rates', { level: 'workspace', effectiveFrom: '2025-01-01', billableCents: 100_00 });
  const client = await ok(owner, 'POST', '/clients', { name: 'Acme', currency: 'EUR', address: '1 Road' });
  const other = await ok(owner, 'POST', '/clients', { name: 'Other' });
  const website = (await ok(owner, 'POST', '/projects', { name: 'Website', clientId: client.id })).id;
  const app = (await ok(owner, 'POST', '/projects', { name: 'App', clientId: client.id })).id;
  const elsewhere = (await ok(owner, 'POST', '/projects', { name: 'Elsewhere', clientId: other.id })).id;
  const design = (await ok(owner, 'POST', `/projects/${app}/tasks`, { name: 'Design' })).id;
  const entry = async (start: string, duration: string, body: object) =>
    (await ok(owner, 'POST', '/time-entries', { start, duration, billable: true, ...body })).id as string;
  const entries = {
    web1: await entry('2026-01-05T09:00:00Z', '1h', { projectId: website, note: 'Homepage' }),
    web2: await entry('2026-01-06T09:00:00Z', '30m', { projectId: website }),
    design: await entry('2026-01-07T09:00:00Z', '1h15m', { projectId: app, taskId: design }),
    unpaid: await entry('2026-01-08T09:00:00Z', '2h', { projectId: website, billable: false }),
    other: await entry('2026-01-09T09:00:00Z', '1h', { projectId: elsewhere }),
    february: await entry('2026-02-02T09:00:00Z', '1h', { projectId: website }),
  };
  return { clientId: client.id, website, app, design, entries };
}

const create = (w: World, body: object = {}) => ({ clientId: w.clientId, ...JAN, groupBy: 'project', ...body });

describe('client invoices', () => {
  it('previews and drafts an invoice of the unbilled billable time, grouped as asked, in the workspace currency', async () => {
    const w = await world();
    const byProject = await ok(owner, 'POST', '/client-invoices/preview', create(w));
    expect(byProject).toEqual({
      currency: 'USD',
      rateCurrency: 'USD',
      conversion: null,
      entryCount: 3,
      lines: [
        { kind: 'time', description: 'App', seconds: 4500, hundredths: 125, rateCents: 100_00, amountCents: 125_00 },
        {
          kind: 'time',
          description: 'Website',
          seconds: 5400,
          hundredths: 150,
          rateCents: 100_00,
          amountCents: 150_00,
        },
      ],
      money: expect.objectContaining({ subtotalCents: 275_00, totalCents: 275_00 }),
    });
    const byTask = await ok(owner, 'POST', '/client-invoices/preview', create(w, { groupBy: 'task' }));
    expect(byTask.lines.map((l: { description: string }) => l.description)).toEqual([
      'App / Design',
      'Website / No task',
    ]);
    const byEntry = await ok(owner, 'POST', '/client-invoices/preview', create(w, { groupBy: 'entry' }));
    expect(byEntry.lines.map((l: { description: string }) => l.description)).toEqual([
      '2026-01-05 · Website · Homepage',
      '2026-01-06 · Website',
      '2026-01-07 · App · Design',
    ]);
    const byPerson = await ok(owner, 'POST', '/client-invoices/preview', create(w, { groupBy: 'person' }));
    expect(byPerson.lines).toHaveLength(1);

    const draft = await ok(owner, 'POST', '/client-invoices', create(w, { dueOn: '2026-02-28', notes: 'Thanks' }));
    expect(draft).toMatchObject({
      status: 'draft',
      number: null,
      currency: 'USD',
      clientName: 'Acme',
      totalCents: 275_00,
    });
    expect(draft.entries.map((e: { id: string }) => e.id).sort()).toEqual(
      [w.entries.web1, w.entries.web2, w.entries.design].sort(),
    );
    // each entry links to its invoice
    const linked = await ok(owner, 'GET', `/client-invoices?entryId=${w.entries.web1}`);
    expect(linked.items.map((i: { id: string }) => i.id)).toEqual([draft.id]);
    const audit = await auditTrail(ctx.t.db, { subjectId: draft.id });
    expect(audit.map((a) => a.action)).toEqual(['client_invoice.created']);
  });

  it('refuses time that is already on an invoice (409) and a range without any (422)', async () => {
    const w = await world();
    await ok(owner, 'POST', '/client-invoices', create(w));
    const again = await call(owner, 'POST', '/client-invoices', create(w));
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({
      code: 'entries_already_invoiced',
      message: 'All billable time of this client in these days is already on an invoice.',
    });
    const none = await call(
      owner,
      'POST',
      '/client-invoices/preview',
      create(w, { from: '2025-01-01', to: '2025-01-31' }),
    );
    expect(none.statusCode).toBe(422);
    expect(none.json().error.code).toBe('no_unbilled_time');
    const backwards = await call(
      owner,
      'POST',
      '/client-invoices',
      create(w, { from: '2026-02-01', to: '2026-01-01' }),
    );
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().error.fields.to).toBe('The last day must be on or after the first.');
    const stranger = await call(
      owner,
      'POST',
      '/client-invoices',
      create(w, { clientId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().error.fields.clientId).toBe('Client not found.');
  });

  it('edits a draft: fixed lines, a discount and two taxes, exact to the cent', async () => {
    const w = await world();
    const draft = await ok(owner, 'POST', '/client-invoices', create(w));
    const edited = await ok(owner, 'PATCH', `/client-invoices/${draft.id}`, {
      fixedLines: [{ description: 'Hosting', amountCents: 19_99 }],
      discount: { kind: 'percent', basisPoints: 1000 },
      taxes: [
        { name: 'VAT', basisPoints: 2000 },
        { name: 'City tax', basisPoints: 150 },
      ],
      notes: 'Bank transfer please',
      dueOn: '2026-03-01',
    });
    // 275.00 + 19.99 = 294.99; -10 % = 29.50 -> 265.49; VAT 53.10, city 3.98 -> 322.57
    expect(edited.money).toEqual({
      subtotalCents: 294_99,
      discountCents: 29_50,
      netCents: 265_49,
      taxes: [
        { name: 'VAT', basisPoints: 2000, amountCents: 53_10 },
        { name: 'City tax', basisPoints: 150, amountCents: 3_98 },
      ],
      taxCents: 57_08,
      totalCents: 322_57,
    });
    expect(edited).toMatchObject({ totalCents: 322_57, notes: 'Bank transfer please', dueOn: '2026-03-01' });
    expect(edited.lines.at(-1)).toEqual({
      kind: 'fixed',
      description: 'Hosting',
      seconds: null,
      hundredths: null,
      rateCents: null,
      amountCents: 19_99,
    });

    const threeTaxes = await call(owner, 'PATCH', `/client-invoices/${draft.id}`, {
      taxes: [1, 2, 3].map((n) => ({ name: `T${n}`, basisPoints: 100 })),
    });
    expect(threeTaxes.statusCode).toBe(422);
    expect(threeTaxes.json().error.fields.taxes).toBe('An invoice has one or two tax rates.');
    const tooMuchOff = await call(owner, 'PATCH', `/client-invoices/${draft.id}`, {
      discount: { kind: 'amount', cents: 1_000_00 },
    });
    expect(tooMuchOff.statusCode).toBe(422);
    expect(tooMuchOff.json().error.fields.discount).toBe('The discount cannot exceed the lines.');
    expect((await ok(owner, 'GET', `/client-invoices/${draft.id}`)).totalCents).toBe(322_57);
  });

  it('locks invoiced entries against changes to their amount, keeps notes editable, and voiding frees them', async () => {
    const w = await world();
    const draft = await ok(owner, 'POST', '/client-invoices', create(w));
    const moved = await call(owner, 'PATCH', `/time-entries/${w.entries.web1}`, { duration: '2h' });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error).toEqual({
      code: 'entry_invoiced',
      message:
        'This time is on a draft invoice: its time, project, task, billable state and rate cannot change. Delete the draft to free it.',
    });
    expect((await call(owner, 'PATCH', `/time-entries/${w.entries.web1}`, { note: 'Homepage, v2' })).statusCode).toBe(
      200,
    );
    expect((await call(owner, 'PATCH', `/time-entries/${w.entries.web2}`, { billable: false })).statusCode).toBe(409);
    expect((await call(owner, 'PATCH', `/time-entries/${w.entries.web2}`, { projectId: w.app })).statusCode).toBe(409);
    expect((await call(owner, 'DELETE', `/time-entries/${w.entries.web2}`)).statusCode).toBe(409);
    // time not on the invoice stays free
    expect((await call(owner, 'PATCH', `/time-entries/${w.entries.february}`, { duration: '2h' })).statusCode).toBe(
      200,
    );

    // The entry says so where it is listed, with the words of the refusal.
    expect((await ok(owner, 'GET', `/time-entries/${w.entries.web1}`)).lock).toEqual({
      kind: 'invoiced',
      label: 'On a draft invoice',
      reason: moved.json().error.message,
    });
    expect((await ok(owner, 'GET', `/time-entries/${w.entries.february}`)).lock).toBeNull();

    const issued = await ok(owner, 'POST', `/client-invoices/${draft.id}/issue`);
    expect(issued.number).toMatch(/^\d{4}-0001$/);
    expect((await ok(owner, 'GET', `/time-entries/${w.entries.web1}`)).lock).toMatchObject({
      kind: 'invoiced',
      label: `Invoiced on ${issued.number}`,
    });
    const invoicedAt = await ctx.t.db
      .selectFrom('time_entries')
      .select(['id', 'invoiced_at'])
      .where('id', 'in', [w.entries.web1, w.entries.web2, w.entries.design, w.entries.february])
      .execute();
    expect(
      invoicedAt
        .filter((e) => e.invoiced_at !== null)
        .map((e) => e.id)
        .sort(),
    ).toEqual([w.entries.web1, w.entries.web2, w.entries.design].sort());
    const late = await call(owner, 'PATCH', `/time-entries/${w.entries.design}`, { duration: '5m' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toContain(`on invoice ${issued.number}`);
    const unmark = await call(owner, 'POST', '/reports/invoiced', { ids: [w.entries.design], invoiced: false });
    expect(unmark.statusCode).toBe(409);
    expect(unmark.json().error.code).toBe('entry_invoiced');
    expect((await call(owner, 'PATCH', `/client-invoices/${draft.id}`, { notes: 'x' })).statusCode).toBe(409);
    expect((await call(owner, 'POST', `/client-invoices/${draft.id}/issue`)).statusCode).toBe(409);

    const voided = await ok(owner, 'POST', `/client-invoices/${draft.id}/void`);
    expect(voided).toMatchObject({ status: 'void', number: issued.number, entries: [] });
    expect((await call(owner, 'PATCH', `/time-entries/${w.entries.design}`, { duration: '5m' })).statusCode).toBe(200);
    const freed = await ctx.t.db
      .selectFrom('time_entries')
      .select('invoiced_at')
      .where('id', '=', w.entries.web1)
      .executeTakeFirst();
    expect(freed?.invoiced_at).toBeNull();
    // the freed time can be invoiced again, under the next number
    const second = await ok(owner, 'POST', '/client-invoices', create(w));
    expect((await ok(owner, 'POST', `/client-invoices/${second.id}/issue`)).number).toMatch(/^\d{4}-0002$/);
  });

  it('moves issued to sent to paid with its day, refuses the wrong steps, and deletes drafts freeing their time', async () => {
    const w = await world();
    const draft = await ok(owner, 'POST', '/client-invoices', create(w));
    expect((await call(owner, 'POST', `/client-invoices/${draft.id}/mark-sent`)).statusCode).toBe(409);
    expect((await call(owner, 'POST', `/client-invoices/${draft.id}/void`)).statusCode).toBe(409);
    expect(
      (await call(owner, 'POST', `/client-invoices/${draft.id}/mark-paid`, { paidOn: '2026-02-10' })).statusCode,
    ).toBe(409);
    expect((await call(owner, 'DELETE', `/client-invoices/${draft.id}`)).statusCode).toBe(204);
    expect((await call(owner, 'GET', `/client-invoices/${draft.id}`)).statusCode).toBe(404);

    const next = await ok(owner, 'POST', '/client-invoices', create(w));
    await ok(owner, 'POST', `/client-invoices/${next.id}/issue`);
    expect((await call(owner, 'DELETE', `/client-invoices/${next.id}`)).statusCode).toBe(409);
    expect((await ok(owner, 'POST', `/client-invoices/${next.id}/mark-sent`)).status).toBe('sent');
    const paid = await ok(owner, 'POST', `/client-invoices/${next.id}/mark-paid`, { paidOn: '2026-02-10' });
    expect(paid).toMatchObject({ status: 'paid', paidOn: '2026-02-10' });
    const noVoid = await call(owner, 'POST', `/client-invoices/${next.id}/void`);
    expect(noVoid.statusCode).toBe(409);
    expect(noVoid.json().error.code).toBe('invoice_not_voidable');

    const list = await ok(owner, 'GET', '/client-invoices?status=paid');
    expect(list.items.map((i: { id: string }) => i.id)).toEqual([next.id]);
    expect(list.totals).toEqual([{ status: 'paid', currency: 'USD', count: 1, totalCents: 275_00 }]);
    const actions = await auditTrail(ctx.t.db, { subjectId: next.id });
    expect(actions.map((a) => a.action)).toEqual([
      'client_invoice.created',
      'client_invoice.issued',
      'client_invoice.sent',
      'client_invoice.paid',
    ]);
  });

  it('numbers from the configured pattern and next number', async () => {
    const w = await world();
    expect(await ok(owner, 'GET', '/client-invoice-settings')).toEqual({
      numberPattern: '{YYYY}-{0000}',
      nextNumber: 1,
      address: '',
      paymentDetails: '',
      roundAsReports: true,
    });
    const bad = await call(owner, 'PUT', '/client-invoice-settings', { numberPattern: 'INV-{YYYY}' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields.numberPattern).toBe('The pattern needs the counter, such as {0000}.');
    await ok(owner, 'PUT', '/client-invoice-settings', {
      numberPattern: 'INV-{YY}-{000}',
      nextNumber: 7,
      address: 'Sundial Ltd\n2 Street',
      paymentDetails: 'IBAN XX00 0000',
    });
    const draft = await ok(owner, 'POST', '/client-invoices', create(w));
    const issued = await ok(owner, 'POST', `/client-invoices/${draft.id}/issue`);
    expect(issued.number).toMatch(/^INV-\d{2}-007$/);
    expect((await ok(owner, 'GET', '/client-invoice-settings')).nextNumber).toBe(8);
  });

  it('keeps a client with invoices: deleting it is refused', async () => {
    const w = await world();
    await ok(owner, 'POST', '/client-invoices', create(w));
    const refused = await call(owner, 'DELETE', `/clients/${w.clientId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({
      code: 'client_has_invoices',
      message: '“Acme” has invoices, which keep their client: archive it instead.',
    });
  });

  it('names each entry’s invoice in the Detailed report, to those who manage invoices only', async () => {
    const w = await world();
    const manager = await joinWorkspace(ctx.t, owner.workspaceId, 'manager');
    const managers = await ok(manager, 'POST', '/time-entries', {
      start: '2026-01-12T09:00:00Z',
      duration: '1h',
      billable: true,
      projectId: w.website,
    });
    const draft = await ok(owner, 'POST', '/client-invoices', create(w));
    const detailed = `/reports/detailed?preset=custom&from=${JAN.from}&to=${JAN.to}&timeZone=UTC&limit=50`;
    const invoiceOf = async (who: SignedUp) => {
      const { items } = await ok(who, 'GET', detailed);
      return Object.fromEntries(items.map((e: { id: string; invoice: unknown }) => [e.id, e.invoice]));
    };
    const drafted = await invoiceOf(owner);
    expect(drafted[w.entries.web1]).toEqual({ id: draft.id, number: null });
    expect(drafted[w.entries.unpaid]).toBeNull();
    const issued = await ok(owner, 'POST', `/client-invoices/${draft.id}/issue`);
    const admin = await joinWorkspace(ctx.t, owner.workspaceId, 'admin');
    const byAdmin = await invoiceOf(admin);
    for (const id of [w.entries.web1, w.entries.web2, w.entries.design]) {
      expect(byAdmin[id]).toEqual({ id: draft.id, number: issued.number });
    }
    expect(byAdmin[w.entries.other]).toBeNull();
    // A manager sees their time, not the invoice it is on.
    expect(byAdmin[managers.id]).toEqual({ id: draft.id, number: issued.number });
    expect((await invoiceOf(manager))[managers.id]).toBeNull();
  });

  it('is for owners and admins of the workspace only', async () => {
    const w = await world();
    const draft = await ok(owner, 'POST', '/client-invoices', create(w));
    const admin = await joinWorkspace(ctx.t, owner.workspaceId, 'admin');
    const manager = await joinWorkspace(ctx.t, owner.workspaceId, 'manager');
    expect((await call(admin, 'GET', `/client-invoices/${draft.id}`)).statusCode).toBe(200);
    const refused = await call(manager, 'GET', '/client-invoices');
    expect(refused.statusCode).toBe(403);
    // another workspace's owner cannot reach this invoice through their own workspace
    const stranger = await signUp(ctx.t.app);
    const theirs = `/api/v1/workspaces/${stranger.workspaceId}/client-invoices/${draft.id}`;
    expect((await ctx.call('GET', theirs, stranger.cookie)).statusCode).toBe(404);
    expect((await ctx.call('POST', `${theirs}/issue`, stranger.cookie)).statusCode).toBe(404);
  });
});

describe('client invoices under concurrency', () => {
  it('lets one of two invoices of the same time win; the other gets a clear 409', async () => {
    const w = await world();
    const answers = await Promise.all([
      call(owner, 'POST', '/client-invoices', create(w)),
      call(owner, 'POST', '/client-invoices', create(w, { groupBy: 'entry' })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((a) => a.statusCode === 409);
    expect(loser?.json().error.code).toBe('entries_already_invoiced');
    const links = await ctx.t.db
      .selectFrom('client_invoice_entries')
      .select('entry_id')
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
    expect(links).toHaveLength(3);
  });

  // PostgreSQL only: PGlite runs one transaction at a time, so there the second request simply
  // finds the time taken (the 409 of the test above).
  it.runIf(process.env.DATABASE_URL)(
    'answers 409 to an invoice that waited on a concurrent one taking the same time',
    async () => {
      const w = await world();
      let answer: ReturnType<typeof call> | undefined;
      await ctx.t.db.transaction().execute(async (tx) => {
        const id = '00000000-0000-4000-8000-00000000c0de';
        await tx
          .insertInto('client_invoices')
          .values({
            id,
            workspace_id: owner.workspaceId,
            client_id: w.clientId,
            currency: 'EUR',
            period_from: JAN.from,
            period_to: JAN.to,
            group_by: 'entry',
            discount: 'null',
            taxes: '[]',
            total_cents: 0,
            client_name: 'Acme',
          })
          .execute();
        await tx
          .insertInto('client_invoice_entries')
          .values({
            entry_id: w.entries.web1,
            workspace_id: owner.workspaceId,
            invoice_id: id,
            seconds: 3600,
            rate_cents: null,
            amount_cents: 0,
          })
          .execute();
        // The request reads the entry as free (this link is not committed) and waits on its key.
        answer = call(owner, 'POST', '/client-invoices', create(w));
        await new Promise((resolve) => setTimeout(resolve, 500));
      });
      const response = await (answer as ReturnType<typeof call>);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().error).toEqual({
        code: 'entries_already_invoiced',
        message: 'Some of this time is already on another invoice. Refresh the preview and try again.',
      });
    },
  );

  it('gives two issues at once consecutive numbers', async () => {
    const w = await world();
    const jan = await ok(owner, 'POST', '/client-invoices', create(w));
    const feb = await ok(owner, 'POST', '/client-invoices', create(w, { from: '2026-02-01', to: '2026-02-28' }));
    const issued = await Promise.all([jan, feb].map((d) => ok(owner, 'POST', `/client-invoices/${d.id}/issue`)));
    expect(issued.map((i) => i.number.slice(-4)).sort()).toEqual(['0001', '0002']);
  });
});
