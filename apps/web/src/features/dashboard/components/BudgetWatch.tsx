import { Anchor, Badge, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useEstimates } from '../../../api/reports';
import { BudgetProgress, useEstimateFormat } from '../../../components/BudgetProgress';
import { Swatch } from '../../../components/Swatch';
import { t } from '../texts';

const ESTIMATES = '/homepage/reports/estimates?preset=thisMonth';

/**
 * The projects and tasks near their budget (from the budget's own lowest alert threshold) or over
 * it this month (monthly budgets: this month; others: to date), the furthest first, with a link to
 * the Estimates report. Self-contained: give it the workspace and place it (the dashboard does).
 */
export function BudgetWatch({ workspaceId }: { workspaceId: string }) {
  const estimates = useEstimates(workspaceId, { preset: 'thisMonth' });
  const figure = useEstimateFormat();
  const watched = (estimates.data?.items ?? [])
    .filter((i) => i.status === 'near' || i.status === 'over')
    .sort((a, b) => (b.percent ?? 0) - (a.percent ?? 0));
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby="budget-watch-title"
      data-testid="budget-watch"
    >
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Text fw={600} id="budget-watch-title">
          {t.budgetWatch.title}
        </Text>
        <Anchor component={Link} to={ESTIMATES} size="sm">
          {t.budgetWatch.link}
        </Anchor>
      </Group>
      {estimates.isPending ? (
        <Loader size="sm" aria-label={t.budgetWatch.loading} />
      ) : estimates.error ? (
        <Text c="red.8" size="sm">
          {t.budgetWatch.error}
        </Text>
      ) : watched.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t.budgetWatch.empty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {watched.map((item) => (
            <Group
              key={`${item.projectId}/${item.taskId ?? ''}/${item.month ?? ''}`}
              component="li"
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              data-testid="budget-watch-item"
            >
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  <Swatch color={item.projectColor} />
                  {item.taskId ? `${item.projectName} › ${item.taskName}` : item.projectName}
                </Text>
                <Text size="xs" c="dimmed">
                  {figure(item, item.used)} / {figure(item, item.budget)}
                  {item.status === 'over' && (
                    <Badge ml={6} size="xs" color="red" variant="filled">
                      {t.budgetWatch.over}
                    </Badge>
                  )}
                </Text>
              </Stack>
              <BudgetProgress item={item} width={90} />
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
