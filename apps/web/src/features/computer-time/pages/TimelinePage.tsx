import { ActionIcon, Alert, Button, Center, Group, Loader, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { dayBounds, dayKey, shiftDay } from '@sundial/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePickers } from '../../../api/catalog';
import { parseApiError } from '../../../api/client';
import { useMembers } from '../../../api/people';
import { useClockFormat, useDurationFormat, useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { useComputerTimeSettings, useDayEntries, useDaySpans } from '../api';
import { ActivityEmpty } from '../components/ActivityEmpty';
import { SpanToEntry } from '../components/SpanToEntry';
import { TimelineLanes, type TimeRange } from '../components/TimelineLanes';
import { axisOf } from '../lanes';
import { t } from '../texts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Timeline (issue 35): one person's day as lanes on one time axis (applications, away time, time
 * entries); a span or a dragged range of the applications lane becomes a time entry in one step.
 * The day and the person are in the URL (?day=, ?user=).
 */
export function TimelinePage() {
  const { me, workspaceId, can } = useWorkspace();
  const clock = useClockFormat();
  const durations = useDurationFormat();
  const { timeZone } = clock;
  const [params, setParams] = useSearchParams();
  const today = dayKey(Date.now(), timeZone);
  const dayParam = params.get('day');
  const day = dayParam && DAY.test(dayParam) ? dayParam : today;
  const settings = useComputerTimeSettings(workspaceId);
  const seesOthers = Boolean(settings.data?.managersSeeActivity) && can('time:view_others');
  const members = useMembers(workspaceId, seesOthers);
  const userId = (seesOthers && params.get('user')) || me.user.id;
  const spans = useDaySpans(workspaceId, userId, day, timeZone);
  const entries = useDayEntries(workspaceId, userId, day, timeZone);
  const pickers = usePickers(
    workspaceId,
    (entries.data?.items ?? []).map((e) => e.projectId),
  ).data;
  const [selection, setSelection] = useState<TimeRange | null>(null);

  const setParam = (name: string, value: string | null) => {
    setSelection(null);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  };

  const items = spans.data?.items;
  const entryItems = entries.data?.items;
  const axis = useMemo(() => {
    const bounds = dayBounds(day, timeZone);
    const intervals = [
      ...(items ?? []).map((s) => ({ startMs: Date.parse(s.startedAt), endMs: Date.parse(s.endedAt) })),
      ...(entryItems ?? []).map((e) => ({
        startMs: Date.parse(e.start),
        endMs: e.end ? Date.parse(e.end) : Date.now(),
      })),
    ];
    return axisOf(bounds, intervals);
  }, [items, entryItems, day, timeZone]);

  const selectedSpans = useMemo(
    () =>
      selection
        ? (items ?? []).filter(
            (s) => Date.parse(s.endedAt) > selection.startMs && Date.parse(s.startedAt) < selection.endMs,
          )
        : [],
    [items, selection],
  );

  const people = members.data?.items ?? [];
  let body: ReactNode;
  if (spans.error) {
    const problem = parseApiError(spans.error);
    body =
      problem.code === 'forbidden' ? (
        <Alert color="yellow">{problem.message}</Alert>
      ) : (
        <ErrorPanel message={problem.message} onRetry={() => spans.refetch()} />
      );
  } else if (!items) {
    body = (
      <Center py="xl">
        <Loader aria-label={t.loading} />
      </Center>
    );
  } else if (items.length === 0) {
    body = <ActivityEmpty />;
  } else {
    body = (
      <Stack gap="md">
        <Paper withBorder radius="md" p="md">
          <TimelineLanes
            axis={axis}
            spans={items}
            entries={entryItems ?? []}
            pickers={pickers}
            clock={clock}
            durations={durations}
            selection={selection}
            onSelect={setSelection}
          />
          <Text size="xs" c="dimmed" mt="sm">
            {t.timeline.hint}
          </Text>
        </Paper>
        {selection && (
          <SpanToEntry
            key={`${selection.startMs}-${selection.endMs}`}
            workspaceId={workspaceId}
            userId={userId}
            range={selection}
            spans={selectedSpans}
            pickers={pickers}
            clock={clock}
            durations={durations}
            onDone={() => setSelection(null)}
          />
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Group gap={4} align="flex-end">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t.timeline.previous}
            onClick={() => setParam('day', shiftDay(day, -1))}
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
          <TextInput
            type="date"
            label={t.timeline.day}
            value={day}
            max={today}
            onChange={(e) => e.currentTarget.value && setParam('day', e.currentTarget.value)}
            w={160}
          />
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={t.timeline.next}
            disabled={day >= today}
            onClick={() => setParam('day', shiftDay(day, 1))}
          >
            <IconChevronRight size={16} />
          </ActionIcon>
          <Button variant="subtle" onClick={() => setParam('day', null)} disabled={day === today}>
            {t.timeline.today}
          </Button>
        </Group>
        {seesOthers && (
          <Select
            label={t.timeline.person}
            data={[
              { value: me.user.id, label: me.user.name },
              ...people.filter((p) => p.userId !== me.user.id).map((p) => ({ value: p.userId, label: p.name })),
            ]}
            value={userId}
            onChange={(value) => setParam('user', value === me.user.id ? null : value)}
            allowDeselect={false}
            searchable
            w={240}
          />
        )}
        {spans.isFetching && items && <Loader size="xs" aria-label={t.loading} />}
      </Group>
      {body}
    </Stack>
  );
}
