import { describe, expect, it } from 'vitest';
import { cardBrandOf, cardMessages, cardTokenBody, isExpired, passesLuhn } from './payments.js';

const thisYear = new Date().getUTCFullYear();
const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: thisYear + 1, cvc: '123', name: 'Ada' };
const issues = (input: object) =>
  cardTokenBody.safeParse(input).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('card checks', () => {
  it('checks the Luhn digit', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('378282246310005')).toBe(true);
    expect(passesLuhn('42a2')).toBe(false);
  });

  it('names the brand as the number is typed', () => {
    expect(['42', '5555', '3782', '6011', '3056', '3566', '0'].map(cardBrandOf)).toEqual([
      'visa',
      'mastercard',
      'amex',
      'discover',
      'diners',
      'jcb',
      'unknown',
    ]);
  });

  it('counts a card valid through the end of its month', () => {
    const now = new Date(Date.UTC(2026, 10, 25));
    expect(isExpired(11, 2026, now)).toBe(false);
    expect(isExpired(10, 2026, now)).toBe(true);
    expect(isExpired(1, 2027, now)).toBe(false);
  });

  it('takes a good card, spaces and all, and gives the digits only', () => {
    expect(cardTokenBody.parse(card).number).toBe('4242424242424242');
  });

  it('says what is wrong', () => {
    expect(issues({ ...card, number: '4242 4242 4242 4241' })).toEqual([['number', cardMessages.numberInvalid]]);
    expect(issues({ ...card, expMonth: 1, expYear: thisYear - 1 })).toEqual([['expYear', cardMessages.expired]]);
    expect(issues({ ...card, cvc: '12' })).toEqual([['cvc', cardMessages.cvcInvalid]]);
    expect(issues({ ...card, number: '378282246310005', cvc: '123' })).toEqual([['cvc', cardMessages.cvcInvalidAmex]]);
    expect(issues({ ...card, number: '378282246310005', cvc: '1234' })).toEqual([]);
  });
});
