import { Box, Checkbox, Group, NumberInput, Select, TagsInput, Text } from '@mantine/core';
import { BUDGET_TYPE_LABELS, type BudgetType, formatDuration } from '@sundial/core';
import { useDurationFormat, useWorkspace } from '../../../../api/session';
import { UpgradePrompt } from '../../../../components/UpgradePrompt';
import { Section } from './Section';
import { alertPercentsError, type SectionProps } from './sections';

const BUDGET_TYPES = (Object.keys(BUDGET_TYPE_LABELS) as BudgetType[]).map((v) => ({
  value: v,
  label: BUDGET_TYPE_LABELS[v],
}));

/**
 * Estimated hours or fee, the amount, monthly reset, the alert thresholds (checked as they are typed,
 * with the API's words); an hours budget shows the time tracked against it. Without budgeting on the plan (Basic) a saved budget shows, read-only, above the upgrade prompt.
 */
export function BudgetSection({
  value,
  onChange,
  readOnly: readOnlyRole,
  trackedSeconds,
}: SectionProps & { trackedSeconds?: number }) {
  const durationFormat = useDurationFormat();
  const locked = !useWorkspace().hasFeature('budgets');
  const readOnly = readOnlyRole || locked;
  return (
    <Section title="Budget">
      {locked && (
        <Box mb="xs">
          <UpgradePrompt feature="budgets" />
        </Box>
      )}
      {/* Side by side when there is room; in a narrow pane the amount goes below the type. */}
      <Group align="flex-start" gap="sm">
        <Select
          style={{ flex: '1 1 170px' }}
          aria-label="Budget type"
          data={BUDGET_TYPES}
          value={value.budgetType}
          onChange={(v) => v && onChange({ budgetType: v as BudgetType })}
          allowDeselect={false}
          disabled={readOnly}
        />
        <NumberInput
          style={{ flex: '1 1 120px' }}
          aria-label="Budget amount"
          placeholder={value.budgetType === 'hours' ? 'Hours' : 'Amount'}
          min={0}
          decimalScale={2}
          value={value.budgetAmount}
          onChange={(budgetAmount) => onChange({ budgetAmount })}
          disabled={readOnly}
        />
      </Group>
      {trackedSeconds !== undefined && value.budgetType === 'hours' && Number(value.budgetAmount) > 0 && (
        <Text size="xs" c="dimmed" mt={4} data-testid="budget-usage">
          {`Tracked ${formatDuration(trackedSeconds, durationFormat)} of ${value.budgetAmount} h (${Math.round(
            trackedSeconds / 36 / Number(value.budgetAmount),
          )}%)`}
        </Text>
      )}
      <Checkbox
        mt="xs"
        label="Reset the budget every month"
        checked={value.budgetResets}
        onChange={(e) => onChange({ budgetResets: e.currentTarget.checked })}
        disabled={readOnly}
      />
      <TagsInput
        mt="xs"
        label="Alert at (% of the budget)"
        description="Managers and admins are told once per period at each. Default: 80 and 100; none: no alerts."
        placeholder={value.budgetAlerts.length === 0 ? 'No alerts' : 'Add a percentage'}
        value={value.budgetAlerts}
        onChange={(budgetAlerts) => onChange({ budgetAlerts })}
        splitChars={[',', ' ', ';']}
        error={alertPercentsError(value.budgetAlerts)}
        disabled={readOnly}
        clearable
      />
    </Section>
  );
}
