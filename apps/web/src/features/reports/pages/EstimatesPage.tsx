import { Alert, Paper, Stack, Table, Text } from '@mantine/core';
import { resolvePreset } from '@sundial/core';
import { IconTargetArrow } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useEstimates } from '../../../api/reports';
import { useWorkspace } from '../../../api/session';
import { BudgetProgress, useEstimateFormat } from '../../../components/BudgetProgress';
import { periodLabel } from '../../../components/report-format';
import { Swatch } from '../../../components/Swatch';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { ReportBody, ReportFrame, useReportUrl, useViewerDays } from '../components/ReportFrame';
import { t } from '../texts';

/**
 * Estimates: each hour and fee budget of the projects and tasks against what was tracked (time or
 * billable amount), % used and what remains; budgets over their estimate stand out, monthly budgets
 * have a line per month of the range.
 */
export function EstimatesPage() {
  const { workspaceId, hasFeature, me } = useWorkspace();
  const url = useReportUrl();
  const { filters } = url;
  const { today, weekStart } = useViewerDays();
  const range = useMemo(() => resolvePreset(filters.preset, today, weekStart, filters), [filters, today, weekStart]);
  const locked = !hasFeature('budgets');
  const estimates = useEstimates(workspaceId, filters, !locked);
  const figure = useEstimateFormat();
  const data = estimates.data;

  if (locked)
    return (
      <ReportFrame url={url} range={range}>
        <UpgradePrompt feature="budgets" />
      </ReportFrame>
    );

  return (
    <ReportFrame
      url={url}
      range={data?.range ?? range}
      exportAs={{ kind: 'estimates', query: { ...filters }, title: 'Estimates' }}
      notice={
        <>
          <Text size="sm" c="dimmed">
            {t.estimates.explain}
          </Text>
          {data?.moneyHidden && (
            <Alert color="gray" variant="light" data-testid="money-hidden">
              {t.estimates.moneyHidden}
            </Alert>
          )}
        </>
      }
    >
      {data && data.items.length === 0 && !estimates.error ? (
        <Paper withBorder radius="md" p="xl">
          <Stack align="center" gap="xs">
            <IconTargetArrow size={32} aria-hidden="true" color="var(--mantine-color-dimmed)" />
            <Text fw={600}>{t.estimates.empty}</Text>
            <Text c="dimmed" size="sm" ta="center">
              {t.estimates.emptyHint}
            </Text>
          </Stack>
        </Paper>
      ) : (
        <ReportBody query={estimates} isEmpty={false}>
          {data && (
            <Table.ScrollContainer minWidth={720}>
              <Table
                aria-label={t.estimates.tableLabel}
                highlightOnHover
                verticalSpacing="xs"
                data-testid="estimates-table"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t.estimates.item}</Table.Th>
                    <Table.Th scope="col">{t.estimates.type}</Table.Th>
                    <Table.Th scope="col">{t.estimates.period}</Table.Th>
                    <Table.Th scope="col" ta="right">
                      {t.estimates.budget}
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      {t.estimates.used}
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      {t.estimates.percent}
                    </Table.Th>
                    <Table.Th scope="col" ta="right">
                      {t.estimates.remaining}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((item) => {
                    const over = item.status === 'over';
                    return (
                      <Table.Tr
                        key={`${item.projectId}/${item.taskId ?? ''}/${item.month ?? ''}`}
                        data-status={item.status}
                        data-testid="estimate-row"
                        style={over ? { background: 'var(--mantine-color-red-light)' } : undefined}
                      >
                        <Table.Th scope="row" fw={item.taskId ? 400 : 600} style={{ whiteSpace: 'nowrap' }}>
                          <Swatch color={item.projectColor} />
                          {item.taskId ? `${item.projectName} › ${item.taskName}` : item.projectName}
                          {item.clientName && (
                            <Text span c="dimmed" size="sm">
                              {' '}
                              · {item.clientName}
                            </Text>
                          )}
                        </Table.Th>
                        <Table.Td>
                          <Text size="sm">{item.type === 'hours' ? t.estimates.hours : t.estimates.fee}</Text>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          {item.month ? periodLabel('month', item.month, me.user) : t.estimates.wholeProject}
                        </Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {figure(item, item.budget)}
                        </Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {figure(item, item.used)}
                        </Table.Td>
                        <Table.Td>
                          <BudgetProgress item={item} width={80} />
                        </Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {over && item.remaining !== null ? (
                            <Text span fw={700} size="sm">
                              {t.estimates.overBy(figure(item, -item.remaining))}
                            </Text>
                          ) : (
                            figure(item, item.remaining)
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
                <Table.Tfoot>
                  {(['hours', 'fee'] as const).map((type) => {
                    const total = data.totals[type];
                    if (!total) return null;
                    const kind = { type };
                    return (
                      <Table.Tr key={type} data-testid="estimate-total">
                        <Table.Th scope="row">{t.estimates.total}</Table.Th>
                        <Table.Td>
                          <Text size="sm">{type === 'hours' ? t.estimates.hours : t.estimates.fee}</Text>
                        </Table.Td>
                        <Table.Td />
                        <Table.Td ta="right" fw={600} style={{ whiteSpace: 'nowrap' }}>
                          {figure(kind, total.budget)}
                        </Table.Td>
                        <Table.Td ta="right" fw={600} style={{ whiteSpace: 'nowrap' }}>
                          {figure(kind, total.used)}
                        </Table.Td>
                        <Table.Td />
                        <Table.Td ta="right" fw={600} style={{ whiteSpace: 'nowrap' }}>
                          {figure(kind, total.remaining)}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tfoot>
              </Table>
            </Table.ScrollContainer>
          )}
        </ReportBody>
      )}
    </ReportFrame>
  );
}
