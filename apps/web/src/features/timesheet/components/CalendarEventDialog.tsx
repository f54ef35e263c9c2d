import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type CalendarEventView, formatClockTime, formatDayLabel } from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat } from '../../../api/session';
import { type Pickers, ProjectTaskSelect } from '../../../components/EntryFields';
import { done } from '../../../components/notify';
import { useEventToEntry } from '../calendar-api';
import { t } from '../texts';

/** "10:00 – 11:00" of an event in the person's zone and clock. */
export function eventTimes(event: CalendarEventView, clock: { timeZone: string; timeFormat: string }): string {
  return `${formatClockTime(event.start, clock)} – ${formatClockTime(event.end, clock)}`;
}

/**
 * Turns a calendar event into a time entry: its times and title, the project and task it proposes
 * (what its series was given last time, or a keyword rule's) ready to change.
 */
export function CalendarEventDialog(props: {
  workspaceId: string;
  event: CalendarEventView;
  day: string;
  pickers: Pickers | undefined;
  onClose: () => void;
}) {
  const { event } = props;
  const clock = useClockFormat();
  const toEntry = useEventToEntry(props.workspaceId);
  const [choice, setChoice] = useState({
    projectId: event.proposal?.projectId ?? null,
    taskId: event.proposal?.taskId ?? null,
  });
  const [error, setError] = useState<string | null>(null);
  const handleAdd = () =>
    toEntry.mutate(
      { eventId: event.id, body: choice },
      {
        onSuccess: () => {
          done(t.calendars.entryAdded);
          props.onClose();
        },
        onError: (e) => {
          const parsed = parseApiError(e);
          setError(Object.values(parsed.fields)[0] ?? parsed.message);
        },
      },
    );
  return (
    <Modal opened onClose={props.onClose} title={t.calendars.addTitle}>
      <Stack gap="sm">
        <div>
          <Text fw={600}>{event.title || '(no title)'}</Text>
          <Text size="sm" c="dimmed">
            {formatDayLabel(props.day, clock)} · {eventTimes(event, clock)} · {event.calendarName}
          </Text>
        </div>
        <ProjectTaskSelect
          label="Project / task"
          pickers={props.pickers}
          projectId={choice.projectId}
          taskId={choice.taskId}
          onChange={setChoice}
        />
        {event.proposal && choice.projectId === event.proposal.projectId && (
          <Badge variant="light" color="gray" w="fit-content">
            {t.calendars.proposed[event.proposal.source]}
          </Badge>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button onClick={handleAdd} loading={toEntry.isPending}>
            {t.calendars.add}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
