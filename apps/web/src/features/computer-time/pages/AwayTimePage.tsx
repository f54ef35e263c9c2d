import { Alert, Center, Group, Loader, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { dayBounds, formatDayLabel, formatDuration } from '@sundial/core';
import type { ReactNode } from 'react';
import { usePickers } from '../../../api/catalog';
import { parseApiError } from '../../../api/client';
import { useMembers } from '../../../api/people';
import { useClockFormat, useDurationFormat, useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { useComputerTimeSettings } from '../api';
import { awayDays, awayTotals } from '../away';
import { useAwayActivities, useAwayPeriods, useMyDevices } from '../away-api';
import { ActivityEmpty } from '../components/ActivityEmpty';
import { AwayActivitiesCard } from '../components/AwayActivitiesCard';
import { AwayPeriodRow } from '../components/AwayPeriodRow';
import { RangeFilters, useRangeParams } from '../components/RangeFilters';
import { t } from '../texts';

const a = t.away;

/**
 * Away time (issue 35): a person's away periods over a range (this week unless the URL says), day
 * by day, with their time, length and reason; the person says what each was (an away activity
 * that makes a time entry or a break, or Dismiss) and can undo it. Managers read their people's
 * when the workspace lets them; owners and admins edit the away activities here.
 */
export function AwayTimePage() {
  const { me, workspaceId, can } = useWorkspace();
  const clock = useClockFormat();
  const durations = useDurationFormat();
  const { params, preset, range, setParam } = useRangeParams();
  const settings = useComputerTimeSettings(workspaceId);
  const seesOthers = Boolean(settings.data?.managersSeeActivity) && can('time:view_others');
  const members = useMembers(workspaceId, seesOthers);
  const userId = (seesOthers && params.get('user')) || me.user.id;
  const own = userId === me.user.id;
  const from = new Date(dayBounds(range.from, clock.timeZone).startMs).toISOString();
  const to = new Date(dayBounds(range.to, clock.timeZone).endMs).toISOString();
  const periods = useAwayPeriods(workspaceId, userId, from, to);
  const activities = useAwayActivities(workspaceId);
  const devices = useMyDevices();
  const activityItems = activities.data?.items ?? [];
  const pickers = usePickers(
    workspaceId,
    activityItems.map((x) => x.projectId),
  ).data;

  const items = periods.data?.items;
  const paired = devices.data?.items.some((d) => d.workspace.id === workspaceId);
  let body: ReactNode;
  if (periods.error) {
    const problem = parseApiError(periods.error);
    body =
      problem.code === 'forbidden' ? (
        <Alert color="yellow">{problem.message}</Alert>
      ) : (
        <ErrorPanel message={problem.message} onRetry={() => periods.refetch()} />
      );
  } else if (!items || (own && !devices.data && !devices.error)) {
    body = (
      <Center py="xl">
        <Loader aria-label={t.loading} />
      </Center>
    );
  } else if (items.length === 0 && own && paired === false) {
    body = <ActivityEmpty title={a.noAgentTitle} />;
  } else if (items.length === 0) {
    body = (
      <Paper withBorder radius="md" p="lg" data-testid="away-nothing">
        <Text c="dimmed" size="sm" ta="center">
          {a.nothing(Math.round((settings.data?.idleSeconds ?? 180) / 60))}
        </Text>
      </Paper>
    );
  } else {
    const totals = awayTotals(items);
    body = (
      <Stack gap="md">
        <SimpleGrid cols={3} spacing="sm" component="section" aria-label={a.totals}>
          {(
            [
              ['away', a.total, totals.away],
              ['resolved', a.resolved, totals.resolved],
              ['open', a.open, totals.open],
            ] as const
          ).map(([key, label, seconds]) => (
            <Paper key={key} withBorder radius="md" p="sm">
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={700} size="lg" data-testid={`away-total-${key}`}>
                {formatDuration(seconds, durations)}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
        {!own && (
          <Text size="sm" c="dimmed">
            {a.others}
          </Text>
        )}
        <Stack gap="lg" component="section" aria-label={a.list}>
          {awayDays(items, clock.timeZone).map((day) => (
            <Stack key={day.day} gap="xs">
              <Group justify="space-between" gap="xs">
                <Title order={3} size="h6">
                  {formatDayLabel(day.day, me.user, { month: true })}
                </Title>
                <Text size="sm" c="dimmed">
                  {formatDuration(day.seconds, durations)}
                </Text>
              </Group>
              <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {day.periods.map((period) => (
                  <AwayPeriodRow
                    key={period.start}
                    workspaceId={workspaceId}
                    period={period}
                    activities={activityItems}
                    own={own}
                    pickers={pickers}
                    clock={clock}
                    durations={durations}
                  />
                ))}
              </Stack>
            </Stack>
          ))}
        </Stack>
      </Stack>
    );
  }

  const people = members.data?.items ?? [];
  return (
    <Stack gap="md">
      <RangeFilters preset={preset} range={range} setParam={setParam}>
        {seesOthers && (
          <Select
            label={a.person}
            data={[
              { value: me.user.id, label: me.user.name },
              ...people.filter((p) => p.userId !== me.user.id).map((p) => ({ value: p.userId, label: p.name })),
            ]}
            value={userId}
            onChange={(value) => setParam({ user: value === me.user.id ? null : value })}
            allowDeselect={false}
            searchable
            w={240}
          />
        )}
        {periods.isFetching && items && <Loader size="xs" aria-label={t.loading} />}
      </RangeFilters>
      {body}
      {can('computer_time:settings') && activities.data && (
        <AwayActivitiesCard workspaceId={workspaceId} activities={activities.data.items} pickers={pickers} />
      )}
    </Stack>
  );
}
