import { Box, Button, Group, Paper, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  formatDayLabel,
  formatDuration,
  gridRowKey,
  gridView,
  type TimeEntryView,
  type TimeSettings,
  workSeconds,
  zonedInstant,
} from '@sundial/core';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { usePeriodState } from '../../../api/approvals';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useDurationFormat } from '../../../api/session';
import { type Pickers, ProjectTaskSelect, projectColor, rowLabel } from '../../../components/EntryFields';
import { failed } from '../../../components/notify';
import { useCreateEntry, useDeleteEntries, useUpdateEntry } from '../api';
import { t } from '../texts';
import { roundingOf } from './DayList';
import { DurationInput } from './DurationInput';
import { LockMark, type ShownLock } from './LockMark';
import { type EntryDraft, ManualEntryModal } from './ManualEntryModal';

export interface RowRef {
  projectId: string | null;
  taskId: string | null;
  tagIds: string[];
}

/** The Total column's width in px: nine monospace characters at 14 px and the cell's padding. */
const TOTAL_WIDTH = 100;

/** A new cell entry starts at 09:00 local time of its day. */
const CELL_START = '09:00';

/**
 * Week timesheet: rows of project/task (+ tags), a duration cell per day, row, column and week
 * totals. Typing in a cell creates an entry, or stretches or shrinks the day's last one. A cell
 * shows only what was saved: when a workspace rule refuses the new entry, the entry dialog opens
 * with what was typed, to complete.
 */
