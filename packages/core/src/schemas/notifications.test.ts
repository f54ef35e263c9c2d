import { describe, expect, it } from 'vitest';
import { BUDGET_ALERT_PERCENTS, budgetNearPercent, budgetStateFromAlerts, reachedThresholds } from './notifications.js';
import { budgetStatus } from './reports.js';

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
});

describe('a budget’s state in the Projects list', () => {
  it('is near from its lowest threshold below 100, and never near without one', () => {
    expect(budgetNearPercent([50, 80, 100])).toBe(50);
    expect(budgetNearPercent([100, 120])).toBeNull();
    expect(budgetNearPercent([])).toBeNull();
    expect(budgetStatus(49, 100, 50)).toBe('ok');
    expect(budgetStatus(50, 100, 50)).toBe('near');
    expect(budgetStatus(99, 100, null)).toBe('ok');
    expect(budgetStatus(101, 100, null)).toBe('over');
  });

  it('reads the highest recorded alert: over from 100, near from the near threshold', () => {
    expect(budgetStateFromAlerts(null, BUDGET_ALERT_PERCENTS)).toBe('ok');
    expect(budgetStateFromAlerts(80, BUDGET_ALERT_PERCENTS)).toBe('near');
    expect(budgetStateFromAlerts(50, [50])).toBe('near');
    expect(budgetStateFromAlerts(120, [50, 120])).toBe('over');
    expect(budgetStateFromAlerts(100, [])).toBe('over');
    // An 80 % alert sent before the thresholds became 90 and 100: not near yet.
    expect(budgetStateFromAlerts(80, [90, 100])).toBe('ok');
    expect(budgetStateFromAlerts(80, [100])).toBe('ok');
  });
});
