import { describe, expect, it } from 'vitest';
import {
  FEATURES,
  featureLockedMessage,
  featuresOf,
  planHasFeature,
  seatLimit,
  workspaceHasFeature,
} from './entitlements.js';

const DAY = 86_400_000;
const now = new Date('2026-03-10T12:00:00Z');

describe('entitlements', () => {
  it('gives Free none of the paid features', () => {
    expect(featuresOf('free')).toEqual([]);
  });

  it('gives Basic its own list and nothing of Pro', () => {
    expect(featuresOf('basic')).toEqual(['export', 'integrations', 'management_roles', 'budgets']);
    expect(planHasFeature('basic', 'invoicing')).toBe(false);
  });

  it('gives Pro everything of Basic and its own list', () => {
    expect(featuresOf('pro')).toEqual([...FEATURES]);
    expect(planHasFeature('pro', 'budgets')).toBe(true);
    expect(planHasFeature('pro', 'advanced_tags')).toBe(true);
  });

  it('gives Enterprise every feature', () => {
    for (const feature of FEATURES) expect(planHasFeature('enterprise', feature)).toBe(true);
  });

  it('locks nothing while the trial runs, whatever the plan', () => {
    const onTrial = { plan: 'free' as const, trial_ends_at: new Date(now.getTime() + 3 * DAY) };
    for (const feature of FEATURES) expect(workspaceHasFeature(onTrial, feature, now)).toBe(true);
  });

  it('goes by the plan once the trial has ended', () => {
    const ended = new Date(now.getTime() - DAY);
    expect(workspaceHasFeature({ plan: 'free', trial_ends_at: ended }, 'export', now)).toBe(false);
    expect(workspaceHasFeature({ plan: 'basic', trial_ends_at: ended }, 'export', now)).toBe(true);
    expect(workspaceHasFeature({ plan: 'basic', trial_ends_at: null }, 'approvals', now)).toBe(false);
    expect(workspaceHasFeature({ plan: 'pro', trial_ends_at: null }, 'approvals', now)).toBe(true);
  });

  it('names the plan that unlocks a feature', () => {
    expect(featureLockedMessage('invoicing')).toBe('Invoicing needs the Pro plan. Upgrade to use it.');
    expect(featureLockedMessage('budgets')).toBe('Budgeting and alerts needs the Basic plan. Upgrade to use it.');
  });

  it('limits seats on paid plans only', () => {
    expect(seatLimit({ plan: 'free', licenses: 0 })).toBeNull();
    expect(seatLimit({ plan: 'basic', licenses: 5 })).toBe(5);
  });
});
