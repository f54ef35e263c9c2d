import type { BudgetType } from '@sundial/core';
import type { Budget, People } from '../../api';

/** What the shared edit-panel sections hold while being edited. */
export interface SectionsState {
  description: string;
  budgetType: BudgetType;
  budgetAmount: number | string;
  budgetResets: boolean;
  billableDefault: boolean;
  keywordsEnabled: boolean;
  keywords: string[];
  userIds: string[];
  groupIds: string[];
}

/** Props every section gets. */
export interface SectionProps {
  value: SectionsState;
  onChange: (patch: Partial<SectionsState>) => void;
  readOnly: boolean;
}

export function initialSections(x?: {
  description: string | null;
  budget: Budget | null;
  billableDefault: boolean;
  keywordsEnabled: boolean;
  keywords: string[];
  people: People;
}): SectionsState {
  const budget = x?.budget;
  return {
    description: x?.description ?? '',
    budgetType: budget?.type ?? 'hours',
    budgetAmount: budget ? (budget.type === 'hours' ? budget.amount / 60 : budget.amount / 100) : '',
    budgetResets: budget?.resetsMonthly ?? false,
    billableDefault: x?.billableDefault ?? false,
    keywordsEnabled: x?.keywordsEnabled ?? false,
    keywords: x?.keywords ?? [],
    userIds: x?.people.users.map((u) => u.id) ?? [],
    groupIds: x?.people.groups.map((g) => g.id) ?? [],
  };
}

/** The sections as an API body: budget in minutes or cents. */
export function sectionsBody(s: SectionsState) {
  const amount = typeof s.budgetAmount === 'number' ? s.budgetAmount : Number.parseFloat(s.budgetAmount);
  return {
    description: s.description.trim() ? s.description : null,
    budget: Number.isFinite(amount)
      ? {
          type: s.budgetType,
          amount: Math.round(amount * (s.budgetType === 'hours' ? 60 : 100)),
          resetsMonthly: s.budgetResets,
        }
      : null,
    billableDefault: s.billableDefault,
    keywordsEnabled: s.keywordsEnabled,
    keywords: s.keywords,
  };
}

/** The people to save, or null when they are the ones assigned now. */
export function changedPeople(s: SectionsState, p?: People): { userIds: string[]; groupIds: string[] } | null {
  const same =
    JSON.stringify([[...s.userIds].sort(), [...s.groupIds].sort()]) ===
    JSON.stringify([(p?.users.map((u) => u.id) ?? []).sort(), (p?.groups.map((g) => g.id) ?? []).sort()]);
  return same ? null : { userIds: s.userIds, groupIds: s.groupIds };
}
