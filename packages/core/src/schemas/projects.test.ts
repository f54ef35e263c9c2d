import { describe, expect, it } from 'vitest';
import { budgetAlertMessages, budgetSchema } from './projects.js';

const budget = (alertPercents: unknown) => budgetSchema.safeParse({ type: 'hours', amount: 600, alertPercents });
const messages = (alertPercents: unknown) => budget(alertPercents).error?.issues.map((i) => i.message) ?? [];

describe('budget alert thresholds', () => {
  it('are kept sorted, and may be empty (no alerts) or left out (the default or the ones saved)', () => {
    expect(budget([100, 50, 120]).data?.alertPercents).toEqual([50, 100, 120]);
    expect(budget([]).data?.alertPercents).toEqual([]);
    expect(budget(undefined).data?.alertPercents).toBeUndefined();
    expect(budget([1, 999]).success).toBe(true);
  });

  it('refuse a percentage that is not whole or out of 1 to 999, with a message saying so', () => {
    expect(messages([80.5])).toEqual([budgetAlertMessages.notWhole]);
    expect(messages(['80'])).toEqual([budgetAlertMessages.notWhole]);
    expect(messages([0])).toEqual([budgetAlertMessages.tooLow]);
    expect(messages([1000])).toEqual([budgetAlertMessages.tooHigh]);
  });

  it('refuse more than five thresholds and the same one twice', () => {
    expect(messages([10, 20, 30, 40, 50, 60])).toEqual([budgetAlertMessages.tooMany]);
    expect(messages([80, 100, 80])).toEqual([budgetAlertMessages.duplicate]);
  });
});
