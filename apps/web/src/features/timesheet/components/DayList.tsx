import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type BulkUpdateTimeEntriesBody,
  type DayPiece,
  dayKey,
  findOverlaps,
  formatDuration,
  listView,
  type Rounding,
  type TimeEntryView,
  type TimeSettings,
} from '@sundial/core';
import { IconCopy, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useDurationFormat } from '../../../api/session';
import { failed } from '../../../components/notify';
import {
  useBulkUpdate,
  useCreateEntry,
  useDeleteEntries,
  useRestoreEntries,
  useTimerAction,
  useUpdateEntry,
} from '../api';
import { formatDay, formatTime } from '../dates';
import { t } from '../texts';
import layout from './DayList.module.css';
import { DurationInput } from './DurationInput';
import { type Pickers, ProjectTaskSelect, projectColor } from './EntryFields';
import { ManualEntryModal } from './ManualEntryModal';

/** The entry lies within this one local day (it does not cross midnight). */
const isWhole = (entry: TimeEntryView, piece: DayPiece, timeZone: string) =>
  entry.end !== null &&
  dayKey(entry.start, timeZone) === piece.day &&
  dayKey(Math.max(new Date(entry.end).getTime() - 1, new Date(entry.start).getTime()), timeZone) === piece.day;

export function roundingOf(settings: TimeSettings | undefined): Rounding {
  return settings ? { mode: settings.roundingMode, minutes: settings.roundingMinutes } : { mode: 'none', minutes: 1 };
}

/** A notification with an Undo that brings the deleted entries back as they were. */
export function notifyDeleted(ids: string[], message: string, onUndo: () => void) {
  const id = `deleted-${ids[0] ?? ''}`;
  notifications.show({
    id,
    autoClose: 8000,
    message: (
      <Group justify="space-between">
        <Text size="sm">{message}</Text>
        <Text
          component="button"
          type="button"
          size="sm"
          c="blue"
          fw={600}
          style={{ background: 'none', border: 0, cursor: 'pointer' }}
          onClick={() => {
            notifications.hide(id);
            onUndo();
          }}
        >
          {t.undo}
        </Text>
      </Group>
    ),
  });
}

/** Tags picked in the bulk bar, applied to the selection with a button. */
function BulkTags(props: {
  pickers: Pickers | undefined;
  label: string;
  busy: boolean;
  onApply: (ids: string[]) => void;
}) {
  const [ids, setIds] = useState<string[]>([]);
  if (!props.pickers?.tags.length) return null;
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={props.label}>
      <MultiSelect
        aria-label={props.label}
        placeholder={ids.length ? undefined : props.label}
        data={props.pickers.tags.map((tag) => ({ value: tag.id, label: tag.name }))}
        value={ids}
        onChange={setIds}
        searchable
        size="xs"
        w={180}
      />
      <Button
        size="xs"
        variant="default"
        disabled={props.busy || ids.length === 0}
        onClick={() => {
          props.onApply(ids);
          setIds([]);
        }}
      >
        {t.bulk.apply}
      </Button>
    </Group>
  );
}

/** The note typed in the bulk bar, set on every selected entry with a button. */
function BulkNote(props: { busy: boolean; onApply: (note: string) => void }) {
  const [note, setNote] = useState('');
  const apply = () => {
    props.onApply(note);
    setNote('');
  };
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={t.bulk.note}>
      <TextInput
        aria-label={t.bulk.note}
        placeholder={t.bulk.notePlaceholder}
        size="xs"
        w={200}
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
      />
      <Button size="xs" variant="default" disabled={props.busy} onClick={apply}>
        {t.bulk.apply}
      </Button>
    </Group>
  );
}

