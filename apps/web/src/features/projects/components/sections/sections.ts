import { BUDGET_ALERT_PERCENTS, type BudgetType, budgetAlertPercentsSchema } from '@sundial/core';
import type { Budget, People } from '../../api';

/** What the shared edit-panel sections hold while being edited. */
export interface SectionsState {
  description: string;
  budgetType: BudgetType;
  budgetAmount: number | string;
  budgetResets: boolean;
  /** The alert thresholds as typed ("80", "100%"). */
  budgetAlerts: string[];
  billableDefault: boolean;
  keywordsEnabled: boolean;
  keywords: string[];
  userIds: string[];
  groupIds: string[];
  /** Assigned users and groups holding "Can manage" (projects only). */
  managerIds: string[];
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
    budgetAlerts: (budget?.alertPercents ?? BUDGET_ALERT_PERCENTS).map(String),
    billableDefault: x?.billableDefault ?? false,
    keywordsEnabled: x?.keywordsEnabled ?? false,
    keywords: x?.keywords ?? [],
    userIds: x?.people.users.map((u) => u.id) ?? [],
    groupIds: x?.people.groups.map((g) => g.id) ?? [],
    managerIds: [...(x?.people.users ?? []), ...(x?.people.groups ?? [])].filter((a) => a.canManage).map((a) => a.id),
  };
}

/** Typed thresholds as numbers ("80%" is 80); what is not a number is NaN, which the API refuses. */
const alertPercentsOf = (values: string[]) => values.map((v) => Number(v.trim().replace(/%$/, '')));

/** What is wrong with typed alert thresholds, in the words of the API; undefined when nothing. */
export function alertPercentsError(values: string[]): string | undefined {
  // A word is NaN, which the schema refuses as not a whole percentage.
  return budgetAlertPercentsSchema.safeParse(alertPercentsOf(values)).error?.issues[0]?.message;
}

/**
 * The sections as an API body: budget in minutes or cents. Without budgeting on the plan
 * (`budgets: false`) the budget is left out, so the one saved stays as it is.
 */
export function sectionsBody(s: SectionsState, { budgets = true }: { budgets?: boolean } = {}) {
  const amount = typeof s.budgetAmount === 'number' ? s.budgetAmount : Number.parseFloat(s.budgetAmount);
  return {
    description: s.description.trim() ? s.description : null,
    ...(budgets
      ? {
          budget: Number.isFinite(amount)
            ? {
                type: s.budgetType,
                amount: Math.round(amount * (s.budgetType === 'hours' ? 60 : 100)),
                resetsMonthly: s.budgetResets,
                alertPercents: alertPercentsOf(s.budgetAlerts),
              }
            : null,
        }
      : {}),
    billableDefault: s.billableDefault,
    keywordsEnabled: s.keywordsEnabled,
    keywords: s.keywords,
  };
}

const EMPTY_SECTIONS = {
  description: null,
  budget: null,
  billableDefault: false,
  keywordsEnabled: false,
  keywords: [],
};

/** The people (and their "Can manage" grants) to save, or null when they are the ones saved now. */
export function changedPeople(s: SectionsState, p?: People) {
  const saved = initialSections(p && { ...EMPTY_SECTIONS, people: p });
  const key = (x: SectionsState) => JSON.stringify([x.userIds, x.groupIds, x.managerIds].map((ids) => [...ids].sort()));
  if (key(s) === key(saved)) return null;
  // A grant only stays with someone still assigned.
  return {
    userIds: s.userIds,
    groupIds: s.groupIds,
    managerUserIds: s.userIds.filter((id) => s.managerIds.includes(id)),
    managerGroupIds: s.groupIds.filter((id) => s.managerIds.includes(id)),
  };
}
