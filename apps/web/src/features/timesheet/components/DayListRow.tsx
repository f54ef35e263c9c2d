import {
  ActionIcon,
  Badge,
  Box,
  Checkbox,
  Group,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { formatClockTime, formatDayLabel, formatDuration, type TimeEntryView } from '@sundial/core';
import { IconChevronDown, IconCopy, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { memo, type ReactNode, useEffect, useState } from 'react';
import { useRateSettings } from '../../../api/rates';
import { useClockFormat, useDurationFormat, useWorkspace } from '../../../api/session';
import { type Pickers, ProjectTaskSelect, projectColor, rowLabel } from '../../../components/EntryFields';
import { money } from '../../../components/money';
import { useInPlace } from '../../../components/useInPlace';
import { t } from '../texts';
import layout from './DayList.module.css';
import { DurationInput } from './DurationInput';
import { closesAll, LockMark } from './LockMark';

/** What a row asks of the list; one stable object, so a row re-renders only when its own data changes. */
export interface RowActions {
  onToggle: (ids: string[], on: boolean) => void;
  onToggleDay: (day: string, on: boolean) => void;
  onNote: (id: string, note: string) => void;
  onProject: (id: string, next: { projectId: string | null; taskId: string | null }) => void;
  onDuration: (id: string, seconds: number) => Promise<unknown>;
  onEditTimes: (entry: TimeEntryView) => void;
  onContinue: (entry: TimeEntryView) => void;
  onDuplicate: (entry: TimeEntryView) => void;
  onDelete: (entry: TimeEntryView) => void;
}

/** A day's heading: select-all box, date and the day's (rounded) total. */
export const DayHeader = memo(function DayHeader(props: {
  day: string;
  total: number;
  selectable: number;
  picked: number;
  actions: RowActions;
}) {
  const format = useDurationFormat();
  const clock = useClockFormat();
  const { day, selectable, picked } = props;
  return (
    <Group justify="space-between" px="md" py="xs" bg="var(--sundial-color-subtle)">
      <Group gap="sm">
        <Checkbox
          aria-label={`${t.bulk.selectDay} ${formatDayLabel(day, clock)}`}
          checked={selectable > 0 && picked === selectable}
          indeterminate={picked > 0 && picked < selectable}
          disabled={selectable === 0}
          onChange={(e) => props.actions.onToggleDay(day, e.currentTarget.checked)}
        />
        <Text fw={600}>{formatDayLabel(day, clock)}</Text>
      </Group>
      <Text fw={600} ff="monospace" aria-label={`Total of ${day}`}>
        {formatDuration(props.total, format)}
      </Text>
    </Group>
  );
});

/** One entry of a day; every field edits in place. */
export const EntryRow = memo(function EntryRow(props: {
  entry: TimeEntryView;
  /** Seconds of the entry on this day (an entry crossing midnight shows its part of each day). */
  seconds: number;
  /** The entry lies within this day, so its duration is edited here. */
  whole: boolean;
  picked: boolean;
  overlap: boolean;
  pickers: Pickers | undefined;
  timeZone: string;
  timeFormat: string;
  actions: RowActions;
}) {
  const { entry, pickers, actions } = props;
  const format = useDurationFormat();
  // Locked time shows read-only with its reason instead of taking an edit the API would refuse.
  const lock = entry.lock;
  const closed = closesAll(lock);
  const times = `${formatClockTime(entry.start, { timeZone: props.timeZone, timeFormat: props.timeFormat })} – ${
    entry.end ? formatClockTime(entry.end, { timeZone: props.timeZone, timeFormat: props.timeFormat }) : '…'
  }`;
  return (
    <Group
      px="md"
      py={6}
      gap="sm"
      wrap="nowrap"
      style={{ borderTop: '1px solid var(--sundial-color-rule)' }}
      className={layout.entryRow}
      data-testid="entry-row"
    >
      <Checkbox
        aria-label={t.bulk.selectEntry}
        checked={props.picked && !entry.isRunning}
        disabled={entry.isRunning || closed}
        onChange={(e) => actions.onToggle([entry.id], e.currentTarget.checked)}
      />
      <Box w={4} h={28} style={{ borderRadius: 2, background: projectColor(pickers, entry.projectId) }} />
      <Stack gap={0} className={layout.entryNote}>
        <NoteInput note={entry.note} readOnly={closed} onSave={(note) => actions.onNote(entry.id, note)} />
        {/* Flags and tags on a line of their own, so the columns to the right line up. */}
        {(props.overlap || entry.billable || entry.tagIds.length > 0 || entry.costAmountCents !== null) && (
          <Group gap={6} wrap="nowrap" miw={0}>
            {props.overlap && (
              <Tooltip label={t.overlap}>
                <Badge color="orange" variant="light" size="xs" style={{ flexShrink: 0 }}>
                  Overlap
                </Badge>
              </Tooltip>
            )}
            {entry.billable && (
              <Badge color="green" variant="light" size="xs" style={{ flexShrink: 0 }}>
                {t.billable}
              </Badge>
            )}
            <EntryMoney entry={entry} />
            {entry.tagIds.length > 0 && (
              <Text size="xs" c="dimmed" truncate aria-label="Entry tags">
                {entry.tagIds.map((id) => pickers?.tags.find((x) => x.id === id)?.name ?? 'tag').join(', ')}
              </Text>
            )}
          </Group>
        )}
      </Stack>
      <ProjectCell
        pickers={pickers}
        projectId={entry.projectId}
        taskId={entry.taskId}
        readOnly={lock !== null}
        onChange={(next) => actions.onProject(entry.id, next)}
      />
      {lock && <LockMark lock={lock} />}
      <EntryTimes
        times={times}
        twelveHour={props.timeFormat === '12h'}
        onEdit={entry.isRunning || closed ? undefined : () => actions.onEditTimes(entry)}
      />
      {entry.isRunning ? (
        <Text w={80} ta="right" ff="monospace" c="blue" data-testid="running-entry-duration">
          {formatDuration(props.seconds, format)}
        </Text>
      ) : (
        <DurationInput
          label="Entry duration"
          // The recorded duration; the day total above applies the workspace rounding.
          // An entry crossing midnight shows its part of this day, edited from its start day.
          seconds={props.whole ? entry.durationSeconds : props.seconds}
          disabled={!props.whole || lock !== null}
          onCommit={(seconds) => actions.onDuration(entry.id, seconds)}
        />
      )}
      <RowAction label={t.continue} color="blue" disabled={entry.isRunning} onClick={() => actions.onContinue(entry)}>
        <IconPlayerPlay size={16} />
      </RowAction>
      <RowAction
        label={t.duplicate}
        color="gray"
        disabled={entry.isRunning || closed}
        onClick={() => actions.onDuplicate(entry)}
      >
        <IconCopy size={16} />
      </RowAction>
      <RowAction
        label={t.delete}
        color="red"
        disabled={entry.isRunning || lock !== null}
        onClick={() => actions.onDelete(entry)}
      >
        <IconTrash size={16} />
      </RowAction>
    </Group>
  );
});

function NoteInput({
  note: saved,
  readOnly,
  onSave,
}: {
  note: string;
  readOnly: boolean;
  onSave: (note: string) => void;
}) {
  const [note, setNote] = useState(saved);
  useEffect(() => setNote(saved), [saved]);
  return (
    <TextInput
      aria-label="Entry note"
      placeholder="(no note)"
      variant="unstyled"
      value={note}
      readOnly={readOnly}
      onChange={(e) => setNote(e.currentTarget.value)}
      onBlur={() => note !== saved && onSave(note)}
      onKeyDown={(e) => e.key === 'Enter' && (e.currentTarget as HTMLInputElement).blur()}
      style={{ minWidth: 120 }}
    />
  );
}

/**
 * The entry's project / task as a light button; the real picker (a searchable select, costly to
 * mount hundreds of times) takes its place on click or Enter and goes back when it loses focus or
 * on Escape. Both carry the picker's name, so a screen reader and the journeys find the same field.
 */
function ProjectCell(props: {
  pickers: Pickers | undefined;
  projectId: string | null;
  taskId: string | null;
  readOnly: boolean;
  onChange: (next: { projectId: string | null; taskId: string | null }) => void;
}) {
  // After a choice or Escape the keyboard stays on the field; a click elsewhere keeps its own focus.
  const { open: active, setOpen: setActive, button, close, leaving } = useInPlace();
  if (active) {
    return (
      <Box w={180} style={{ flexShrink: 0 }} onBlur={(e) => leaving(e) && close(false)}>
        <ProjectTaskSelect
          pickers={props.pickers}
          projectId={props.projectId}
          taskId={props.taskId}
          size="xs"
          w={180}
          autoFocus
          onCancel={() => close(true)}
          onChange={(next) => {
            close(true);
            props.onChange(next);
          }}
        />
      </Box>
    );
  }
  const label = props.projectId ? rowLabel(props.pickers, props.projectId, props.taskId) : null;
  if (props.readOnly) {
    return (
      <Text size="xs" truncate c={label ? undefined : 'dimmed'} className={layout.projectCell}>
        {label ?? t.noProject}
      </Text>
    );
  }
  return (
    <UnstyledButton
      ref={button}
      className={layout.projectCell}
      aria-label={`${t.projectPlaceholder}: ${label ?? t.noProject}`}
      aria-haspopup="listbox"
      onClick={() => setActive(true)}
    >
      <Text size="xs" truncate c={label ? undefined : 'dimmed'}>
        {label ?? t.projectPlaceholder}
      </Text>
      <IconChevronDown size={14} aria-hidden="true" style={{ flexShrink: 0, opacity: 0.6 }} />
    </UnstyledButton>
  );
}

/**
 * The entry's start and end; a click opens the whole entry (date, times, tags, billable) in the
 * entry dialog. A running entry's times only show.
 */
function EntryTimes({ times, twelveHour, onEdit }: { times: string; twelveHour: boolean; onEdit?: () => void }) {
  // As wide as the longest times of the clock ("10:30 – 23:45", "10:30 PM – 11:45 PM"): one width for
  // every row keeps the column straight.
  const text = (
    <Text size="sm" c="dimmed" w={twelveHour ? 156 : 104} ta="right" style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
      {times}
    </Text>
  );
  if (!onEdit) return text;
  return (
    <Tooltip label={t.editHint}>
      <UnstyledButton aria-label={`${t.edit}, ${times}`} onClick={onEdit} style={{ flexShrink: 0 }}>
        {text}
      </UnstyledButton>
    </Tooltip>
  );
}

/** An icon button of an entry row, named by its tooltip for screen readers too. */
function RowAction({
  label,
  color,
  disabled,
  onClick,
  children,
}: {
  label: string;
  color: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={label} disabled={disabled} onClick={onClick}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * The entry's amounts, where the API sent them (billable: those who may see it; cost: owners and
 * admins, and managers when the workspace allows), at the rates copied when it was saved.
 */
function EntryMoney({ entry }: { entry: TimeEntryView }) {
  const currency = useRateSettings(useWorkspace().workspaceId).data?.currency ?? 'USD';
  const parts = [
    entry.billable && entry.billableAmountCents !== null ? money(entry.billableAmountCents, currency) : null,
    entry.costAmountCents !== null ? `cost ${money(entry.costAmountCents, currency)}` : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return (
    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }} data-testid="entry-amount">
      {parts.join(' · ')}
    </Text>
  );
}
