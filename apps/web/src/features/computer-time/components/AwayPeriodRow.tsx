import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type AwayActivity,
  type AwayPeriodView,
  type ClockFormat,
  type DurationFormat,
  dayKey,
  formatClockTime,
  formatDuration,
  type ResolveAwayBody,
} from '@sundial/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { parseApiError } from '../../../api/client';
import { type Pickers, ProjectTaskSelect } from '../../../components/EntryFields';
import { useReopenAway, useResolveAway } from '../away-api';
import { t } from '../texts';

const a = t.away;

/** An API refusal as one sentence with the fields it names (a time lock, a required project…). */
function refusalOf(error: unknown): string {
  const parsed = parseApiError(error);
  const more = Object.values(parsed.fields).filter((f) => !parsed.message.includes(f));
  return [parsed.message, ...more].join(' ');
}

/** What a resolved period became, in words. */
function outcomeLabel(period: AwayPeriodView, activities: readonly AwayActivity[]): string {
  const resolution = period.resolution;
  if (!resolution || resolution.outcome === 'dismissed') return a.dismissed;
  const name = activities.find((x) => x.id === resolution.activityId)?.name;
  if (resolution.outcome === 'entry') return a.becameEntry(name ?? t.toEntry.title);
  return a.becameBreak(name ?? a.activities.break);
}

/**
 * One away period: its time, length and reason; for its own person, a button per away activity
 * and Dismiss (an activity that makes an entry opens a small form first), or what it became and
 * Undo once answered.
 */
export function AwayPeriodRow(props: {
  workspaceId: string;
  period: AwayPeriodView;
  activities: readonly AwayActivity[];
  /** The viewer's own period: only then it can be answered. */
  own: boolean;
  pickers: Pickers | undefined;
  clock: ClockFormat;
  durations: DurationFormat;
}) {
  const { period, activities, clock } = props;
  const resolve = useResolveAway(props.workspaceId);
  const reopen = useReopenAway(props.workspaceId);
  const [form, setForm] = useState<{
    activity: AwayActivity;
    projectId: string | null;
    taskId: string | null;
    note: string;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const startMs = Date.parse(period.start);
  const time = `${formatClockTime(startMs, clock)}–${formatClockTime(Date.parse(period.end), clock)}`;
  const busy = resolve.isPending || reopen.isPending;

  const send = (body: ResolveAwayBody, done: string | ((entries: number) => string)) => {
    setError(null);
    resolve.mutate(body, {
      onSuccess: (answer) => {
        setForm(null);
        notifications.show({
          color: 'green',
          message: typeof done === 'string' ? done : done(answer.entriesWithBreak),
        });
      },
      onError: (e) => setError(refusalOf(e)),
    });
  };
  const bounds = { start: period.start, end: period.end };

  const handleActivity = (activity: AwayActivity) => {
    if (activity.makes === 'break') {
      send({ ...bounds, outcome: 'break', activityId: activity.id }, a.madeBreak);
      return;
    }
    setError(null);
    setForm({ activity, projectId: activity.projectId, taskId: activity.taskId, note: activity.name });
  };

  const handleUndo = () => {
    const outcome = period.resolution?.outcome;
    setError(null);
    reopen.mutate(period.start, {
      onSuccess: () =>
        notifications.show({
          message: outcome === 'entry' ? a.undoneEntry : outcome === 'break' ? a.undoneBreak : a.undone,
        }),
      onError: (e) => setError(refusalOf(e)),
    });
  };

  const resolution = period.resolution;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      component="li"
      aria-label={`${time}, ${formatDuration(period.seconds, props.durations)}`}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="sm" wrap="wrap">
            <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
              {time}
            </Text>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatDuration(period.seconds, props.durations)}
            </Text>
            <Badge variant="light" color="gray" size="sm" tt="none">
              {a.reason[period.reason]}
            </Badge>
          </Group>
          {resolution && (
            <Group gap="xs" wrap="wrap">
              <Badge
                variant="light"
                tt="none"
                color={resolution.outcome === 'dismissed' ? 'gray' : 'teal'}
                data-testid="away-outcome"
              >
                {outcomeLabel(period, activities)}
              </Badge>
              {resolution.entryId && (
                <Anchor component={Link} size="sm" to={`/homepage/timesheet?day=${dayKey(startMs, clock.timeZone)}`}>
                  {a.openEntry}
                </Anchor>
              )}
              {props.own && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={handleUndo}
                  loading={reopen.isPending}
                  title={
                    resolution.outcome === 'entry'
                      ? a.undoEntryHint
                      : resolution.outcome === 'break'
                        ? a.undoBreakHint
                        : undefined
                  }
                >
                  {a.undo}
                </Button>
              )}
            </Group>
          )}
        </Group>
        {!resolution && props.own && !form && (
          <Group gap="xs" wrap="wrap" role="group" aria-label={a.whatWasIt}>
            <Text size="xs" c="dimmed">
              {a.whatWasIt}
            </Text>
            {activities.map((activity) => (
              <Button
                key={activity.id}
                size="compact-sm"
                variant="light"
                color={activity.makes === 'break' ? 'orange' : 'blue'}
                disabled={busy}
                onClick={() => handleActivity(activity)}
              >
                {activity.name}
              </Button>
            ))}
            <Button
              size="compact-sm"
              variant="default"
              disabled={busy}
              title={a.dismissHint}
              onClick={() => send({ ...bounds, outcome: 'dismissed' }, a.recorded)}
            >
              {a.dismiss}
            </Button>
          </Group>
        )}
        {form && (
          <form
            aria-label={a.entryForm(form.activity.name)}
            onSubmit={(e) => {
              e.preventDefault();
              send(
                {
                  ...bounds,
                  outcome: 'entry',
                  activityId: form.activity.id,
                  projectId: form.projectId,
                  taskId: form.taskId,
                  note: form.note,
                },
                a.madeEntry,
              );
            }}
          >
            <Group align="flex-end" gap="sm" wrap="wrap">
              <ProjectTaskSelect
                pickers={props.pickers}
                label={a.project}
                projectId={form.projectId}
                taskId={form.taskId}
                onChange={(ref) => setForm({ ...form, ...ref })}
                w={240}
              />
              <TextInput
                label={a.note}
                value={form.note}
                onChange={(e) => setForm({ ...form, note: e.currentTarget.value })}
                maxLength={2000}
                style={{ flex: 1, minWidth: 200 }}
              />
              <Group gap="xs">
                <Button type="submit" loading={resolve.isPending}>
                  {a.create}
                </Button>
                <Button variant="default" onClick={() => setForm(null)}>
                  {a.cancel}
                </Button>
              </Group>
            </Group>
          </form>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert" py="xs">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
