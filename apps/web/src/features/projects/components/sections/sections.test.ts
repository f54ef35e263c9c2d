import { budgetAlertMessages } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { alertPercentsError, initialSections, sectionsBody } from './sections';

describe('the budget section’s alert thresholds', () => {
  it('start at the default for a new budget and at the saved ones for an existing budget', () => {
    expect(initialSections().budgetAlerts).toEqual(['80', '100']);
    const saved = { type: 'hours' as const, amount: 60, resetsMonthly: false, alertPercents: [] };
    const people = { users: [], groups: [] };
    const s = initialSections({
      description: null,
      budget: saved,
      billableDefault: false,
      keywordsEnabled: false,
      keywords: [],
      people,
    });
    expect(s.budgetAlerts).toEqual([]);
  });

  it('are sent as numbers, "50%" as 50, and an empty list as no alerts', () => {
    const s = { ...initialSections(), budgetAmount: 2, budgetAlerts: ['50%', ' 120 '] };
    expect(sectionsBody(s).budget?.alertPercents).toEqual([50, 120]);
    expect(sectionsBody({ ...s, budgetAlerts: [] }).budget?.alertPercents).toEqual([]);
  });

  it('say what is wrong as they are typed, in the words of the API', () => {
    expect(alertPercentsError(['80', '100'])).toBeUndefined();
    expect(alertPercentsError(['eighty'])).toBe(budgetAlertMessages.notWhole);
    expect(alertPercentsError(['0'])).toBe(budgetAlertMessages.tooLow);
    expect(alertPercentsError(['1', '2', '3', '4', '5', '6'])).toBe(budgetAlertMessages.tooMany);
  });
});
