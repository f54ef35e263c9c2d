import { describe, expect, it } from 'vitest';
import {
  CARD_BRANDS,
  cardBrand,
  cardFormErrors,
  cardMessages,
  cardNumberError,
  cardNumberGroups,
  cvvError,
  cvvLength,
  EXPIRY_MONTHS,
  expiryError,
  expiryYears,
  isExpiryValid,
  isValidCardNumber,
} from './card.js';

// Test numbers of the card networks (the ones Stripe's test mode uses).
const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  discover: '6011111111111117',
  amex: '378282246310005',
  diners: '3056930009020004',
  jcb: '3566002020360505',
} as const;

describe('card brand', () => {
  it.each(CARD_BRANDS.map((brand) => [brand, CARDS[brand]]))('recognises %s', (brand, number) => {
    expect(cardBrand(number)).toBe(brand);
    expect(isValidCardNumber(number)).toBe(true);
  });

  it('is known from the first digits, live while typing', () => {
    expect(cardBrand('4')).toBe('visa');
    expect(cardBrand('51')).toBe('mastercard');
    expect(cardBrand('2221')).toBe('mastercard');
    expect(cardBrand('34')).toBe('amex');
    expect(cardBrand('37')).toBe('amex');
    expect(cardBrand('6011')).toBe('discover');
    expect(cardBrand('36')).toBe('diners');
    expect(cardBrand('35')).toBe('jcb');
    expect(cardBrand('4242 4242')).toBe('visa');
  });

  it('is unknown while the digits fit several brands, and for none', () => {
    expect(cardBrand('')).toBeNull();
    expect(cardBrand('3')).toBeNull();
    expect(cardBrand('9')).toBeNull();
  });

  it('groups the digits as the brand prints them', () => {
    expect(cardNumberGroups('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(cardNumberGroups('378282246310005')).toBe('3782 822463 10005');
    expect(cardNumberGroups('42424')).toBe('4242 4');
  });
});

describe('card number', () => {
  it('accepts spaces and dashes between the digits', () => {
    expect(cardNumberError('4242 4242 4242 4242')).toBeNull();
    expect(cardNumberError('4242-4242-4242-4242')).toBeNull();
  });

  it('refuses a number that fails the Luhn check', () => {
    expect(cardNumberError('4242424242424241')).toBe(cardMessages.numberTypo);
    expect(isValidCardNumber('378282246310006')).toBe(false);
  });

  it('says what is missing', () => {
    expect(cardNumberError('')).toBe(cardMessages.numberRequired);
    expect(cardNumberError('4242 4242')).toBe(cardMessages.numberIncomplete);
    expect(cardNumberError('4242abcd42424242')).toBe(cardMessages.numberTypo);
  });

  it('refuses brands we do not take', () => {
    expect(cardNumberError('6200000000000005')).toBe(cardMessages.brandNotAccepted); // UnionPay
  });
});

describe('expiry', () => {
  const now = new Date(2026, 10, 25, 12, 0);

  it('accepts this month and later, refuses earlier', () => {
    expect(isExpiryValid({ month: 11, year: 2026, now })).toBe(true);
    expect(isExpiryValid({ month: 12, year: 2026, now })).toBe(true);
    expect(isExpiryValid({ month: 1, year: 2027, now })).toBe(true);
    expect(isExpiryValid({ month: 10, year: 2026, now })).toBe(false);
    expect(isExpiryValid({ month: 12, year: 2025, now })).toBe(false);
  });

  it('still accepts the month until its last moment', () => {
    expect(isExpiryValid({ month: 11, year: 2026, now: new Date(2026, 10, 30, 23, 59) })).toBe(true);
    expect(isExpiryValid({ month: 11, year: 2026, now: new Date(2026, 11, 1, 0, 0) })).toBe(false);
  });

  it('refuses months that do not exist', () => {
    expect(isExpiryValid({ month: 0, year: 2027, now })).toBe(false);
    expect(isExpiryValid({ month: 13, year: 2027, now })).toBe(false);
  });

  it('says what is wrong', () => {
    expect(expiryError({ month: null, year: 2027, now })).toBe(cardMessages.monthRequired);
    expect(expiryError({ month: 1, year: null, now })).toBe(cardMessages.yearRequired);
    expect(expiryError({ month: 1, year: 2026, now })).toBe(cardMessages.expired);
    expect(expiryError({ month: 1, year: 2027, now })).toBeNull();
  });

  it('offers the months 01 to 12 and the years from this one to ten ahead', () => {
    expect(EXPIRY_MONTHS.map((month) => month.label)).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
    ]);
    expect(EXPIRY_MONTHS[0]).toEqual({ value: 1, label: '01' });
    expect(expiryYears(now)).toEqual([2026, 2027, 2028, 2029, 2030, 2031, 2032, 2033, 2034, 2035, 2036]);
  });
});

describe('CVV', () => {
  it('has 4 digits on American Express and 3 on the others', () => {
    expect(cvvLength('amex')).toBe(4);
    expect(cvvLength('visa')).toBe(3);
    expect(cvvLength(null)).toBe(3);
    expect(cvvError('1234', 'amex')).toBeNull();
    expect(cvvError('123', 'amex')).toBe('Please enter the 4-digit security code (CVV).');
    expect(cvvError('123', 'visa')).toBeNull();
    expect(cvvError('1234', 'visa')).toBe('Please enter the 3-digit security code (CVV).');
    expect(cvvError('12a', 'mastercard')).not.toBeNull();
  });
});

describe('the card form', () => {
  const now = new Date(2026, 10, 25);

  it('has no errors for a good card', () => {
    expect(cardFormErrors({ number: CARDS.amex, month: 3, year: 2030, cvv: '1234' }, now)).toEqual({});
  });

  it('names every field at fault', () => {
    expect(cardFormErrors({ number: '4242424242424241', month: 10, year: 2026, cvv: '1234' }, now)).toEqual({
      number: cardMessages.numberTypo,
      expiry: cardMessages.expired,
      cvv: 'Please enter the 3-digit security code (CVV).',
    });
  });
});
