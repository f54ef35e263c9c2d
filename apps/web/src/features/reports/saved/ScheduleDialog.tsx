import {
  Alert,
  Badge,
  Box,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
} from '@mantine/core';
import {
  type ClockFormat,
  formatClockTime,
  formatDayLabel,
  type ReportScheduleView,
  type SavedReportView,
  SCHEDULE_FORMATS,
  SCHEDULE_FREQUENCIES,
  type ScheduleFormat,
  type ScheduleFrequency,
} from '@sundial/core';
import { IconAlertTriangle, IconPlayerPause, IconPlayerPlay, IconSend, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useMemo, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { useMembers } from '../../../api/team';
import { done, failed } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { useReportSchedule, useScheduleAction } from './api';
import { sch } from './schedule-texts';

const STATE_COLOR = { active: 'green', paused: 'gray', failed: 'red' } as const;
const MONTH_DAYS = Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));
const WEEKDAYS = sch.weekdays.map((label, i) => ({ value: String(i), label }));

/** When a schedule sends, in its own zone on the reader's clock; the zone is named when it is not theirs. */
const when = (iso: string, timeZone: string, f: ClockFormat) => {
  const at = { ...f, timeZone };
  const text = `${formatDayLabel(iso, at, { year: true })} ${formatClockTime(iso, at)}`;
  return timeZone === f.timeZone ? text : `${text} (${timeZone})`;
};

/** The hours of a day on the reader's clock ("09:00" or "9:00 AM"). */
const hoursOn = (timeFormat: string) =>
  Array.from({ length: 24 }, (_, h) => ({
    value: String(h),
    label: formatClockTime(Date.UTC(2000, 0, 1, h), { timeFormat, timeZone: 'UTC' }),
  }));

/**
 * "Schedule e-mail" of a saved report: when it goes out (daily, weekly on a day, monthly on a day,
 * at an hour of a zone), as which file, to whom; and the schedule's state (next and last send,
 * the last failure) with pause, resume, send now and delete.
 */
export function ScheduleDialog({ report, onClose }: { report: SavedReportView; onClose: () => void }) {
  const { workspaceId, hasFeature } = useWorkspace();
  // A scheduled report is an export sent by e-mail (Basic). On Free the schedule stays visible, to
  // pause or delete; saving, resuming and sending are refused.
  const locked = !hasFeature('export');
  const schedule = useReportSchedule(workspaceId, report.id);
  return (
    <Modal opened onClose={onClose} title={sch.title(report.name)} centered size="lg">
      {locked && (
        <Box mb="md">
          <UpgradePrompt feature="export" />
        </Box>
      )}
      {schedule.isPending ? (
        <Group justify="center" py="xl">
          <Loader aria-label={sch.stateLabel} />
        </Group>
      ) : schedule.error ? (
        <Alert color="red">{parseApiError(schedule.error).message}</Alert>
      ) : (
        <ScheduleForm report={report} current={schedule.data.schedule} onClose={onClose} />
      )}
    </Modal>
  );
}

