import { Button, Group, MultiSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type BulkUpdateTimeEntriesBody,
  type DayPiece,
  dayPieces,
  findOverlaps,
  formatDuration,
  listView,
  type Rounding,
  type TimeEntryView,
  type TimeSettings,
} from '@sundial/core';
import { IconTrash } from '@tabler/icons-react';
import { defaultRangeExtractor } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDurationFormat } from '../../../api/session';
import { type Pickers, ProjectTaskSelect } from '../../../components/EntryFields';
import { failed, notSaved } from '../../../components/notify';
import { useWindowList } from '../../../components/window-list';
import {
  useBulkUpdate,
  useCreateEntry,
  useDeleteEntries,
  useRestoreEntries,
  useTimerAction,
  useUpdateEntry,
} from '../api';
import { useNow } from '../now';
import { t } from '../texts';
import layout from './DayList.module.css';
import { DayHeader, EntryRow, type RowActions } from './DayListRow';
import { ManualEntryModal } from './ManualEntryModal';

/**
 * The entry lies within this one local day (it does not cross midnight): its only piece spans it
 * from start to end. Read from the piece, since time-zone arithmetic per row costs at a thousand rows.
 */
const isWhole = (entry: TimeEntryView, piece: DayPiece, pieces: number) =>
  entry.end !== null &&
  pieces === 1 &&
  piece.startMs === new Date(entry.start).getTime() &&
  piece.endMs === new Date(entry.end).getTime();

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

type ListItem =
  | { kind: 'head'; key: string; day: string; total: number; ids: string[]; gap: number }
  | { kind: 'row'; key: string; day: string; entry: TimeEntryView; seconds: number; whole: boolean }
  | { kind: 'gap'; key: string };

const estimates = { head: 45, row: 49, gap: 16 } as const;

