import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { useHotkeys, useLocalStorage } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { dayBounds, dayKey, formatDayLabel, formatDayRange, gridRowKey, shiftDay, weekDays } from '@sundial/core';
import {
  IconCalendarEvent,
  IconChevronLeft,
  IconChevronRight,
  IconHelp,
  IconPlus,
  IconSettings,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePickers } from '../../../api/catalog';
import { api, parseApiError } from '../../../api/client';
import { useMembers } from '../../../api/people';
import { type Me, useWorkspace } from '../../../api/session';
import { useTimeSettings } from '../../../api/time';
import { failed } from '../../../components/notify';
import { PeriodBar } from '../../../components/PeriodBar';
import { type TimeEntryView, useEntries, useLiveEntries, useTimer, useTimerAction } from '../api';
import { useCalendarEvents, useCalendarSubscriptions } from '../calendar-api';
import { CalendarEventsList } from '../components/CalendarEventsList';
import { CalendarsModal } from '../components/CalendarsModal';
import { CalendarView } from '../components/CalendarView';
import { DayList } from '../components/DayList';
import { HelpDialog } from '../components/HelpDialog';
import { ManualEntryModal } from '../components/ManualEntryModal';
import { TimerBar } from '../components/TimerBar';
import { TimeSettingsModal } from '../components/TimeSettingsModal';
import { type RowRef, WeekGrid } from '../components/WeekGrid';
import { t } from '../texts';
import { asWeekStart } from '../warm';

type ViewMode = 'list' | 'week' | 'calendar';

export function TimesheetPage() {
  const { me, workspaceId } = useWorkspace();
  return <Timesheet me={me} workspaceId={workspaceId} />;
}