/** The bar over the list while entries are selected: change project/task, tags, note or billable, or delete them. */
function BulkBar(props: {
  count: number;
  pickers: Pickers | undefined;
  busy: boolean;
  onSet: (set: BulkUpdateTimeEntriesBody['set']) => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  return (
    <Paper withBorder p="xs" radius="md" aria-label={t.bulk.bar}>
      <Group gap="sm" wrap="wrap">
        <Text fw={600} size="sm">
          {t.bulk.selected(props.count)}
        </Text>
        <ProjectTaskSelect
          pickers={props.pickers}
          label={t.bulk.setProject}
          labelHidden
          projectId={null}
          taskId={null}
          size="xs"
          w={220}
          onChange={props.onSet}
        />
        <BulkTags
          pickers={props.pickers}
          label={t.bulk.addTags}
          busy={props.busy}
          onApply={(addTagIds) => props.onSet({ addTagIds })}
        />
        <BulkTags
          pickers={props.pickers}
          label={t.bulk.removeTags}
          busy={props.busy}
          onApply={(removeTagIds) => props.onSet({ removeTagIds })}
        />
        <BulkNote busy={props.busy} onApply={(note) => props.onSet({ note })} />
        <Button size="xs" variant="default" disabled={props.busy} onClick={() => props.onSet({ billable: true })}>
          {t.bulk.billable}
        </Button>
        <Button size="xs" variant="default" disabled={props.busy} onClick={() => props.onSet({ billable: false })}>
          {t.bulk.notBillable}
        </Button>
        <Button
          size="xs"
          color="red"
          variant="light"
          leftSection={<IconTrash size={14} />}
          disabled={props.busy}
          onClick={props.onDelete}
        >
          {t.bulk.delete}
        </Button>
        <Button size="xs" variant="subtle" color="gray" onClick={props.onClear}>
          {t.bulk.clear}
        </Button>
      </Group>
    </Paper>
  );
}

function NoteInput({ entry, onSave }: { entry: TimeEntryView; onSave: (note: string) => void }) {
  const [note, setNote] = useState(entry.note);
  useEffect(() => setNote(entry.note), [entry.note]);
  return (
    <TextInput
      aria-label="Entry note"
      placeholder="(no note)"
      variant="unstyled"
      value={note}
      onChange={(e) => setNote(e.currentTarget.value)}
      onBlur={() => note !== entry.note && onSave(note)}
      onKeyDown={(e) => e.key === 'Enter' && (e.currentTarget as HTMLInputElement).blur()}
      style={{ minWidth: 120 }}
    />
  );
}

/** Entries grouped by local day, newest first, with day totals; every field edits in place. */
export function DayList(props: {
  workspaceId: string;
  userId: string;
  entries: TimeEntryView[];
  days: string[];
  timeZone: string;
  settings: TimeSettings | undefined;
  pickers: Pickers | undefined;
  timeFormat: string;
}) {
  const { workspaceId, entries, timeZone, pickers } = props;
  const update = useUpdateEntry(workspaceId);
  const create = useCreateEntry(workspaceId);
  const remove = useDeleteEntries(workspaceId);
  const timer = useTimerAction(workspaceId, props.userId);
  const bulk = useBulkUpdate(workspaceId);
  const restore = useRestoreEntries(workspaceId);
  const [picked, setPicked] = useState<Set<string>>(() => new Set());
  const [editing, setEditing] = useState<TimeEntryView | null>(null);
  const format = useDurationFormat();
  const view = useMemo(
    () => listView(entries, { timeZone, rounding: roundingOf(props.settings) }),
    [entries, timeZone, props.settings],
  );
  const overlaps = useMemo(() => findOverlaps(entries), [entries]);
  const inWeek = new Set(props.days);
  const days = view.days.filter((d) => inWeek.has(d.day));
  // Selected entries still shown (an entry deleted or moved away drops out); a running one can't be picked.
  const selectable = new Set(entries.filter((e) => !e.isRunning).map((e) => e.id));
  const selected = [...picked].filter((id) => selectable.has(id));
  const toggle = (ids: string[], on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const undoDelete = (ids: string[]) => restore.mutate(ids, { onError: failed });

  const copyOf = (e: TimeEntryView) => ({
    start: e.start,
    end: e.end ?? new Date().toISOString(),
    note: e.note,
    projectId: e.projectId,
    taskId: e.taskId,
    tagIds: e.tagIds,
    billable: e.billable,
    userId: e.userId,
  });

  const handleDelete = (entry: TimeEntryView) =>
    remove.mutate([entry.id], {
      onError: failed,
      onSuccess: () => notifyDeleted([entry.id], t.deleted, () => undoDelete([entry.id])),
    });

  const handleBulkDelete = () => {
    const ids = selected;
    remove.mutate(ids, {
      onError: failed,
      onSuccess: () => {
        setPicked(new Set());
        notifyDeleted(ids, t.bulk.deleted(ids.length), () => undoDelete(ids));
      },
    });
  };
  const bulkSet = (set: Parameters<typeof bulk.mutate>[0]['set']) =>
    bulk.mutate(
      { ids: selected, set },
      {
        onError: failed,
        onSuccess: (r) => notifications.show({ message: t.bulk.updated(r.items.length) }),
      },
    );

  if (days.length === 0) {
    return (
      <Paper withBorder p="xl" radius="md">
        <Text c="dimmed" ta="center">
          {t.noEntries}
        </Text>
      </Paper>
    );
  }

  return (
    <Stack gap="md">
      {selected.length > 0 && (
        <BulkBar
          count={selected.length}
          pickers={pickers}
          busy={bulk.isPending || remove.isPending}
          onSet={bulkSet}
          onDelete={handleBulkDelete}
          onClear={() => setPicked(new Set())}
        />
      )}
      {days.map((day) => {
        const dayIds = [...new Set(day.items.map((i) => i.entry.id))].filter((id) => selectable.has(id));
        const pickedOfDay = dayIds.filter((id) => picked.has(id)).length;
        return (
          <Paper key={day.day} withBorder radius="md" aria-label={`Day ${day.day}`}>
            <Group justify="space-between" px="md" py="xs" bg="var(--sundial-color-subtle)">
              <Group gap="sm">
                <Checkbox
                  aria-label={`${t.bulk.selectDay} ${formatDay(day.day)}`}
                  checked={dayIds.length > 0 && pickedOfDay === dayIds.length}
                  indeterminate={pickedOfDay > 0 && pickedOfDay < dayIds.length}
                  disabled={dayIds.length === 0}
                  onChange={(e) => toggle(dayIds, e.currentTarget.checked)}
                />
                <Text fw={600}>{formatDay(day.day)}</Text>
              </Group>
              <Text fw={600} ff="monospace" aria-label={`Total of ${day.day}`}>
                {formatDuration(day.total, format)}
              </Text>
            </Group>
            {day.items.map(({ entry, piece }) => (
              <Group
                key={`${entry.id}-${day.day}`}
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
                  checked={picked.has(entry.id) && !entry.isRunning}
                  disabled={entry.isRunning}
                  onChange={(e) => toggle([entry.id], e.currentTarget.checked)}
                />
                <Box w={4} h={28} style={{ borderRadius: 2, background: projectColor(pickers, entry.projectId) }} />
                <Stack gap={0} className={layout.entryNote}>
                  <NoteInput
                    entry={entry}
                    onSave={(note) => update.mutate({ id: entry.id, body: { note } }, { onError: failed })}
                  />
                  {/* Flags and tags on a line of their own, so the columns to the right line up. */}
                  {(overlaps.has(entry.id) || entry.billable || entry.tagIds.length > 0) && (
                    <Group gap={6} wrap="nowrap" miw={0}>
                      {overlaps.has(entry.id) && (
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
                      {entry.tagIds.length > 0 && (
                        <Text size="xs" c="dimmed" truncate aria-label="Entry tags">
                          {entry.tagIds.map((id) => pickers?.tags.find((x) => x.id === id)?.name ?? 'tag').join(', ')}
                        </Text>
                      )}
                    </Group>
                  )}
                </Stack>
                <ProjectTaskSelect
                  pickers={pickers}
                  projectId={entry.projectId}
                  taskId={entry.taskId}
                  size="xs"
                  w={180}
                  onChange={(next) => update.mutate({ id: entry.id, body: next }, { onError: failed })}
                />
                <EntryTimes
                  times={`${formatTime(entry.start, timeZone, props.timeFormat)} – ${
                    entry.end ? formatTime(entry.end, timeZone, props.timeFormat) : '…'
                  }`}
                  onEdit={entry.isRunning ? undefined : () => setEditing(entry)}
                />
                {entry.isRunning ? (
                  <Text w={80} ta="right" ff="monospace" c="blue">
                    {formatDuration(piece.seconds, format)}
                  </Text>
                ) : (
                  <DurationInput
                    label="Entry duration"
                    // The recorded duration; the day total above applies the workspace rounding.
                    // An entry crossing midnight shows its part of this day, edited from its start day.
                    seconds={isWhole(entry, piece, timeZone) ? entry.durationSeconds : piece.seconds}
                    disabled={!isWhole(entry, piece, timeZone)}
                    onCommit={(seconds) =>
                      update.mutateAsync({ id: entry.id, body: { duration: seconds } }).catch((error) => {
                        failed(error);
                        throw error;
                      })
                    }
                  />
                )}
                <RowAction
                  label={t.continue}
                  color="blue"
                  disabled={entry.isRunning}
                  onClick={() =>
                    timer.mutate(
                      {
                        action: 'start',
                        body: {
                          note: entry.note,
                          projectId: entry.projectId,
                          taskId: entry.taskId,
                          tagIds: entry.tagIds,
                          billable: entry.billable,
                        },
                      },
                      { onError: failed },
                    )
                  }
                >
                  <IconPlayerPlay size={16} />
                </RowAction>
                <RowAction
                  label={t.duplicate}
                  color="gray"
                  disabled={entry.isRunning}
                  onClick={() => create.mutate(copyOf(entry), { onError: failed })}
                >
                  <IconCopy size={16} />
                </RowAction>
                <RowAction label={t.delete} color="red" disabled={entry.isRunning} onClick={() => handleDelete(entry)}>
                  <IconTrash size={16} />
                </RowAction>
              </Group>
            ))}
          </Paper>
        );
      })}
      {editing && (
        <ManualEntryModal
          key={editing.id}
          opened
          onClose={() => setEditing(null)}
          workspaceId={workspaceId}
          userId={props.userId}
          timeZone={timeZone}
          pickers={pickers}
          entry={editing}
        />
      )}
    </Stack>
  );
}

/**
 * The entry's start and end; a click opens the whole entry (date, times, tags, billable) in the
 * entry dialog. A running entry's times only show.
 */
function EntryTimes({ times, onEdit }: { times: string; onEdit?: () => void }) {
  const text = (
    <Text size="sm" c="dimmed" w={104} ta="right" style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
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
