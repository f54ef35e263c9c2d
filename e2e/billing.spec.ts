import { expect, type Page, test } from '@playwright/test';
import { pdfText } from '../apps/api/test/pdf-text';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

// Its journeys are independent (each signs its own people up) and among the longest: they spread over
// both workers instead of running one after another in one (issue 31).
test.describe.configure({ mode: 'parallel' });

/** From the trial's billing page: Pro, 3 licenses, Annual; a US company's invoice information; to the card form. */
async function chooseProAndFillInvoiceInformation(page: Page, shots: boolean) {
  await page.goto('/homepage/billing');
  await expect(page.getByTestId('billing-trial-banner')).toContainText('days left on your pro trial');
  await expect(page.getByTestId('plan-card-pro')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 in use')).toBeVisible();
  await page.getByLabel('Number of licenses').fill('3');
  await expect(page.getByRole('radio', { name: 'Annual' })).toBeChecked();
  await expect(page.getByTestId('purchase-total')).toHaveText('$324.00');
  // Monthly keeps the license count and shows monthly prices; back to Annual.
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await expect(page.getByTestId('purchase-total')).toHaveText('$30.00');
  await expect(page.getByLabel('Number of licenses')).toHaveValue('3');
  await page.getByRole('radio', { name: 'Annual' }).check();
  await expect(page.getByTestId('purchase-total')).toHaveText('$324.00');
  if (shots) {
    await expectNoSeriousViolations(page, 'your subscription');
    await shotsAtWidths(page, 'billing-subscription');
  }
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/homepage\/subscription\?plan=pro&cycle=annual&licenses=3/);
  await page.getByLabel('Company name / your name').fill('Harbour Tools Inc.');
  await page.getByRole('textbox', { name: 'Address', exact: true }).fill('1 Market Street');
  await page.getByLabel('City').fill('San Francisco');
  await page.getByLabel('Zip / Postal').fill('94105');
  await page.getByRole('combobox', { name: 'Country' }).fill('United States of Am');
  await page.getByRole('option', { name: 'United States of America' }).click();
  await page.getByLabel('I buy as a business').check();
  // A US business gives no VAT ID, and the summary says so before the payment step.
  await expect(page.getByLabel('VAT ID')).toHaveCount(0);
  const before = page.getByRole('region', { name: 'Summary' });
  await expect(before.getByTestId('tax-note')).toHaveText('No VAT: the customer is outside the EU.');
  await expect(before).toContainText('Total$324.00');
  if (shots) {
    await expectNoSeriousViolations(page, 'invoice information');
    await shotsAtWidths(page, 'billing-invoice-information');
  }
  await page.getByRole('button', { name: 'Subscribe now' }).click();
  await expect(page).toHaveURL(/\/homepage\/payment\?plan=pro&cycle=annual&licenses=3/);
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary).toContainText('$324.00');
  await expect(summary).not.toContainText('VAT (');
}

async function fillCard(page: Page, number: string) {
  const year = String(new Date().getFullYear() + 2);
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Card holder').fill('Ada Harbour');
  await page.getByRole('combobox', { name: 'Month' }).click();
  await page.getByRole('option', { name: '08' }).click();
  await page.getByRole('combobox', { name: 'Year' }).click();
  await page.getByRole('option', { name: year }).click();
  await page.getByLabel('CVV').fill('123');
}