/**
 * Entries grouped by local day, newest first, with day totals; every field edits in place.
 * A week may hold a thousand entries, so only the rows near the viewport are mounted (the window
 * scrolls; each day is a card sized for all its rows) and each row is memoised.
 */
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
  // A running entry's figures tick every second: its row, its day's total and the week's.
  const now = useNow(
    1000,
    entries.some((e) => e.isRunning),
  );
  const view = useMemo(
    () => listView(entries, { timeZone, rounding: roundingOf(props.settings), now }),
    [entries, timeZone, props.settings, now],
  );
  const overlaps = useMemo(() => findOverlaps(entries), [entries]);
  // Selected entries still shown (an entry deleted or moved away drops out); a running one can't be picked.
  const selectable = useMemo(() => new Set(entries.filter((e) => !e.isRunning).map((e) => e.id)), [entries]);
  const selected = [...picked].filter((id) => selectable.has(id));

  const weekDays = props.days;
  const { items, heads, weekTotal } = useMemo(() => {
    const inWeek = new Set(weekDays);
    const items: ListItem[] = [];
    // Per item, the index of its day's heading (the heading stays mounted while any row of its day is).
    const heads: number[] = [];
    const pieces = new Map<string, number>();
    for (const day of view.days)
      for (const { entry } of day.items) pieces.set(entry.id, (pieces.get(entry.id) ?? 0) + 1);
    const shown = view.days.filter((d) => inWeek.has(d.day));
    for (const day of shown) {
      const head = items.length;
      const ids = [...new Set(day.items.map((i) => i.entry.id))].filter((id) => selectable.has(id));
      const heading: ListItem = { kind: 'head', key: `head-${day.day}`, day: day.day, total: day.total, ids, gap: 0 };
      items.push(heading);
      heads.push(head);
      for (const { entry, piece } of day.items) {
        const whole = isWhole(entry, piece, pieces.get(entry.id) ?? 0);
        // A running entry shows its work so far to the second (unrounded, as stopped rows show theirs).
        const seconds = entry.isRunning
          ? (dayPieces(entry, { timeZone, now }).find((p) => p.day === day.day)?.seconds ?? piece.seconds)
          : piece.seconds;
        items.push({ kind: 'row', key: `${entry.id}-${day.day}`, day: day.day, entry, seconds, whole });
        heads.push(head);
      }
      heading.gap = items.length;
      items.push({ kind: 'gap', key: `gap-${day.day}` });
      heads.push(head);
    }
    // The week's total, as the week grid adds it: the (rounded) parts on the week's days.
    return { items, heads, weekTotal: shown.reduce((sum, d) => sum + d.total, 0) };
  }, [view, weekDays, selectable, timeZone, now]);

  const undoDelete = (ids: string[]) => restore.mutate(ids, { onError: failed });
  const handleDelete = (entry: TimeEntryView) =>
    remove.mutate([entry.id], {
      onError: failed,
      onSuccess: () => notifyDeleted([entry.id], t.deleted, () => undoDelete([entry.id])),
    });
  const toggle = (ids: string[], on: boolean) =>
    setPicked((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  // Rows get one stable object of handlers reading the newest render, so memoised rows stay put.
  const latest = useRef({ items, toggle, handleDelete, update, create, timer });
  latest.current = { items, toggle, handleDelete, update, create, timer };
  const actions = useMemo<RowActions>(
    () => ({
      onToggle: (ids, on) => latest.current.toggle(ids, on),
      onToggleDay: (day, on) => {
        const head = latest.current.items.find((i) => i.kind === 'head' && i.day === day);
        if (head?.kind === 'head') latest.current.toggle(head.ids, on);
      },
      onNote: (id, note) => latest.current.update.mutate({ id, body: { note } }, { onError: notSaved }),
      onProject: (id, next) => latest.current.update.mutate({ id, body: next }, { onError: notSaved }),
      onDuration: (id, seconds) =>
        latest.current.update.mutateAsync({ id, body: { duration: seconds } }).catch((error) => {
          notSaved(error);
          throw error;
        }),
      onEditTimes: setEditing,
      onContinue: (entry) =>
        latest.current.timer.mutate(
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
        ),
      onDuplicate: (e) =>
        latest.current.create.mutate(
          {
            start: e.start,
            end: e.end ?? new Date().toISOString(),
            note: e.note,
            projectId: e.projectId,
            taskId: e.taskId,
            tagIds: e.tagIds,
            billable: e.billable,
            userId: e.userId,
          },
          { onError: failed },
        ),
      onDelete: (entry) => latest.current.handleDelete(entry),
    }),
    [],
  );

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

  return (
    <Stack gap="md">
      <Group justify="flex-end" gap="xs" px="md" wrap="nowrap">
        <Text size="sm" c="dimmed">
          {t.weekTotal}
        </Text>
        <Text fw={700} ff="monospace" aria-label={t.weekTotal} style={{ whiteSpace: 'nowrap' }}>
          {formatDuration(weekTotal, format)}
        </Text>
      </Group>
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
      {items.length === 0 ? (
        <Paper withBorder p="xl" radius="md">
          <Text c="dimmed" ta="center">
            {t.noEntries}
          </Text>
        </Paper>
      ) : (
        <VirtualDays
          items={items}
          heads={heads}
          picked={picked}
          overlaps={overlaps}
          pickers={pickers}
          timeZone={timeZone}
          timeFormat={props.timeFormat}
          actions={actions}
        />
      )}
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

/** The days' cards, mounting only the headings and rows in (and near) the viewport. */
function VirtualDays(props: {
  items: ListItem[];
  heads: number[];
  picked: Set<string>;
  overlaps: Set<string>;
  pickers: Pickers | undefined;
  timeZone: string;
  timeFormat: string;
  actions: RowActions;
}) {
  const { items, heads } = props;
  // The row holding the keyboard focus stays mounted while scrolled away, so an edit in progress survives.
  const focused = useRef<number | null>(null);
  const { listRef, scrollMargin, virtualizer } = useWindowList({
    count: items.length,
    estimateSize: (i) => estimates[items[i]?.kind ?? 'row'],
    getItemKey: (i) => items[i]?.key ?? i,
    overscan: 5,
    rangeExtractor: (range) => {
      const shown = new Set(defaultRangeExtractor(range));
      for (const i of [...shown]) shown.add(heads[i] ?? i);
      if (focused.current !== null && focused.current < items.length) shown.add(focused.current);
      return [...shown].sort((a, b) => a - b);
    },
  });
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onFocusIn = (e: FocusEvent) => {
      const index = (e.target as HTMLElement).closest<HTMLElement>('[data-index]')?.dataset.index;
      focused.current = index === undefined ? null : Number(index);
    };
    const onFocusOut = (e: FocusEvent) => {
      if (!list.contains(e.relatedTarget as Node | null)) focused.current = null;
    };
    list.addEventListener('focusin', onFocusIn);
    list.addEventListener('focusout', onFocusOut);
    return () => {
      list.removeEventListener('focusin', onFocusIn);
      list.removeEventListener('focusout', onFocusOut);
    };
  }, [listRef]);
  const virtual = virtualizer.getVirtualItems();
  const at = (i: number) => virtualizer.measurementsCache[i];
  // Group the mounted items by day: each day's card spans from its heading to its gap.
  const cards = new Map<number, typeof virtual>();
  for (const item of virtual) {
    const head = heads[item.index] ?? item.index;
    cards.set(head, [...(cards.get(head) ?? []), item]);
  }
  return (
    <div ref={listRef} className={layout.list} style={{ height: virtualizer.getTotalSize() }}>
      {[...cards].map(([head, shown]) => {
        const headItem = items[head];
        if (headItem?.kind !== 'head') return null;
        const start = at(head)?.start ?? 0;
        const end = at(headItem.gap)?.start ?? start;
        return (
          <section
            key={headItem.key}
            aria-label={`Day ${headItem.day}`}
            className={layout.day}
            style={{ top: start - scrollMargin, height: end - start }}
          >
            {shown.map((v) => {
              const item = items[v.index];
              if (!item || item.kind === 'gap') return null;
              return (
                <div
                  key={v.key}
                  data-index={v.index}
                  ref={virtualizer.measureElement}
                  className={layout.item}
                  style={{ transform: `translateY(${v.start - start}px)` }}
                >
                  {item.kind === 'head' ? (
                    <DayHeader
                      day={item.day}
                      total={item.total}
                      selectable={item.ids.length}
                      picked={item.ids.filter((id) => props.picked.has(id)).length}
                      actions={props.actions}
                    />
                  ) : (
                    <EntryRow
                      entry={item.entry}
                      seconds={item.seconds}
                      whole={item.whole}
                      picked={props.picked.has(item.entry.id)}
                      overlap={props.overlaps.has(item.entry.id)}
                      pickers={props.pickers}
                      timeZone={props.timeZone}
                      timeFormat={props.timeFormat}
                      actions={props.actions}
                    />
                  )}
                </div>
              );
            })}
          </section>
        );
      })}
    </div>
  );
}
