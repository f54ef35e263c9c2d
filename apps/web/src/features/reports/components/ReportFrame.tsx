import { Alert, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { dayKey, type WeekStart } from '@sundial/core';
import { IconChartBar } from '@tabler/icons-react';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import type { ParamPatch } from '../../../api/reports';
import { useWorkspace } from '../../../api/session';
import { useTimeSettings } from '../../../api/time';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { rangeLabel } from '../../../components/report-format';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { SaveReportButton } from '../saved/SaveReportButton';
import { t } from '../texts';
import { patchParams, readFilters } from '../url';
import { ExportMenu, type ReportExport } from './ExportMenu';
import { FilterBar } from './FilterBar';

/** The report's URL: its filters, the page's own parameters, and the one way to change them (a new history step). */
export function useReportUrl() {
  const [params, setParams] = useSearchParams();
  const { filters, dropped } = useMemo(() => readFilters(params), [params]);
  // A change that leaves the link as it is adds no step to the history.
  const update = useCallback(
    (patch: ParamPatch) => {
      const next = patchParams(params, patch);
      if (next.toString() !== params.toString()) setParams(next);
    },
    [params, setParams],
  );
  return { params, filters, dropped, update };
}

/**
 * Today and the week start, for the filter bar's custom range and the preset ranges, in the zone
 * the API reads the report in: the link's `timeZone`, else the workspace's report time zone (so
 * "today" near midnight is the API's today), else, until the settings arrive, the viewer's own.
 */
export function useViewerDays() {
  const { me, workspaceId } = useWorkspace();
  const [params] = useSearchParams();
  const settings = useTimeSettings(workspaceId);
  const weekStart = (
    ['monday', 'sunday', 'saturday'].includes(me.user.weekStart) ? me.user.weekStart : 'monday'
  ) as WeekStart;
  // The link's zone as the filters read it: a zone the browser does not know was already dropped.
  const linked = useMemo(() => readFilters(params).filters.timeZone, [params]);
  const timeZone = linked || settings.data?.reportTimeZone || me.user.timeZone;
  return { today: dayKey(Date.now(), timeZone), timeZone, weekStart };
}

/**
 * The frame every report shares: the filter bar (its state in the URL, so a report is a link and
 * the back button works), the range the report covers, the report's own controls, and its body.
 */
export function ReportFrame({
  url,
  range,
  controls,
  notice,
  exportAs,
  children,
}: {
  /** The report's URL state (useReportUrl). */
  url: Pick<ReturnType<typeof useReportUrl>, 'filters' | 'dropped' | 'update'>;
  /** The days the API says the report covers, once it has answered. */
  range?: { from: string; to: string; timeZone?: string };
  controls?: ReactNode;
  notice?: ReactNode;
  /** The report the Export menu downloads; no menu without it. */
  exportAs?: ReportExport;
  children: ReactNode;
}) {
  const { today } = useViewerDays();
  const { hasFeature, me } = useWorkspace();
  const { filters, dropped, update } = url;
  return (
    <Stack gap="md">
      <FilterBar filters={filters} today={today} onChange={update} />
      {dropped.length > 0 && (
        <Alert color="yellow" variant="light">
          {t.droppedFilters(dropped)}
        </Alert>
      )}
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Group gap="xs" align="baseline">
          <Text fw={600} aria-live="polite" data-testid="report-range">
            {range ? rangeLabel(range.from, range.to, me.user) : '\u00a0'}
          </Text>
          {range?.timeZone && (
            <Text size="sm" c="dimmed" data-testid="report-zone">
              {t.zoneUsed(range.timeZone)}
            </Text>
          )}
        </Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          {controls}
          {exportAs &&
            (hasFeature('export') ? <ExportMenu report={exportAs} /> : <UpgradePrompt feature="export" compact />)}
          <SaveReportButton />
        </Group>
      </Group>
      {notice}
      {children}
    </Stack>
  );
}

/** What ReportBody reads of a report's query. */
export interface ReportQueryState {
  isPending: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/** Loading, error and empty states of a report body; the body itself once there is something to show. */
export function ReportBody({
  query,
  isEmpty,
  dimWhileFetching = true,
  children,
}: {
  query: ReportQueryState;
  isEmpty: boolean;
  /** Dims the shown figures while new ones load (not while a further page of them loads). */
  dimWhileFetching?: boolean;
  children: ReactNode;
}) {
  if (query.error) return <ErrorPanel message={parseApiError(query.error).message} onRetry={() => query.refetch()} />;
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t.loading} />
      </Center>
    );
  if (isEmpty)
    return (
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="xs">
          <IconChartBar size={32} aria-hidden="true" color="var(--mantine-color-dimmed)" />
          <Text fw={600}>{t.empty}</Text>
          <Text c="dimmed" size="sm">
            {t.emptyHint}
          </Text>
        </Stack>
      </Paper>
    );
  const dim = dimWhileFetching && query.isFetching;
  return <div style={{ opacity: dim ? 0.6 : 1, transition: 'opacity 150ms' }}>{children}</div>;
}

/** Why amounts are missing: the plan (no billing rates on it) or whose money the viewer may see. */
export function MoneyHiddenNotice({ hidden }: { hidden: boolean | undefined }) {
  const { hasFeature } = useWorkspace();
  if (!hidden) return null;
  if (!hasFeature('billing_rates')) return <UpgradePrompt feature="billing_rates" compact />;
  return (
    <Alert color="gray" variant="light" data-testid="money-hidden">
      {t.moneyHidden}
    </Alert>
  );
}