test.describe('billing', () => {
  test('a trial owner buys Pro for 3 licenses annually with a card, and finds the paid invoice and its PDF', async ({
    page,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    await chooseProAndFillInvoiceInformation(page, true);

    await fillCard(page, '4242424242424242');
    const preview = page.getByTestId('card-preview');
    await expect(preview).toContainText('4242 4242 4242 4242');
    await expect(preview).toContainText('Visa');
    await expect(preview).toContainText('08/');
    await expectNoSeriousViolations(page, 'payment');
    await shotsAtWidths(page, 'billing-payment');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful.' })).toBeVisible();
    await shotsAtWidths(page, 'billing-paid');

    await page.getByRole('link', { name: 'See your invoices' }).click();
    await expect(page).toHaveURL(/\/homepage\/invoice$/);
    const rows = page.getByTestId('invoice-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('$324.00');
    await expect(rows.first()).toContainText('Paid');
    await expect(rows.first()).toContainText('US');
    await expectNoSeriousViolations(page, 'invoices');
    await shotsAtWidths(page, 'billing-invoices');
    const href = await rows
      .first()
      .getByRole('link', { name: /as PDF/ })
      .getAttribute('href');
    const pdf = await page.request.get(href ?? '');
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    // Paid: no trial banner nor Subscribe button any more, and Billing is still in the user menu.
    await expect(page.getByRole('link', { name: 'Subscribe to Pro' })).toBeHidden();
    await page.getByRole('button', { name: /User menu/ }).click();
    await shotsAtWidths(page, 'billing-user-menu');
    await page.getByRole('menuitem', { name: 'Billing' }).click();
    await expect(page).toHaveURL(/\/homepage\/billing$/);
    const subscription = page.getByRole('region', { name: 'Your subscription' });
    await expect(subscription).toContainText('Pro');
    await expect(subscription).toContainText('Visa ending in 4242');
    await shotsAtWidths(page, 'billing-subscribed');

    // Replace the saved card: a declined one is refused and the saved one stays, then a Mastercard.
    await subscription.getByRole('button', { name: 'Replace card' }).click();
    const replace = page.getByRole('dialog', { name: 'Replace the saved card' });
    await fillCard(page, '4000000000000002');
    await replace.getByRole('button', { name: 'Save card' }).click();
    await expect(replace.getByTestId('card-error')).toHaveText('Your card was declined.');
    await shotsAtWidths(page, 'billing-replace-card');
    // The rest of the form is kept (choosing the month again would clear it).
    await page.getByLabel('Card number').fill('5555555555554444');
    await replace.getByRole('button', { name: 'Save card' }).click();
    await expect(replace).toBeHidden();
    await expect(subscription).toContainText('Mastercard ending in 4444');

    await subscription.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(subscription).toContainText('Ends on');
    await expect(subscription.getByRole('button', { name: 'Keep my subscription' })).toBeVisible();
    expect((await (await page.request.get(`${ws}/billing`)).json()).subscription.licenses).toBe(3);
  });

  test('an EU business with a valid VAT id in another country than the seller’s is reverse charged', async ({
    page,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    await page.goto('/homepage/subscription?plan=pro&cycle=annual&licenses=1');
    const before = page.getByRole('region', { name: 'Summary' });
    await expect(before).toContainText('Total before VAT$108.00');
    await page.getByLabel('Company name / your name').fill('Muster GmbH');
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('Hauptstraße 1');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel('Zip / Postal').fill('10115');
    await page.getByRole('combobox', { name: 'Country' }).fill('Germa');
    await page.getByRole('option', { name: 'Germany' }).click();
    // VAT, its rate and country, and the total are on this page, before the payment step.
    await expect(before).toContainText('VAT (19%, Germany)$20.52');
    await expect(before).toContainText('Total$128.52');
    await page.getByLabel('I buy as a business').check();
    await page.getByLabel('VAT ID').fill('DE136695976');
    await expect(before).toContainText('VAT (0%)$0.00');
    await expect(before).toContainText('Total$108.00');
    await page.getByRole('button', { name: 'Subscribe now' }).click();

    // The seller is in Ireland: the summary shows 0% VAT and the reverse-charge note.
    await expect(page).toHaveURL(/\/homepage\/payment\?plan=pro&cycle=annual&licenses=1/);
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary).toContainText('VAT (0%)$0.00');
    await expect(summary.getByTestId('tax-note')).toHaveText(
      'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)',
    );
    await expect(summary).toContainText('Total$108.00');
    await shotsAtWidths(page, 'billing-reverse-charge');
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful.' })).toBeVisible();

    await page.goto('/homepage/invoice');
    const row = page.getByTestId('invoice-row');
    await expect(row).toHaveCount(1);
    const cells = row.getByRole('cell');
    await expect(cells.nth(2)).toHaveText('$108.00');
    await expect(cells.nth(3)).toHaveText('$0.00');
    await expect(cells.nth(4)).toHaveText('$108.00');
    await expect(cells.nth(0)).toContainText('DE');

    // The PDF says so in words (read with the same text extraction as the API tests: no system tool needed).
    const href = await row.getByRole('link', { name: /as PDF/ }).getAttribute('href');
    const pdf = await page.request.get(href ?? '');
    expect(pdf.status()).toBe(200);
    const text = pdfText(await pdf.body()).replace(/\s+/g, ' ');
    expect(text).toContain('Reverse charge: VAT to be accounted for by the recipient');
    expect(text).toContain('DE136695976');
  });

  test('more seats from the Users screen are paid with the saved card, without entering it again', async ({ page }) => {
    test.slow();
    await signUpOverHttp(page.request);
    await chooseProAndFillInvoiceInformation(page, false);
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful.' })).toBeVisible();

    await page.goto('/homepage/user');
    await page.getByRole('link', { name: 'Change number of seats' }).click();
    await expect(page).toHaveURL(/\/homepage\/billing$/);
    await page.getByLabel('Number of licenses').fill('5');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByLabel('Company name / your name')).toHaveValue('Harbour Tools Inc.');
    // The credit for the unused time of 3 licenses is on the summary, as the invoice will show it.
    const lines = page.getByRole('region', { name: 'Summary' }).getByTestId('quote-lines');
    await expect(lines).toContainText('Unused time on Pro, annual, 3 licenses');
    const credit = (await lines.getByText(/^Unused time on/).textContent()) ?? '';
    await page.getByRole('button', { name: 'Subscribe now' }).click();

    // The payment step offers the saved card; no card form unless another card is asked for.
    await expect(page).toHaveURL(/\/homepage\/payment\?plan=pro&cycle=annual&licenses=5/);
    await expect(page.getByTestId('saved-card')).toContainText('Visa ending 4242');
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    await expectNoSeriousViolations(page, 'payment with the saved card');
    await shotsAtWidths(page, 'billing-saved-card');
    await page.getByRole('button', { name: 'Use another card' }).click();
    await expect(page.getByLabel('Card number')).toBeVisible();
    await page.reload();
    await page.getByRole('button', { name: 'Pay with Visa ending 4242' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful.' })).toBeVisible();

    await page.getByRole('link', { name: 'See your invoices' }).click();
    const rows = page.getByTestId('invoice-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('5 licenses');
    await expect(rows.first()).toContainText('Paid');
    const href = await rows
      .first()
      .getByRole('link', { name: /as PDF/ })
      .getAttribute('href');
    const pdf = pdfText(await (await page.request.get(href ?? '')).body()).replace(/\s+/g, ' ');
    expect(pdf).toContain(credit.replace(/\s+/g, ' ').split(' (')[0]);
  });

  test('a change at the period’s end asks for no card', async ({ page }) => {
    test.slow();
    await signUpOverHttp(page.request);
    await chooseProAndFillInvoiceInformation(page, false);
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful.' })).toBeVisible();

    // Fewer licenses take effect at the period's end: nothing is charged, so no card is asked for.
    await page.goto('/homepage/payment?plan=pro&cycle=annual&licenses=2');
    await expect(page.getByText('nothing is charged today, so no card is needed')).toBeVisible();
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    await page.getByRole('button', { name: 'Confirm the change' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Change scheduled.' })).toBeVisible();
    await page.goto('/homepage/invoice');
    await expect(page.getByTestId('invoice-row')).toHaveCount(1);
  });

  test('a member sees the plan and whom to ask, and no buying controls', async ({ page, browser }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const context = await browser.newContext();
    const member = await context.newPage();
    await joinAsMember(page.request, ws, member.request, 'Mia Member');
    await member.goto('/homepage/billing');
    await expect(member.getByText('Only owners and admins can change the plan.')).toBeVisible();
    await expect(member.getByRole('button', { name: 'Continue' })).toHaveCount(0);
    await expect(member.getByLabel('Number of licenses')).toHaveCount(0);
    await expectNoSeriousViolations(member, 'billing for a member');
    await shotsAtWidths(member, 'billing-member');
    await member.goto('/homepage/invoice');
    await expect(member.getByText('Only owners and admins can change the plan: ask one of them.')).toBeVisible();
    await context.close();
  });

  test('a declined card says so and makes no invoice', async ({ page }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    await chooseProAndFillInvoiceInformation(page, false);
    // A mistyped number is refused beside the field; correcting it clears the error before Pay.
    await fillCard(page, '4242424242424241');
    await page.getByRole('button', { name: 'Pay now' }).click();
    const typo = page.getByText('This card number is not valid: check the digits.');
    await expect(typo).toBeVisible();
    await page.getByLabel('Card number').fill('4000000000000002');
    await expect(typo).toHaveCount(0);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByTestId('payment-error')).toHaveText('Your card was declined.');
    await shotsAtWidths(page, 'billing-declined');
    expect((await (await page.request.get(`${ws}/billing/invoices`)).json()).items).toHaveLength(0);
    await page.goto('/homepage/invoice');
    await expect(page.getByTestId('invoices-empty')).toBeVisible();
  });

  test('a card that needs a second step goes through it and ends paid', async ({ page }) => {
    test.slow();
    await signUpOverHttp(page.request);
    await chooseProAndFillInvoiceInformation(page, false);
    await fillCard(page, '4000002760003184');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('button', { name: 'Complete' }).click();
    await expect(page).toHaveURL(/\/homepage\/payment\?checkout=/);
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful.' })).toBeVisible();
    await page.goto('/homepage/invoice');
    await expect(page.getByTestId('invoice-row')).toHaveCount(1);
    await expect(page.getByTestId('invoice-row').first()).toContainText('Paid');

    // (The failed step is in its own journey below.)
    // A replacement card that asks for the second step is saved once the bank says yes.
    await page.goto('/homepage/billing?replace-card=1');
    const replace = page.getByRole('dialog', { name: 'Replace the saved card' });
    await fillCard(page, '4000002500003155');
    await replace.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('button', { name: 'Complete' }).click();
    await expect(page).toHaveURL(/\/homepage\/billing/);
    await expect(page.getByRole('region', { name: 'Your subscription' })).toContainText('Visa ending in 3155');
  });

  test('a failed second step offers the card form again, and paying again works', async ({ page }) => {
    test.slow();
    await signUpOverHttp(page.request);
    await chooseProAndFillInvoiceInformation(page, false);
    await fillCard(page, '4000002760003184');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('button', { name: 'Fail' }).click();
    // Back with the purchase: the bank's refusal, the summary and the card form.
    await expect(page).toHaveURL(/\/homepage\/payment\?plan=pro&cycle=annual&licenses=3$/);
    await expect(page.getByTestId('payment-error')).toContainText('Your bank did not confirm the payment');
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText('$324.00');
    await shotsAtWidths(page, 'billing-second-step-failed');
    await fillCard(page, '4000002760003184');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('button', { name: 'Complete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Payment successful.' })).toBeVisible();
    await page.goto('/homepage/invoice');
    await expect(page.getByTestId('invoice-row')).toHaveCount(1);
  });

  test('a trial owner changes to Free: told what is lost, the trial ends, Free’s limits apply', async ({ page }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    await page.goto('/homepage/billing');
    await page.getByTestId('plan-card-free').click();
    await page.getByRole('button', { name: 'Change plan to free' }).click();
    const confirm = page.getByRole('dialog', { name: 'End your Pro trial and change to Free?' });
    await expect(confirm.getByRole('list', { name: 'What you lose' })).toContainText('Timesheet approvals');
    await expectNoSeriousViolations(page, 'end the trial');
    await shotsAtWidths(page, 'billing-end-trial');
    await confirm.getByRole('button', { name: 'End the trial and change to Free' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('billing-trial-banner')).toHaveCount(0);
    await expect(page.getByText('You are on Free: nothing to change.')).toBeVisible();
    const billing = await (await page.request.get(`${ws}/billing`)).json();
    expect(billing).toMatchObject({ effectivePlan: 'free', isTrial: false, trialDaysLeft: 0 });
    const locked = await page.request.get(
      `${ws}/reports/export?kind=summary&format=csv&groupBy=project&preset=custom&from=2026-01-01&to=2026-01-31&timeZone=UTC`,
    );
    expect(locked.status()).toBe(403);
  });
});
