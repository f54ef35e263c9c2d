import {
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { formatWeekdayTime, type ReportGroup } from '@sundial/core';
import { IconClockPlay } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { Link } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import {
  type DateOrder,
  daysOf,
  keyLabel,
  periodLabel,
  rangeLabel,
  useReportFormat,
} from '../../../components/report-format';
import { useDashboardSummary, useLatestEntries, useLiveTime } from '../api';
import { DesktopAppPanel } from '../components/DesktopAppPanel';
import { TeamSection } from '../components/TeamSection';
import { type TopItem, TopList } from '../components/TopList';
import { t } from '../texts';

const SummaryCharts = lazy(() => import('../../../components/SummaryCharts'));

const THIS_WEEK = { preset: 'thisWeek' } as const;

/** The groups with time as list items; "Without task" and "Without tag" are no top task or tag. */
const toItems = (groups: ReportGroup[] | undefined, dates: DateOrder, withColor = false): TopItem[] =>
  (groups ?? [])
    .filter((g) => (g.measures.trackedSeconds ?? 0) > 0 && (g.key.key !== null || g.dimension === 'project'))
    .map((g) => ({
      key: g.key.key ?? 'none',
      label: g.key.key === null && g.dimension === 'project' ? t.withoutProject : keyLabel(g.dimension, g.key, dates),
      seconds: g.measures.trackedSeconds ?? 0,
      ...(withColor ? { color: g.key.color ?? null } : {}),
    }));

/**
 * The Dashboard: the viewer's week from the report engine (hours per day, projects, billable share,
 * top tasks and tags, recent entries), the team's week for managers and admins, and the desktop
 * app panel. Live: a change to the time shown refreshes it.
 */
export function DashboardPage() {
  const { workspaceId, me, can } = useWorkspace();
  const userId = me.user.id;
  const seesTeam = can('time:view_others');
  const format = useReportFormat();
  useLiveTime(workspaceId, userId, seesTeam);

  const mine = { ...THIS_WEEK, users: [userId] };
  const days = useDashboardSummary(workspaceId, { ...mine, groupBy: ['day'] }, [
    'trackedSeconds',
    'billableSeconds',
    'entryCount',
  ]);
  const projects = useDashboardSummary(workspaceId, { ...mine, groupBy: ['project'] });
  const tasks = useDashboardSummary(workspaceId, { ...mine, groupBy: ['task'] });
  const tags = useDashboardSummary(workspaceId, { ...mine, groupBy: ['tag'] });
  const recent = useLatestEntries(workspaceId, mine, 6);

  const range = days.data?.range;
  const bars = useMemo(() => {
    if (!days.data) return [];
    const seconds = new Map(days.data.groups.map((g) => [g.key.key ?? '', g.measures.trackedSeconds ?? 0]));
    return (daysOf(days.data.range.from, days.data.range.to) ?? []).map((day) => ({
      label: periodLabel('day', day, me.user, true),
      seconds: seconds.get(day) ?? 0,
    }));
  }, [days.data, me.user]);

  const queries = [days, projects, tasks, tags, recent];
  const failed = queries.find((q) => q.isError);
  const totals = days.data?.totals;
  const tracked = totals?.trackedSeconds ?? 0;
  const billable = totals?.billableSeconds ?? 0;
  const share = tracked > 0 ? Math.round((billable / tracked) * 100) : 0;

  let body: ReactNode;
  if (failed) {
    body = (
      <ErrorPanel
        message={`${t.error} ${parseApiError(failed.error).message}`}
        onRetry={() => {
          for (const q of queries) void q.refetch();
        }}
      />
    );
  } else if (!days.data) {
    body = (
      <Stack gap="md" aria-busy="true" aria-label="Loading your week">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Skeleton h={96} radius="md" />
          <Skeleton h={96} radius="md" />
          <Skeleton h={96} radius="md" />
        </SimpleGrid>
        <Skeleton h={300} radius="md" />
      </Stack>
    );
  } else if (tracked === 0) {
    body = (
      <Paper withBorder radius="md" p="xl" data-testid="dashboard-empty">
        <Stack align="center" gap="sm" ta="center">
          <ThemeIcon size={48} radius="xl" variant="light">
            <IconClockPlay size={28} aria-hidden />
          </ThemeIcon>
          <Title order={3} size="h4">
            {t.emptyTitle}
          </Title>
          <Text c="dimmed" maw={520}>
            {t.emptyBody}
          </Text>
          <Button component={Link} to="/homepage/timesheet">
            {t.toTimesheet}
          </Button>
        </Stack>
      </Paper>
    );
  } else {
    body = (
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Paper withBorder radius="md" p="md">
            <Text size="sm" c="dimmed">
              {t.tracked}
            </Text>
            <Text fz={28} fw={700} ff="monospace" data-testid="week-total">
              {format.duration(tracked)}
            </Text>
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {t.billableShare}
              </Text>
              <Text size="sm" fw={600} data-testid="billable-share">
                {share} %
              </Text>
            </Group>
            <Progress value={share} mt="sm" mb="xs" aria-label={`${t.billableShare} ${share} %`} />
            <Text size="sm">{t.billableOf(format.duration(billable))}</Text>
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Text size="sm" c="dimmed">
              {t.entryCount}
            </Text>
            <Text fz={28} fw={700}>
              {t.entries(totals?.entryCount ?? 0)}
            </Text>
          </Paper>
        </SimpleGrid>
        <Suspense fallback={<Skeleton h={300} radius="md" />}>
          <SummaryCharts
            bars={bars}
            barsTitle={t.hoursPerDay}
            donut={toItems(projects.data?.groups, me.user, true)}
            donutTitle={t.byProject}
            show={{ bars: true, donut: true }}
            formatSeconds={format.duration}
          />
        </Suspense>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          <TopList
            title={t.topTasks}
            items={toItems(tasks.data?.groups, me.user)}
            empty={t.noTasks}
            format={format.duration}
          />
          <TopList
            title={t.topTags}
            items={toItems(tags.data?.groups, me.user)}
            empty={t.noTags}
            format={format.duration}
          />
          <RecentEntries entries={recent.data?.items} format={format.duration} timeZone={me.user.timeZone} />
        </SimpleGrid>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={1400}>
      <Group justify="space-between" align="baseline" wrap="wrap">
        <Title order={2} size="h3">
          {t.yourWeek}
        </Title>
        <Text c="dimmed" data-testid="dashboard-range">
          {range ? rangeLabel(range.from, range.to, me.user) : '\u00a0'}
        </Text>
      </Group>
      {body}
      {seesTeam && <TeamSection />}
      <DesktopAppPanel />
    </Stack>
  );
}

function RecentEntries({
  entries,
  format,
  timeZone,
}: {
  timeZone: string;
  entries:
    | {
        id: string;
        note: string;
        projectName: string | null;
        projectColor: string | null;
        start: string;
        end: string | null;
        seconds: number;
      }[]
    | undefined;
  format: (seconds: number) => string;
}) {
  const clock = useClockFormat();
  const when = { format: (at: Date) => formatWeekdayTime(at, { ...clock, timeZone }) };
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="recent-entries-title">
      <Title order={3} size="h5" mb="sm" id="recent-entries-title">
        {t.recent}
      </Title>
      {!entries ? (
        <Center>
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="recent-entries">
          {entries.map((e) => (
            <li key={e.id}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" truncate="end">
                    {e.note || t.noNote}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    {e.projectName ?? t.withoutProject} · {when.format(new Date(e.start))}
                  </Text>
                </Stack>
                <Text size="sm" ff="monospace">
                  {e.end === null ? t.running : format(e.seconds)}
                </Text>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      <Anchor component={Link} to="/homepage/reports/detailed" size="sm" mt="sm" display="inline-block">
        Detailed report
      </Anchor>
    </Paper>
  );
}
