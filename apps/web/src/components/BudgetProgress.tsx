import { Group, Progress, Text } from '@mantine/core';
import type { EstimateView } from '@sundial/core';
import { useMemo } from 'react';
import { useReportFormat } from './report-format';

/** The words of a budget's figures, in one place. */
export const budgetTexts = {
  hiddenFigure: 'Hidden',
};

const STATUS_COLOR = { ok: 'teal', near: 'yellow', over: 'red', hidden: 'gray' } as const;

/** A budget's figure as it reads: time for hours budgets, money in the workspace currency for fees. */
export function useEstimateFormat() {
  const format = useReportFormat();
  return useMemo(
    () => (item: Pick<EstimateView, 'type'>, value: number | null) =>
      value === null ? budgetTexts.hiddenFigure : item.type === 'hours' ? format.duration(value) : format.money(value),
    [format],
  );
}

const percentText = (value: number | null) => (value === null ? '—' : `${value.toLocaleString()} %`);

/** How far into its budget a line is, as a bar (capped at its end) and a number. */
export function BudgetProgress({ item, width = 140 }: { item: EstimateView; width?: number }) {
  const value = item.percent ?? 0;
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <Progress
        value={Math.min(100, value)}
        color={STATUS_COLOR[item.status]}
        w={width}
        size="md"
        aria-label={`${item.taskName ?? item.projectName}: ${percentText(item.percent)} used`}
      />
      <Text size="sm" w={64} ta="right" fw={item.status === 'over' ? 700 : 400}>
        {percentText(item.percent)}
      </Text>
    </Group>
  );
}