export function WeekGrid(props: {
  workspaceId: string;
  userId: string;
  entries: TimeEntryView[];
  days: string[];
  timeZone: string;
  settings: TimeSettings | undefined;
  pickers: Pickers | undefined;
  extraRows: RowRef[];
  onAddRows: (rows: RowRef[]) => void;
  onCopyLastWeek: () => void;
}) {
  const { workspaceId, userId, entries, days, timeZone, pickers } = props;
  const create = useCreateEntry(workspaceId);
  const update = useUpdateEntry(workspaceId);
  const remove = useDeleteEntries(workspaceId);
  const [adding, setAdding] = useState(false);
  // The row picker replaces the Add row button and back: focus follows, so the keyboard is not lost.
  const addRowButton = useRef<HTMLButtonElement>(null);
  const pickedRow = useRef(false);
  useEffect(() => {
    if (!adding && pickedRow.current) {
      pickedRow.current = false;
      addRowButton.current?.focus();
    }
  }, [adding]);
  const [draft, setDraft] = useState<EntryDraft | null>(null);
  const format = useDurationFormat();
  // A locked period's days are closed even where no entry is yet (the API refuses a new one).
  const period = usePeriodState(workspaceId, userId, days[0] ?? '').data;
  const cellLock = (day: string, cellEntries: TimeEntryView[]): ShownLock | null => {
    const own = cellEntries.find((e) => e.lock !== null)?.lock;
    if (own) return own;
    if (period?.locked && period.lockReason && day >= period.periodStart && day <= period.periodEnd) {
      return { label: t.lockedPeriod, reason: period.lockReason };
    }
    return null;
  };
  // On a phone, or a 1024 px window zoomed to 200%, the grid keeps columns wide enough for
  // "10:30:00" and scrolls sideways in its own frame rather than letting totals run together.
  const narrow = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const clock = useClockFormat();
  const grid = useMemo(
    () => gridView(entries, days, { timeZone, rounding: roundingOf(props.settings) }),
    [entries, days, timeZone, props.settings],
  );
  const rows = [
    ...grid.rows,
    ...props.extraRows
      .filter((r) => !grid.rows.some((g) => g.key === gridRowKey(r)))
      .map((r) => ({
        key: gridRowKey(r),
        ...r,
        cells: Object.fromEntries(days.map((d) => [d, 0])) as Record<string, number>,
        entries: Object.fromEntries(days.map((d) => [d, [] as TimeEntryView[]])) as Record<string, TimeEntryView[]>,
        total: 0,
      })),
  ];

  /** Saves a typed cell; the promise rejects when nothing was saved, so the cell shows the saved value again. */
  const handleCell = (row: RowRef, day: string, cellEntries: TimeEntryView[], seconds: number): Promise<unknown> => {
    const stopped = cellEntries.filter((e) => !e.isRunning);
    const current = stopped.reduce((sum, e) => sum + workSeconds(e), 0);
    const refused = (error: unknown) => {
      failed(error);
      throw error;
    };
    if (seconds === 0) {
      return stopped.length ? remove.mutateAsync(stopped.map((e) => e.id)).catch(refused) : Promise.resolve();
    }
    const last = [...stopped].sort((a, b) => a.start.localeCompare(b.start)).at(-1);
    if (!last) {
      const entry = {
        projectId: row.projectId,
        taskId: row.taskId,
        tagIds: row.tagIds,
        billable: pickers?.projects.find((p) => p.id === row.projectId)?.billableDefault ?? false,
      };
      return create
        .mutateAsync({
          start: new Date(zonedInstant(day, CELL_START, timeZone)).toISOString(),
          duration: seconds,
          ...entry,
          userId,
        })
        .catch((error: unknown) => {
          const { fields } = parseApiError(error);
          // A rule (a required tag, note, task...) refused it: complete it in the entry dialog.
          if (Object.keys(fields).length === 0) return refused(error);
          setDraft({
            date: day,
            from: CELL_START,
            duration: formatDuration(seconds, format),
            ...entry,
            errors: fields,
          });
          throw error;
        });
    }
    const next = last.durationSeconds + (seconds - current);
    if (next <= 0) {
      notifications.show({ color: 'orange', message: t.manyEntriesShrink });
      return Promise.reject(new Error(t.manyEntriesShrink));
    }
    return update.mutateAsync({ id: last.id, body: { duration: next } }).catch(refused);
  };

  const rowTitle = (row: (typeof rows)[number]) =>
    rowLabel(pickers, row.projectId, row.taskId) +
    (row.tagIds.length > 0
      ? ` · ${row.tagIds.map((id) => pickers?.tags.find((x) => x.id === id)?.name ?? 'tag').join(', ')}`
      : '');

  return (
    <Paper withBorder radius="md" p="xs">
      {/* Fixed layout: the row label takes its share and truncates, so the grid and its totals fit at 1024 px. */}
      <Table.ScrollContainer minWidth={narrow ? 820 : 640} type="native">
        <Table striped={false} withRowBorders verticalSpacing={4} layout="fixed" aria-label="Week timesheet">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="18%">Project / task</Table.Th>
              {days.map((day) => (
                <Table.Th key={day} ta="right" px={4}>
                  {formatDayLabel(day, clock, { month: false })}
                </Table.Th>
              ))}
              {/* Wide enough for "100:00:00" in the cells' monospace: a total of 10 h or more was cut to "12:00:0". */}
              <Table.Th ta="right" w={TOTAL_WIDTH}>
                {t.total}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key} data-testid="grid-row">
                <Table.Td>
                  <Group gap={8} wrap="nowrap">
                    <Box
                      w={10}
                      h={10}
                      style={{ borderRadius: 5, flexShrink: 0, background: projectColor(pickers, row.projectId) }}
                    />
                    <Text size="sm" truncate miw={0} title={rowTitle(row)}>
                      {rowTitle(row)}
                    </Text>
                  </Group>
                </Table.Td>
                {days.map((day) => {
                  const lock = cellLock(day, row.entries[day] ?? []);
                  return (
                    // Narrow side padding: a cell holds "12:30:00" at 1024 px.
                    <Table.Td key={day} ta="right" px={2}>
                      <Group gap={2} wrap="nowrap" justify="flex-end">
                        {lock && <LockMark lock={lock} />}
                        <DurationInput
                          label={`${rowLabel(pickers, row.projectId, row.taskId)} on ${day}`}
                          seconds={row.cells[day] ?? 0}
                          allowEmpty
                          showZeroAsEmpty
                          disabled={lock !== null}
                          w="100%"
                          onCommit={(seconds) => handleCell(row, day, row.entries[day] ?? [], seconds)}
                        />
                      </Group>
                    </Table.Td>
                  );
                })}
                <Table.Td ta="right" px={6}>
                  <Text size="sm" fw={600} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                    {formatDuration(row.total, format)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>{t.total}</Table.Th>
              {days.map((day) => (
                // Small type: "12:00:00" fits a day's column at 1024 px.
                <Table.Th
                  key={day}
                  ta="right"
                  px={4}
                  ff="monospace"
                  fz="xs"
                  aria-label={`Column total ${day}`}
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {formatDuration(grid.columnTotals[day] ?? 0, format)}
                </Table.Th>
              ))}
              <Table.Th ta="right" px={6} ff="monospace" aria-label={t.weekTotal} style={{ whiteSpace: 'nowrap' }}>
                {formatDuration(grid.total, format)}
              </Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      <Group mt="sm" gap="sm">
        {adding ? (
          <ProjectTaskSelect
            pickers={pickers}
            projectId={null}
            taskId={null}
            w={280}
            label={t.addRow}
            autoFocus
            onCancel={() => {
              pickedRow.current = true;
              setAdding(false);
            }}
            onChange={(next) => {
              props.onAddRows([{ ...next, tagIds: [] }]);
              pickedRow.current = true;
              setAdding(false);
            }}
          />
        ) : (
          <Button
            ref={addRowButton}
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setAdding(true)}
          >
            {t.addRow}
          </Button>
        )}
        <Button variant="subtle" size="xs" leftSection={<IconCopy size={14} />} onClick={props.onCopyLastWeek}>
          {t.copyLastWeek}
        </Button>
      </Group>
      {draft && (
        <ManualEntryModal
          opened
          onClose={() => setDraft(null)}
          workspaceId={workspaceId}
          userId={userId}
          timeZone={timeZone}
          pickers={pickers}
          draft={draft}
        />
      )}
    </Paper>
  );
}
