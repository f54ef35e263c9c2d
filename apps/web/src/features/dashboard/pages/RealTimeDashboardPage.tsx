import { Badge, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { formatWeekdayTime } from '@sundial/core';
import { IconPointFilled } from '@tabler/icons-react';
import { parseApiError } from '../../../api/client';
import { useMembers } from '../../../api/people';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { useReportFormat } from '../../../components/report-format';
import { Swatch } from '../../../components/Swatch';
import { useDashboardSummary, useLatestEntries, useLiveTime, useRunningTimers } from '../api';
import { RunningDuration, useNow } from '../components/RunningDuration';
import { t } from '../texts';

const r = t.realtime;
/** Enough of the week's newest entries to know when most idle people last worked. */
const LATEST = 200;
const TOTALS_REFRESH_MS = 60_000;

/**
 * The Real-time dashboard: who tracks what right now (durations ticking), today's and this week's
 * time per person from the report engine, and who is not tracking with their last activity. Live
 * through the timesheet's event stream: a timer started or stopped anywhere shows up here at once.
 */
export function RealTimeDashboardPage() {
  const { workspaceId, me, can } = useWorkspace();
  const format = useReportFormat();
  const now = useNow();
  useLiveTime(workspaceId, me.user.id, can('time:view_others'));
  const people = useMembers(workspaceId, true);
  const timers = useRunningTimers(workspaceId);
  // While someone tracks, their totals grow: asked again each minute (and on every change).
  const refresh = timers.data?.length ? TOTALS_REFRESH_MS : false;
  const today = useDashboardSummary(workspaceId, { preset: 'today', groupBy: ['user'] }, undefined, true, refresh);
  const week = useDashboardSummary(workspaceId, { preset: 'thisWeek', groupBy: ['user'] }, undefined, true, refresh);
  const latest = useLatestEntries(workspaceId, { preset: 'thisWeek' }, LATEST);
  const queries = [people, timers, today, week, latest];
  const failed = queries.find((q) => q.isError);

  if (failed)
    return (
      <ErrorPanel
        message={`${r.error} ${parseApiError(failed.error).message}`}
        onRetry={() => {
          for (const q of queries) void q.refetch();
        }}
      />
    );
  if (!people.data || !timers.data || !today.data || !week.data)
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading the real-time dashboard">
        <Skeleton h={220} radius="md" />
        <Skeleton h={220} radius="md" />
      </Stack>
    );

  const secondsBy = (groups: { key: { key: string | null }; measures: { trackedSeconds?: number } }[]) =>
    new Map(groups.map((g) => [g.key.key, g.measures.trackedSeconds ?? 0]));
  const todayOf = secondsBy(today.data.groups);
  const weekOf = secondsBy(week.data.groups);
  const lastOf = new Map<string, string>();
  for (const e of latest.data?.items ?? []) if (!lastOf.has(e.userId)) lastOf.set(e.userId, e.end ?? e.start);
  const running = new Set(timers.data.map((timer) => timer.entry.userId));
  const idle = people.data.items.filter((p) => !running.has(p.userId));
  const when = { format: (at: Date) => formatWeekdayTime(at, me.user) };
  const figure = (seconds: number | undefined) => format.duration(seconds ?? 0);

  return (
    <Stack gap="lg" maw={1400}>
      <Group gap={6}>
        <IconPointFilled size={14} color="var(--mantine-color-teal-6)" aria-hidden />
        <Text size="sm" c="dimmed">
          {r.live}
        </Text>
      </Group>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="rt-now">
        <Group gap="xs" mb="sm">
          <Title order={2} size="h4" id="rt-now">
            {r.now}
          </Title>
          <Badge variant="light" color="teal" data-testid="tracking-count">
            {timers.data.length}
          </Badge>
        </Group>
        {timers.data.length === 0 ? (
          <Text c="dimmed" data-testid="nobody-tracking">
            {r.nobody}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" aria-labelledby="rt-now" data-testid="tracking-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{r.member}</Table.Th>
                  <Table.Th>{r.what}</Table.Th>
                  <Table.Th>{r.description}</Table.Th>
                  <Table.Th ta="right">{r.duration}</Table.Th>
                  <Table.Th ta="right">{r.today}</Table.Th>
                  <Table.Th ta="right">{r.week}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {timers.data.map((timer) => (
                  <Table.Tr key={timer.entry.id} data-testid="tracking-row">
                    <Table.Th scope="row" fw={500}>
                      {timer.userName}
                    </Table.Th>
                    <Table.Td>
                      {timer.projectName ? (
                        <>
                          <Swatch color={timer.projectColor} />
                          {timer.projectName}
                          {timer.taskName ? ` / ${timer.taskName}` : ''}
                        </>
                      ) : (
                        <Text span c="dimmed">
                          {t.withoutProject}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {timer.entry.note || (
                        <Text span c="dimmed">
                          {t.noNote}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">
                      <Group gap={6} justify="flex-end" wrap="nowrap">
                        {timer.entry.isPaused && (
                          <Badge size="xs" color="gray">
                            {r.paused}
                          </Badge>
                        )}
                        <RunningDuration entry={timer.entry} now={now} />
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {figure(todayOf.get(timer.entry.userId))}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {figure(weekOf.get(timer.entry.userId))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="rt-idle">
        <Group gap="xs" mb="sm">
          <Title order={2} size="h4" id="rt-idle">
            {r.idle}
          </Title>
          <Badge variant="light" color="gray">
            {idle.length}
          </Badge>
        </Group>
        {idle.length === 0 ? (
          <Text c="dimmed">{r.everyoneTracking}</Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs" aria-labelledby="rt-idle" data-testid="idle-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{r.member}</Table.Th>
                  <Table.Th>{r.lastActivity}</Table.Th>
                  <Table.Th ta="right">{r.today}</Table.Th>
                  <Table.Th ta="right">{r.week}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {idle.map((person) => {
                  const last = lastOf.get(person.userId);
                  return (
                    <Table.Tr key={person.userId} data-testid="idle-row">
                      <Table.Th scope="row" fw={500}>
                        {person.name || person.email}
                      </Table.Th>
                      <Table.Td c={last ? undefined : 'dimmed'}>
                        {last ? when.format(new Date(last)) : r.noActivity}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {figure(todayOf.get(person.userId))}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {figure(weekOf.get(person.userId))}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