function Timesheet({ me, workspaceId }: { me: Me; workspaceId: string }) {
  const timeZone = me.user.timeZone;
  const weekStart = asWeekStart(me.user.weekStart);
  const queryClient = useQueryClient();
  const [mode, setMode] = useLocalStorage<ViewMode>({
    key: 'sundial.timesheet.view',
    defaultValue: 'list',
    // Each tab keeps its own view; a new tab opens on the last one chosen.
    sync: false,
  });
  // A phone opens the calendar on one day; a week there scrolls sideways.
  const [calendarSpan, setCalendarSpan] = useState<'day' | 'week'>(() =>
    window.matchMedia('(max-width: 47.99em)').matches ? 'day' : 'week',
  );
  // A notification's link opens a given week (?day=) of a given person (?user=).
  const [search] = useSearchParams();
  const linkDay = search.get('day');
  const linkUser = search.get('user');
  const [anchor, setAnchor] = useState(() => linkDay ?? dayKey(Date.now(), timeZone));
  const [userId, setUserId] = useState(() => linkUser ?? me.user.id);
  // Followed again when the page is open already (the bell's link to another week).
  useEffect(() => {
    if (linkDay && /^\d{4}-\d{2}-\d{2}$/.test(linkDay)) setAnchor(linkDay);
    if (linkUser) setUserId(linkUser);
  }, [linkDay, linkUser]);
  const [extraRows, setExtraRows] = useState<RowRef[]>([]);
  const [manualOpen, setManualOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [calendarsOpen, setCalendarsOpen] = useState(false);
  // The member's permissions in force (a custom role's too), as the API decides them.
  const { can: may } = useWorkspace();
  const seesOthers = may('time:view_others');

  const days = useMemo(() => weekDays(anchor, weekStart), [anchor, weekStart]);
  const firstDay = days[0] ?? anchor;
  const lastDay = days[6] ?? anchor;
  const entries = useEntries(workspaceId, userId, firstDay, lastDay, timeZone);
  const timer = useTimer(workspaceId, userId);
  const settings = useTimeSettings(workspaceId);
  const running = timer.data?.entry ?? null;
  const items: TimeEntryView[] = entries.data?.items ?? [];
  // The projects the shown entries and the timer name: the pickers must be able to name them.
  const namedProjectIds = useMemo(
    () => [running?.projectId ?? null, ...items.map((e) => e.projectId)],
    [running?.projectId, items],
  );
  const pickers = usePickers(workspaceId, namedProjectIds);
  const members = useMembers(workspaceId, seesOthers);
  const timerAction = useTimerAction(workspaceId, userId);
  // One's own calendars' meetings, beside one's own timesheet only.
  const own = userId === me.user.id;
  const subscriptions = useCalendarSubscriptions(workspaceId);
  const hasCalendars = (subscriptions.data?.items.length ?? 0) > 0;
  const calendarEvents = useCalendarEvents(workspaceId, firstDay, lastDay, timeZone, own && hasCalendars);
  const events = own && hasCalendars ? calendarEvents.data?.items : undefined;
  useLiveEntries(workspaceId, userId);

  const dayMode = mode === 'calendar' && calendarSpan === 'day';
  // Arrows and the chevrons move a week, or a day in the calendar's day view.
  const moveWeek = (steps: number) => setAnchor((a) => shiftDay(a, steps * (dayMode ? 1 : 7)));

  const handleCopyLastWeek = async () => {
    const previous = weekDays(shiftDay(firstDay, -7), weekStart);
    const from = previous[0] ?? firstDay;
    const last = await queryClient
      .fetchQuery({
        queryKey: ['time', workspaceId, 'copy', userId, from],
        queryFn: () =>
          api('GET /workspaces/:workspaceId/time-entries', {
            params: { workspaceId },
            query: new URLSearchParams({
              userId,
              limit: '1000',
              from: new Date(dayBounds(from, timeZone).startMs).toISOString(),
              to: new Date(dayBounds(firstDay, timeZone).startMs).toISOString(),
            }),
          }),
      })
      .catch((error) => {
        failed(error);
        return { items: [] };
      });
    const rows = new Map<string, RowRef>();
    for (const e of last.items) rows.set(gridRowKey(e), { projectId: e.projectId, taskId: e.taskId, tagIds: e.tagIds });
    if (rows.size === 0) notifications.show({ message: t.nothingLastWeek });
    setExtraRows((current) => [...current, ...rows.values()]);
  };

  const toggleTimer = () => {
    if (running) timerAction.mutate({ action: 'stop' }, { onError: failed });
    else timerAction.mutate({ action: 'start', body: {} }, { onError: failed });
  };

  useHotkeys([
    ['s', toggleTimer],
    ['p', () => running && timerAction.mutate({ action: running.isPaused ? 'resume' : 'pause' }, { onError: failed })],
    ['n', () => setManualOpen(true)],
    ['ArrowLeft', () => moveWeek(-1)],
    ['ArrowRight', () => moveWeek(1)],
    ['1', () => setMode('list')],
    ['2', () => setMode('week')],
    ['3', () => setMode('calendar')],
    ['shift+?', () => setHelpOpen(true)],
  ]);

  const shared = {
    workspaceId,
    userId,
    entries: items,
    timeZone,
    settings: settings.data,
    pickers: pickers.data,
  };
  const calendarDays = dayMode ? [anchor] : days;

  return (
    <Stack gap="md">
      <TimerBar workspaceId={workspaceId} userId={userId} running={running} pickers={pickers.data} />
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <SegmentedControl
            aria-label="View"
            value={mode}
            onChange={(v) => setMode(v as ViewMode)}
            data={[
              { value: 'list', label: t.views.list },
              { value: 'week', label: t.views.week },
              { value: 'calendar', label: t.views.calendar },
            ]}
          />
          {mode === 'calendar' && (
            <SegmentedControl
              aria-label="Calendar span"
              size="xs"
              value={calendarSpan}
              onChange={(v) => setCalendarSpan(v as 'day' | 'week')}
              data={[
                { value: 'day', label: t.calendarDay },
                { value: 'week', label: t.calendarWeek },
              ]}
            />
          )}
        </Group>
        <Group gap="xs">
          <ActionIcon variant="default" aria-label={t.previous} onClick={() => moveWeek(-1)}>
            <IconChevronLeft size={16} />
          </ActionIcon>
          <Text fw={500} miw={170} ta="center" aria-label="Week shown">
            {dayMode ? formatDayLabel(anchor, me.user) : formatDayRange(firstDay, lastDay, me.user)}
          </Text>
          <ActionIcon variant="default" aria-label={t.next} onClick={() => moveWeek(1)}>
            <IconChevronRight size={16} />
          </ActionIcon>
          <Button variant="subtle" size="xs" onClick={() => setAnchor(dayKey(Date.now(), timeZone))}>
            {t.today}
          </Button>
          {settings.data && settings.data.roundingMode !== 'none' && (
            <Badge variant="light" color="gray">
              {t.roundingBadge(settings.data.roundingMode, settings.data.roundingMinutes)}
            </Badge>
          )}
          {entries.isFetching && <Loader size="xs" />}
        </Group>
        <Group gap="xs">
          {seesOthers && members.data && (
            <Select
              aria-label={t.timesheetOf}
              size="xs"
              w={200}
              value={userId}
              allowDeselect={false}
              data={members.data.items.map((m) => ({ value: m.userId, label: m.name || m.email }))}
              onChange={(v) => v && setUserId(v)}
            />
          )}
          <Button
            size="xs"
            variant="default"
            leftSection={<IconCalendarEvent size={14} />}
            onClick={() => setCalendarsOpen(true)}
          >
            {t.calendars.open}
          </Button>
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setManualOpen(true)}>
            {t.newEntry}
          </Button>
          {may('time:settings') && (
            <Tooltip label={t.settings.open}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t.settings.open}
                onClick={() => setSettingsOpen(true)}
              >
                <IconSettings size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label={t.help}>
            <ActionIcon variant="subtle" color="gray" aria-label={t.help} onClick={() => setHelpOpen(true)}>
              <IconHelp size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>

      <PeriodBar workspaceId={workspaceId} userId={userId} day={dayMode ? anchor : firstDay} />
      {entries.isError && <Alert color="red">{parseApiError(entries.error).message}</Alert>}
      {entries.isPending ? (
        <Loader />
      ) : mode === 'list' ? (
        <>
          {events && (
            <CalendarEventsList
              workspaceId={workspaceId}
              events={events}
              days={days}
              timeZone={timeZone}
              pickers={pickers.data}
            />
          )}
          <DayList {...shared} days={days} timeFormat={me.user.timeFormat} />
        </>
      ) : mode === 'week' ? (
        <WeekGrid
          {...shared}
          days={days}
          extraRows={extraRows}
          onAddRows={(rows) => setExtraRows((current) => [...current, ...rows])}
          onCopyLastWeek={handleCopyLastWeek}
        />
      ) : (
        <CalendarView {...shared} days={calendarDays} {...(events ? { events } : {})} />
      )}

      {/* Mounted per opening, so a new entry starts empty instead of reusing the last one's fields. */}
      {manualOpen && (
        <ManualEntryModal
          opened
          onClose={() => setManualOpen(false)}
          workspaceId={workspaceId}
          userId={userId}
          timeZone={timeZone}
          pickers={pickers.data}
        />
      )}
      <CalendarsModal
        opened={calendarsOpen}
        onClose={() => setCalendarsOpen(false)}
        workspaceId={workspaceId}
        pickers={pickers.data}
      />
      <HelpDialog opened={helpOpen} onClose={() => setHelpOpen(false)} />
      <TimeSettingsModal
        opened={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        workspaceId={workspaceId}
        settings={settings.data}
      />
    </Stack>
  );
}

export default TimesheetPage;
