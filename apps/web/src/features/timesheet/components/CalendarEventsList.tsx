import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type CalendarEventView, dayKey, formatDayLabel } from '@sundial/core';
import { IconCalendarEvent, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useClockFormat } from '../../../api/session';
import { type Pickers, rowLabel } from '../../../components/EntryFields';
import { t } from '../texts';
import { CalendarEventDialog, eventTimes } from './CalendarEventDialog';

/**
 * The day list's lane of the person's calendar events this week, day by day: each not yet in their
 * time has "Add to timesheet" (its proposed project shown); those added say so.
 */
export function CalendarEventsList(props: {
  workspaceId: string;
  events: CalendarEventView[];
  days: string[];
  timeZone: string;
  pickers: Pickers | undefined;
}) {
  const clock = useClockFormat();
  const [adding, setAdding] = useState<CalendarEventView | null>(null);
  const byDay = props.days
    .map((day) => ({ day, events: props.events.filter((e) => dayKey(e.start, props.timeZone) === day) }))
    .filter((d) => d.events.length > 0);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={t.calendars.lane}>
      <Group gap={6} mb="xs">
        <IconCalendarEvent size={18} aria-hidden="true" />
        <Title order={2} size="h5">
          {t.calendars.lane}
        </Title>
      </Group>
      {byDay.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t.calendars.laneEmpty}
        </Text>
      ) : (
        <Stack gap="xs">
          {byDay.map(({ day, events }) => (
            <div key={day}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase">
                {formatDayLabel(day, clock)}
              </Text>
              {events.map((event) => (
                <Group key={event.id} justify="space-between" wrap="nowrap" py={4} data-testid="calendar-event-row">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} truncate>
                      {event.title || '(no title)'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {eventTimes(event, clock)} · {event.calendarName}
                      {event.proposal && !event.entryId
                        ? ` · ${rowLabel(props.pickers, event.proposal.projectId, event.proposal.taskId)}`
                        : ''}
                    </Text>
                  </div>
                  {event.entryId ? (
                    <Badge variant="light" color="green" leftSection={<IconCheck size={12} />}>
                      {t.calendars.added}
                    </Badge>
                  ) : (
                    <Button
                      size="xs"
                      variant="light"
                      aria-label={`${t.calendars.add}: ${event.title}`}
                      onClick={() => setAdding(event)}
                    >
                      {t.calendars.add}
                    </Button>
                  )}
                </Group>
              ))}
            </div>
          ))}
        </Stack>
      )}
      {adding && (
        <CalendarEventDialog
          workspaceId={props.workspaceId}
          event={adding}
          day={dayKey(adding.start, props.timeZone)}
          pickers={props.pickers}
          onClose={() => setAdding(null)}
        />
      )}
    </Paper>
  );
}
