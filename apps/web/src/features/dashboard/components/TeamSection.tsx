import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useMembers } from '../../../api/people';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { useReportFormat } from '../../../components/report-format';
import { useDashboardSummary, useRunningTimers } from '../api';
import { t } from '../texts';
import { BudgetWatch } from './BudgetWatch';
import { RunningDuration, useNow } from './RunningDuration';
import { TopList } from './TopList';

const REAL_TIME = '/homepage/reports/real-time-dashboard';

/**
 * The team's week, for those who see others' time (managers their people, admins and owners
 * everyone; the API scopes it): hours per person from the report engine and who tracks right now.
 */
export function TeamSection() {
  const { workspaceId } = useWorkspace();
  const format = useReportFormat();
  const people = useMembers(workspaceId, true);
  const perUser = useDashboardSummary(workspaceId, { preset: 'thisWeek', groupBy: ['user'] });
  const timers = useRunningTimers(workspaceId);
  const failed = [people, perUser, timers].find((q) => q.isError);

  const seconds = new Map(perUser.data?.groups.map((g) => [g.key.key, g.measures.trackedSeconds ?? 0]) ?? []);
  const items = (people.data?.items ?? []).map((p) => ({
    key: p.userId,
    label: p.name || p.email,
    seconds: seconds.get(p.userId) ?? 0,
  }));

  return (
    <Stack gap="md" component="section" aria-labelledby="team-title" data-testid="team-section">
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h3" id="team-title">
          {t.team}
        </Title>
        <Anchor component={Link} to={REAL_TIME} size="sm">
          {t.openRealTime}
        </Anchor>
      </Group>
      {failed ? (
        <ErrorPanel
          message={parseApiError(failed.error).message}
          onRetry={() => {
            void people.refetch();
            void perUser.refetch();
            void timers.refetch();
          }}
        />
      ) : !people.data || !perUser.data || !timers.data ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Skeleton h={200} radius="md" />
          <Skeleton h={200} radius="md" />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <TopList
            title={t.perPerson}
            items={items}
            empty={t.noTeamTime}
            format={format.duration}
            limit={12}
            testId="team-per-person"
          />
          <TrackingNow timers={timers.data} />
          {/* Projects near or over budget, from the Estimates report's budgets. */}
          <BudgetWatch workspaceId={workspaceId} />
        </SimpleGrid>
      )}
    </Stack>
  );
}

function TrackingNow({ timers }: { timers: NonNullable<ReturnType<typeof useRunningTimers>['data']> }) {
  const now = useNow();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="tracking-now-title">
      <Title order={3} size="h5" mb="sm" id="tracking-now-title">
        {t.trackingNow}
      </Title>
      {timers.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t.nobodyTracking}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="team-tracking-now">
          {timers.slice(0, 10).map((timer) => (
            <li key={timer.entry.id}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} truncate="end">
                    {timer.userName}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    {[timer.projectName ?? t.withoutProject, timer.taskName, timer.entry.note]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Stack>
                <Group gap={6} wrap="nowrap">
                  {timer.entry.isPaused && (
                    <Badge size="xs" color="gray">
                      {t.realtime.paused}
                    </Badge>
                  )}
                  <RunningDuration entry={timer.entry} now={now} />
                </Group>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
