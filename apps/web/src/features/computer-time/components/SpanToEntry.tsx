import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type ActivitySpanView,
  type ClockFormat,
  type DurationFormat,
  formatClockTime,
  formatDuration,
} from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { type Pickers, ProjectTaskSelect } from '../../../components/EntryFields';
import { useCreateEntryFromActivity } from '../api';
import { t } from '../texts';
import type { TimeRange } from './TimelineLanes';

/** The note a selection suggests: the title (else the application) that had the focus longest in it. */
export function suggestedNote(spans: readonly ActivitySpanView[], range: TimeRange): string {
  const time = new Map<string, number>();
  for (const span of spans) {
    if (span.kind !== 'active') continue;
    const label = span.title || span.app;
    if (!label || label === 'excluded') continue;
    const ms = Math.min(Date.parse(span.endedAt), range.endMs) - Math.max(Date.parse(span.startedAt), range.startMs);
    if (ms > 0) time.set(label, (time.get(label) ?? 0) + ms);
  }
  let best = '';
  let most = 0;
  for (const [label, ms] of time) if (ms > most) [best, most] = [label, ms];
  return best.slice(0, 500);
}

/**
 * The selected time as a new time entry in one step (project or task, note), through the
 * time-entries create route, so its locks, required tags and approvals apply and their refusals show.
 */
export function SpanToEntry(props: {
  workspaceId: string;
  userId: string;
  range: TimeRange;
  spans: readonly ActivitySpanView[];
  pickers: Pickers | undefined;
  clock: ClockFormat;
  durations: DurationFormat;
  onDone: () => void;
}) {
  const { range, clock } = props;
  const create = useCreateEntryFromActivity(props.workspaceId);
  const [note, setNote] = useState(() => suggestedNote(props.spans, range));
  const [ref, setRef] = useState<{ projectId: string | null; taskId: string | null }>({
    projectId: null,
    taskId: null,
  });
  const [error, setError] = useState<string | null>(null);
  const seconds = Math.round((range.endMs - range.startMs) / 1000);
  const billable = props.pickers?.projects.find((p) => p.id === ref.projectId)?.billableDefault ?? false;

  const handleSubmit = () => {
    setError(null);
    create.mutate(
      {
        start: new Date(range.startMs).toISOString(),
        end: new Date(range.endMs).toISOString(),
        userId: props.userId,
        note,
        projectId: ref.projectId,
        taskId: ref.taskId,
        billable,
      },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t.toEntry.created });
          props.onDone();
        },
        onError: (e) => {
          const parsed = parseApiError(e);
          const more = Object.values(parsed.fields).filter((f) => !parsed.message.includes(f));
          setError([parsed.message, ...more].join(' '));
        },
      },
    );
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="span-to-entry-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          handleSubmit();
        }}
      >
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={3} size="h5" id="span-to-entry-title">
              {t.toEntry.title}
            </Title>
            <Text size="sm" data-testid="selected-range">
              {formatClockTime(range.startMs, clock)}–{formatClockTime(range.endMs, clock)} ·{' '}
              {formatDuration(seconds, props.durations)}
            </Text>
          </Group>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <ProjectTaskSelect
              pickers={props.pickers}
              label={t.toEntry.project}
              projectId={ref.projectId}
              taskId={ref.taskId}
              onChange={setRef}
              w={260}
            />
            <TextInput
              label={t.toEntry.note}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              maxLength={500}
              style={{ flex: 1, minWidth: 220 }}
            />
            <Button type="submit" loading={create.isPending}>
              {t.toEntry.create}
            </Button>
            <Button variant="default" onClick={props.onDone}>
              {t.toEntry.cancel}
            </Button>
          </Group>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