function ScheduleForm({
  report,
  current,
  onClose,
}: {
  report: SavedReportView;
  current: ReportScheduleView | null;
  onClose: () => void;
}) {
  const { workspaceId, me } = useWorkspace();
  const action = useScheduleAction(workspaceId, report.id);
  const members = useMembers(workspaceId, '');
  const [frequency, setFrequency] = useState<ScheduleFrequency>(current?.frequency ?? 'weekly');
  const [weekday, setWeekday] = useState(String(current?.weekday ?? 1));
  const [monthDay, setMonthDay] = useState(String(current?.monthDay ?? 1));
  const [hour, setHour] = useState(String(current?.hour ?? 8));
  const [timeZone, setTimeZone] = useState(current?.timeZone ?? me.user.timeZone);
  const [format, setFormat] = useState<ScheduleFormat>(current?.format ?? 'pdf');
  const [userIds, setUserIds] = useState<string[]>(current?.recipientUserIds ?? [me.user.id]);
  const [emails, setEmails] = useState<string[]>(current?.recipientEmails ?? []);
  const zones = useMemo(() => [...new Set(['UTC', timeZone, ...Intl.supportedValuesOf('timeZone')])], [timeZone]);
  const hours = useMemo(() => hoursOn(me.user.timeFormat), [me.user.timeFormat]);
  const people = useMemo(
    () =>
      members.items
        .filter((m) => m.status === 'active' || userIds.includes(m.userId))
        .map((m) => ({ value: m.userId, label: m.name ? `${m.name} (${m.email})` : m.email })),
    [members.items, userIds],
  );
  const saveError = action.error && action.variables?.kind === 'save' ? parseApiError(action.error) : null;
  const fieldError = (name: string) =>
    saveError?.fields[name] ?? Object.entries(saveError?.fields ?? {}).find(([key]) => key.startsWith(`${name}.`))?.[1];

  const run = (kind: 'pause' | 'resume' | 'send' | 'delete', message: string) =>
    action.mutate(
      { kind },
      {
        onSuccess: () => {
          done(message);
          if (kind === 'delete') onClose();
        },
        onError: failed,
      },
    );

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate(
      {
        kind: 'save',
        body: {
          frequency,
          weekday: frequency === 'weekly' ? Number(weekday) : null,
          monthDay: frequency === 'monthly' ? Number(monthDay) : null,
          hour: Number(hour),
          timeZone,
          format,
          recipientUserIds: userIds,
          recipientEmails: emails,
        },
      },
      { onSuccess: () => done(sch.saved) },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        {current && (
          <Paper withBorder radius="md" p="sm">
            <Stack gap="sm">
              <ScheduleState schedule={current} />
              <Group gap="xs">
                {current.state === 'active' ? (
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconPlayerPause size={14} aria-hidden="true" />}
                    onClick={() => run('pause', sch.paused)}
                  >
                    {sch.pause}
                  </Button>
                ) : (
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconPlayerPlay size={14} aria-hidden="true" />}
                    onClick={() => run('resume', sch.resumed)}
                  >
                    {sch.resume}
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconSend size={14} aria-hidden="true" />}
                  onClick={() => run('send', sch.sent)}
                >
                  {sch.sendNow}
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden="true" />}
                  onClick={() => run('delete', sch.removed)}
                >
                  {sch.remove}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
        <Text size="sm" c="dimmed">
          {sch.hint}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="schedule-frequency">
            {sch.frequency}
          </Text>
          <SegmentedControl
            aria-labelledby="schedule-frequency"
            value={frequency}
            onChange={(v) => setFrequency(v as ScheduleFrequency)}
            data={SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: sch.frequencies[f] }))}
          />
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {frequency === 'weekly' && (
            <Select
              label={sch.weekday}
              data={WEEKDAYS}
              value={weekday}
              onChange={(v) => setWeekday(v ?? '1')}
              allowDeselect={false}
              error={fieldError('weekday')}
            />
          )}
          {frequency === 'monthly' && (
            <Select
              label={sch.monthDay}
              data={MONTH_DAYS}
              value={monthDay}
              onChange={(v) => setMonthDay(v ?? '1')}
              allowDeselect={false}
              error={fieldError('monthDay')}
            />
          )}
          <Select
            label={sch.hour}
            data={hours}
            value={hour}
            onChange={(v) => setHour(v ?? '8')}
            allowDeselect={false}
            error={fieldError('hour')}
          />
          <Select
            label={sch.timeZone}
            data={zones}
            value={timeZone}
            onChange={(v) => setTimeZone(v ?? me.user.timeZone)}
            searchable
            allowDeselect={false}
            error={fieldError('timeZone')}
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="schedule-format">
            {sch.format}
          </Text>
          <SegmentedControl
            aria-labelledby="schedule-format"
            value={format}
            onChange={(v) => setFormat(v as ScheduleFormat)}
            data={SCHEDULE_FORMATS.map((f) => ({ value: f, label: sch.formats[f] }))}
          />
        </Stack>
        <MultiSelect
          label={sch.members}
          placeholder={userIds.length ? undefined : sch.membersPlaceholder}
          data={people}
          value={userIds}
          onChange={setUserIds}
          searchable
          clearable
          error={fieldError('recipientUserIds')}
        />
        <TagsInput
          label={sch.emails}
          description={sch.emailsHint}
          placeholder={sch.emailsPlaceholder}
          value={emails}
          onChange={setEmails}
          splitChars={[',', ' ', ';']}
          acceptValueOnBlur
          clearable
          error={fieldError('recipientEmails')}
        />
        {saveError && !Object.keys(saveError.fields).length && <Alert color="red">{saveError.message}</Alert>}
        <Divider />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {sch.cancel}
          </Button>
          <Button type="submit" loading={action.isPending && action.variables?.kind === 'save'}>
            {sch.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ScheduleState({ schedule }: { schedule: ReportScheduleView }) {
  const clock = useClockFormat();
  return (
    <Stack gap="xs" aria-label={sch.stateLabel} role="status">
      <Group gap="sm">
        <Badge color={STATE_COLOR[schedule.state]} variant="light">
          {sch.state[schedule.state]}
        </Badge>
        {schedule.nextRunAt && (
          <Text size="sm">{sch.nextSend(when(schedule.nextRunAt, schedule.timeZone, clock))}</Text>
        )}
        <Text size="sm" c="dimmed">
          {schedule.lastSentAt ? sch.lastSent(when(schedule.lastSentAt, schedule.timeZone, clock)) : sch.neverSent}
        </Text>
      </Group>
      {schedule.lastError && (
        <Alert color="red" icon={<IconAlertTriangle size={16} aria-hidden="true" />} title={sch.lastError}>
          <Text size="sm">{schedule.lastError}</Text>
          <Text size="sm" c="dimmed">
            {sch.failedAttempts(schedule.failedAttempts)} {schedule.state === 'failed' ? sch.failedHint : ''}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
