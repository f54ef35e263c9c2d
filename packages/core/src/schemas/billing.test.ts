import { describe, expect, it } from 'vitest';
import { billingDetailsSchema, billingDetailsMessages as m } from './billing.js';

const valid = {
  name: 'Acme GmbH',
  address: 'Unter den Linden 1',
  city: 'Berlin',
  postalCode: '10117',
  country: 'DE',
  isBusiness: true,
};

/** The message of each field at fault. */
function errorsOf(input: unknown): Record<string, string> {
  const result = billingDetailsSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('billing details', () => {
  it('accepts a business and normalises its VAT id', () => {
    expect(
      billingDetailsSchema.parse({ ...valid, country: 'de', vatId: 'de 136 695 976', invoiceEmail: 'Billing@Acme.DE' }),
    ).toEqual({
      ...valid,
      country: 'DE',
      vatId: 'DE136695976',
      invoiceEmail: 'billing@acme.de',
    });
  });

  it('accepts a person without a VAT id or invoice e-mail, empty fields meaning none', () => {
    const person = { ...valid, name: 'Jane Doe', isBusiness: false, vatId: '', invoiceEmail: '  ' };
    expect(billingDetailsSchema.parse(person)).toMatchObject({ vatId: null, invoiceEmail: null });
    expect(billingDetailsSchema.parse({ ...valid, isBusiness: undefined })).toMatchObject({ isBusiness: false });
  });

  it('refuses a body that is not an object, an array included, without throwing', () => {
    for (const body of [[], [1], 'text', null, 7]) expect(billingDetailsSchema.safeParse(body).success).toBe(false);
  });

  it('names every missing field', () => {
    expect(errorsOf({})).toEqual({
      name: m.nameRequired,
      address: m.addressRequired,
      city: m.cityRequired,
      postalCode: m.postalCodeRequired,
      country: m.countryRequired,
    });
    expect(errorsOf({ ...valid, name: '  ', city: '' })).toEqual({ name: m.nameRequired, city: m.cityRequired });
  });

  it('checks the postal code and VAT id even while other fields are missing', () => {
    expect(errorsOf({ ...valid, name: '', postalCode: '1011', vatId: 'DE136695977' })).toEqual({
      name: m.nameRequired,
      postalCode: 'This is not a postal code of Germany: check it or the country.',
      vatId: expect.stringMatching(/^This is not a valid VAT ID/),
    });
    expect(errorsOf({ ...valid, country: '', postalCode: '1011' })).toEqual({ country: m.countryRequired });
    expect(billingDetailsSchema.safeParse(null).success).toBe(false);
    expect(billingDetailsSchema.safeParse('Acme').success).toBe(false);
  });

  it('refuses an unknown country code', () => {
    expect(errorsOf({ ...valid, country: 'UK' })).toEqual({ country: m.countryRequired });
    expect(errorsOf({ ...valid, country: 'EL' })).toEqual({ country: m.countryRequired });
  });

  it('checks the postal code by the country rule, and as text elsewhere', () => {
    expect(errorsOf({ ...valid, postalCode: '1011' })).toEqual({
      postalCode: 'This is not a postal code of Germany: check it or the country.',
    });
    expect(errorsOf({ ...valid, postalCode: '10117#' })).toEqual({ postalCode: m.postalCodeText });
    expect(errorsOf({ ...valid, country: 'AO', postalCode: 'AB-12' })).toEqual({});
    expect(errorsOf({ ...valid, country: 'AO', postalCode: 'AB/12' })).toEqual({ postalCode: m.postalCodeText });
  });

  it('checks an EU VAT id and its country prefix, Greece with EL', () => {
    expect(errorsOf({ ...valid, vatId: 'DE136695977' }).vatId).toMatch(/^This is not a valid VAT ID/);
    expect(errorsOf({ ...valid, vatId: 'FR40303265045' })).toEqual({
      vatId: 'A VAT ID from Germany starts with DE. Check the ID or the country.',
    });
    const athens = { ...valid, city: 'Athens', postalCode: '105 57', country: 'GR' };
    expect(billingDetailsSchema.parse({ ...athens, vatId: '094259216' }).vatId).toBe('EL094259216');
    expect(errorsOf({ ...athens, vatId: 'GR094259216' })).toEqual({
      vatId: 'A VAT ID from Greece starts with EL. Check the ID or the country.',
    });
  });

  it('keeps a tax id outside the EU as given', () => {
    const zurich = { ...valid, city: 'Zürich', postalCode: '8001', country: 'CH', vatId: 'CHE-123.456.788 MWST' };
    expect(billingDetailsSchema.parse(zurich).vatId).toBe('CHE-123.456.788 MWST');
  });

  it('takes a VAT id only from a business', () => {
    expect(errorsOf({ ...valid, isBusiness: false, vatId: 'DE136695976' })).toEqual({ vatId: m.vatIdNotBusiness });
  });

  it('refuses a bad invoice e-mail and text over the limits', () => {
    expect(errorsOf({ ...valid, invoiceEmail: 'billing@' })).toEqual({ invoiceEmail: m.emailInvalid });
    expect(errorsOf({ ...valid, name: 'x'.repeat(201), address: 'x'.repeat(301), city: 'x'.repeat(101) })).toEqual({
      name: m.nameTooLong,
      address: m.addressTooLong,
      city: m.cityTooLong,
    });
    expect(errorsOf({ ...valid, address: 'Line 1\nLine 2' })).toEqual({ address: m.oneLine });
  });
});
