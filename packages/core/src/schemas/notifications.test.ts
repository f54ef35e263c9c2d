import { describe, expect, it } from 'vitest';
import { BUDGET_ALERT_PERCENTS, budgetPeriod, reachedThresholds } from './notifications.js';

describe('budget alert thresholds', () => {
  it('are reached at their percent of the budget, not before', () => {
    expect(reachedThresholds(79, 100, BUDGET_ALERT_PERCENTS)).toEqual([]);
    expect(reachedThresholds(80, 100, BUDGET_ALERT_PERCENTS)).toEqual([80]);
    expect(reachedThresholds(99, 100, BUDGET_ALERT_PERCENTS)).toEqual([80]);
    expect(reachedThresholds(100, 100, BUDGET_ALERT_PERCENTS)).toEqual([80, 100]);
    expect(reachedThresholds(250, 100, BUDGET_ALERT_PERCENTS)).toEqual([80, 100]);
    expect(reachedThresholds(4, 5, [100, 50])).toEqual([50]);
  });

  it('are none for a budget that asks for no alerts', () => {
    expect(reachedThresholds(500, 100, [])).toEqual([]);
  });

  it('are never reached by an empty budget', () => {
    expect(reachedThresholds(10, 0, BUDGET_ALERT_PERCENTS)).toEqual([]);
  });

  it('count a monthly budget per UTC month and another over all time', () => {
    expect(budgetPeriod(true, new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(budgetPeriod(true, new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
    expect(budgetPeriod(false, new Date('2026-12-01T00:00:00Z'))).toBe('total');
  });
});
