import { describe, expect, it } from 'vitest';
import { cardMessages } from '../billing/card.js';
import { cardTokenBody } from './payments.js';

const thisYear = new Date().getUTCFullYear();
const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: thisYear + 1, cvc: '123', name: 'Ada' };
const issues = (input: object) =>
  cardTokenBody.safeParse(input).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('the tokenisation body', () => {
  it('takes a good card, spaces and all, and gives the digits only', () => {
    expect(cardTokenBody.parse(card).number).toBe('4242424242424242');
  });

  it("says what is wrong, with the card form's own messages", () => {
    expect(issues({ ...card, number: '4242 4242 4242 4241' })).toEqual([['number', cardMessages.numberTypo]]);
    expect(issues({ ...card, expMonth: 1, expYear: thisYear - 1 })).toEqual([['expYear', cardMessages.expired]]);
    expect(issues({ ...card, expMonth: 13 })).toEqual([['expMonth', cardMessages.monthInvalid]]);
    expect(issues({ ...card, cvc: '12' })).toEqual([['cvc', cardMessages.cvvDigits(3)]]);
    expect(issues({ ...card, number: '378282246310005', cvc: '123' })).toEqual([['cvc', cardMessages.cvvDigits(4)]]);
    expect(issues({ ...card, number: '378282246310005', cvc: '1234' })).toEqual([]);
    expect(issues({ ...card, name: ' ' })).toEqual([['name', cardMessages.nameRequired]]);
  });
});
