import { Text } from '@mantine/core';
import {
  type CalendarEventView,
  type ClockChange,
  calendarView,
  dayKey,
  formatClockTime,
  formatDayLabel,
  formatDuration,
  layoutLanes,
  readableTextColor,
  type TimeEntryView,
  type TimeSettings,
  wallInstant,
  wallMinutes,
} from '@sundial/core';
import { IconLock } from '@tabler/icons-react';
import { type PointerEvent as ReactPointerEvent, useEffect, useMemo, useRef, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useDurationFormat } from '../../../api/session';
import { type Pickers, projectColor, rowLabel } from '../../../components/EntryFields';
import { failed } from '../../../components/notify';
import { useCreateEntry, useUpdateEntry } from '../api';
import { useNow } from '../now';
import { t } from '../texts';
import classes from './Calendar.module.css';
import { CalendarEventDialog, eventTimes } from './CalendarEventDialog';
import { roundingOf } from './DayList';
import { type EntryDraft, ManualEntryModal } from './ManualEntryModal';

const HOUR_PX = 40;
const SNAP_MIN = 15;
const GUTTER = '52px';
const FIRST_HOUR = 7;
/** The shortest a block is drawn, in px; also what the side-by-side layout counts as its length. */
const MIN_BLOCK_PX = 18;

interface Drag {
  kind: 'move' | 'resize' | 'create';
  entry?: TimeEntryView;
  dayIndex: number;
  startY: number;
  top: number;
  bottom: number;
  dMinutes: number;
  dDays: number;
}

const snap = (minutes: number) => Math.round(minutes / SNAP_MIN) * SNAP_MIN;

/** The hour a day's clocks skip (hatched) or show twice (marked), at its wall-clock place. */
function ClockChangeBand({ change }: { change: ClockChange }) {
  const label = t.clockChange(change.kind, change.from, change.to);
  return (
    <div
      className={classes.clockChange}
      data-kind={change.kind}
      data-testid="clock-change"
      title={label}
      style={{ top: (change.from / 60) * HOUR_PX, height: ((change.to - change.from) / 60) * HOUR_PX }}
    >
      <span className={classes.clockChangeLabel}>{label}</span>
    </div>
  );
}

/**
 * Day or week calendar: entries as blocks at their local wall-clock times (the 09:00 label is 09:00
 * on DST days too). The hour skipped when clocks go forward is hatched and holds no block (a block
 * across it spans it; a drag into it starts when the clocks resume); the hour shown twice when they
 * go back holds both passes, side by side where they overlap, and a drag there means its first pass.
 * Drag a block to move it (also to another day), drag its lower edge to resize it, drag on empty
 * space to create an entry; a click on a block opens it for editing. Blocks overlapping in time stand side by side. When a workspace
 * rule refuses a new entry, the entry dialog opens with its times, to complete.
 */
export function CalendarView(props: {
  workspaceId: string;
  userId: string;
  entries: TimeEntryView[];
  days: string[];
  timeZone: string;
  settings: TimeSettings | undefined;
  pickers: Pickers | undefined;
  /** The person's calendar events, drawn in a lane at the right of each day (their own timesheet only). */
  events?: CalendarEventView[];
}) {
  const { workspaceId, userId, entries, days, timeZone, pickers } = props;
  const [adding, setAdding] = useState<{ event: CalendarEventView; day: string } | null>(null);
  const update = useUpdateEntry(workspaceId);
  const create = useCreateEntry(workspaceId);
  const columnsRef = useRef<(HTMLDivElement | null)[]>([]);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [editing, setEditing] = useState<TimeEntryView | null>(null);
  const [draft, setDraft] = useState<EntryDraft | null>(null);
  const format = useDurationFormat();
  const clock = useClockFormat();
  // Every minute: the now-line moves a pixel in a minute and a half.
  const now = useNow(60_000);
  const today = dayKey(now, timeZone);
  const view = useMemo(
    () => calendarView(entries, days, { timeZone, rounding: roundingOf(props.settings) }),
    [entries, days, timeZone, props.settings],
  );
  const lanes = useMemo(() => view.columns.map((c) => layoutLanes(c.blocks, (MIN_BLOCK_PX / HOUR_PX) * 60)), [view]);
  const columns = `${GUTTER} repeat(${days.length}, minmax(0, 1fr))`;
  const wrapRef = useRef<HTMLElement | null>(null);
  // Open on the working day rather than at midnight.
  useEffect(() => {
    // A little above the hour, so its label is not cut by the sticky day heads.
    if (wrapRef.current) wrapRef.current.scrollTop = FIRST_HOUR * HOUR_PX - 12;
  }, []);

  const dayIndexAt = (clientX: number, fallback: number) => {
    const index = columnsRef.current.findIndex((el) => {
      const r = el?.getBoundingClientRect();
      return r && clientX >= r.left && clientX < r.right;
    });
    return index < 0 ? fallback : index;
  };

  const begin = (e: ReactPointerEvent, next: Omit<Drag, 'startY' | 'dMinutes' | 'dDays'>) => {
    e.preventDefault();
    e.stopPropagation();
    (e.target as Element).setPointerCapture?.(e.pointerId);
    setDrag({ ...next, startY: e.clientY, dMinutes: 0, dDays: 0 });
  };

  const handleMove = (e: ReactPointerEvent) => {
    if (!drag) return;
    const dMinutes = snap(((e.clientY - drag.startY) / HOUR_PX) * 60);
    const dDays = drag.kind === 'move' ? dayIndexAt(e.clientX, drag.dayIndex) - drag.dayIndex : 0;
    if (dMinutes !== drag.dMinutes || dDays !== drag.dDays) setDrag({ ...drag, dMinutes, dDays });
  };

  const handleUp = () => {
    if (!drag) return;
    setDrag(null);
    const day = days[drag.dayIndex] ?? '';
    if (drag.kind === 'create') {
      const top = Math.min(drag.top, drag.top + drag.dMinutes);
      const bottom = Math.max(drag.top + drag.dMinutes, top + 2 * SNAP_MIN);
      const start = wallInstant(day, top, timeZone);
      const end = wallInstant(day, bottom, timeZone);
      create.mutate(
        { start: new Date(start).toISOString(), end: new Date(end).toISOString(), userId },
        {
          onError: (error) => {
            const { fields } = parseApiError(error);
            // A rule (a required tag, note, project...) refused it: complete it in the entry dialog.
            if (Object.keys(fields).length === 0) return failed(error);
            setDraft({
              date: day,
              from: formatClockTime(start, { timeZone, timeFormat: '24h' }),
              to: formatClockTime(end, { timeZone, timeFormat: '24h' }),
              errors: fields,
            });
          },
        },
      );
      return;
    }
    const entry = drag.entry;
    if (!entry) return;
    // A press without a move is a click: open the entry.
    if (drag.dMinutes === 0 && drag.dDays === 0) {
      if (drag.kind === 'move') setEditing(entry);
      return;
    }
    if (drag.kind === 'move') {
      // The start moves by wall clock (10:00 to 11:00 whatever the day); the entry keeps its length.
      const target = days[drag.dayIndex + drag.dDays] ?? day;
      const start = wallInstant(target, wallMinutes(entry.start, day, timeZone) + drag.dMinutes, timeZone);
      update.mutate({ id: entry.id, body: { start: new Date(start).toISOString() } }, { onError: failed });
    } else if (entry.end) {
      const end = wallInstant(day, wallMinutes(entry.end, day, timeZone) + drag.dMinutes, timeZone);
      update.mutate({ id: entry.id, body: { end: new Date(end).toISOString() } }, { onError: failed });
    }
  };

  return (
    <section ref={wrapRef} className={classes.wrap} data-days={days.length} aria-label="Calendar">
      <div className={classes.head} style={{ gridTemplateColumns: columns }}>
        <div />
        {view.columns.map((c) => (
          <div key={c.day} className={classes.dayHead}>
            <Text size="sm" fw={600}>
              {formatDayLabel(c.day, clock, { month: false })}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace" aria-label={`Calendar total ${c.day}`}>
              {formatDuration(c.total, format)}
            </Text>
          </div>
        ))}
      </div>
      <div
        className={classes.body}
        style={{ gridTemplateColumns: columns, height: 24 * HOUR_PX }}
        onPointerMove={handleMove}
        onPointerUp={handleUp}
        onPointerCancel={() => setDrag(null)}
      >
        <div className={classes.gutter}>
          {Array.from({ length: 23 }, (_, i) => i + 1).map((h) => (
            <span key={h} className={classes.hourLabel} style={{ top: h * HOUR_PX }}>
              {String(h).padStart(2, '0')}:00
            </span>
          ))}
        </div>
        {view.columns.map((column, dayIndex) => (
          <div
            key={column.day}
            ref={(el) => {
              columnsRef.current[dayIndex] = el;
            }}
            className={classes.column}
            data-testid={`calendar-day-${column.day}`}
            onPointerDown={(e) => {
              const rect = e.currentTarget.getBoundingClientRect();
              const top = snap(((e.clientY - rect.top) / HOUR_PX) * 60);
              begin(e, { kind: 'create', dayIndex, top, bottom: top });
            }}
          >
            {column.changes.map((change) => (
              <ClockChangeBand key={change.atMs} change={change} />
            ))}
            {column.day === today && (
              <div
                className={classes.nowLine}
                data-testid="calendar-now"
                style={{ top: (wallMinutes(now, today, timeZone) / 60) * HOUR_PX }}
              />
            )}
            {(props.events ?? []).map((event) => {
              const top = Math.max(0, wallMinutes(event.start, column.day, timeZone));
              const bottom = Math.min(24 * 60, wallMinutes(event.end, column.day, timeZone));
              if (bottom <= top) return null;
              const times = eventTimes(event, clock);
              return (
                <button
                  type="button"
                  key={`event-${event.id}`}
                  className={classes.event}
                  data-testid="calendar-event"
                  data-entered={event.entryId ? true : undefined}
                  title={`${event.title} · ${times} · ${event.calendarName}`}
                  aria-label={`${event.entryId ? t.calendars.added : t.calendars.add}: ${event.title} ${times}`}
                  style={{
                    top: (top / 60) * HOUR_PX,
                    height: Math.max(((bottom - top) / 60) * HOUR_PX, MIN_BLOCK_PX),
                  }}
                  onPointerDown={(e) => e.stopPropagation()}
                  onClick={() => !event.entryId && setAdding({ event, day: column.day })}
                >
                  <span className={classes.label}>{event.title || '(no title)'}</span>
                </button>
              );
            })}
            {column.blocks.map((block, blockIndex) => {
              const lane = lanes[dayIndex]?.[blockIndex] ?? { lane: 0, lanes: 1 };
              const moving = drag?.entry?.id === block.entry.id && drag.dayIndex === dayIndex;
              const top = block.top + (moving && drag.kind === 'move' ? drag.dMinutes : 0);
              const bottom = block.bottom + (moving ? drag.dMinutes : 0);
              const label = block.entry.note || rowLabel(pickers, block.entry.projectId, block.entry.taskId);
              return (
                <button
                  type="button"
                  key={`${block.entry.id}-${block.part}`}
                  className={classes.block}
                  data-running={block.entry.isRunning || undefined}
                  data-ghost={moving || undefined}
                  data-testid="calendar-block"
                  data-short={bottom - top < 45 || undefined}
                  title={`${label} ${formatDuration(block.seconds, format)}${block.entry.lock ? ` · ${block.entry.lock.label}` : ''}`}
                  style={{
                    top: (top / 60) * HOUR_PX,
                    height: Math.max(((bottom - top) / 60) * HOUR_PX, MIN_BLOCK_PX),
                    left: `calc(${(lane.lane / lane.lanes) * 100}% + 2px)`,
                    width: `calc(${100 / lane.lanes}% - 4px)`,
                    background: projectColor(pickers, block.entry.projectId),
                    color: readableTextColor(projectColor(pickers, block.entry.projectId)),
                    transform: moving && drag.dDays ? `translateX(${drag.dDays * 100}%)` : undefined,
                  }}
                  data-locked={block.entry.lock ? true : undefined}
                  aria-description={block.entry.lock?.label}
                  onPointerDown={(e) => {
                    if (block.entry.isRunning) return e.stopPropagation();
                    // Locked time does not move or stretch; a click opens it read-only with the reason.
                    if (block.entry.lock) {
                      e.stopPropagation();
                      return;
                    }
                    begin(e, { kind: 'move', entry: block.entry, dayIndex, top: block.top, bottom: block.bottom });
                  }}
                  onClick={() => block.entry.lock && setEditing(block.entry)}
                  // Reachable by keyboard too: Enter opens the entry. Its name is its visible text
                  // (label and duration), so speech input can say what it sees (WCAG 2.5.3).
                  tabIndex={block.entry.isRunning ? -1 : 0}
                  onKeyDown={(e) => {
                    if (!block.entry.isRunning && (e.key === 'Enter' || e.key === ' ')) {
                      e.preventDefault();
                      setEditing(block.entry);
                    }
                  }}
                >
                  <span className={classes.label}>
                    {block.entry.lock && (
                      <IconLock size={12} aria-hidden style={{ verticalAlign: -1, marginRight: 3 }} />
                    )}
                    {label}
                  </span>
                  <span className={classes.duration}>{formatDuration(block.seconds, format)}</span>
                  {!block.entry.isRunning && !block.entry.lock && (
                    <span
                      className={classes.handle}
                      data-testid="calendar-resize"
                      onPointerDown={(e) =>
                        begin(e, { kind: 'resize', entry: block.entry, dayIndex, top: block.top, bottom: block.bottom })
                      }
                    />
                  )}
                </button>
              );
            })}
            {drag?.kind === 'create' && drag.dayIndex === dayIndex && (
              <div
                className={classes.block}
                data-ghost
                style={{
                  top: (Math.min(drag.top, drag.top + drag.dMinutes) / 60) * HOUR_PX,
                  height: (Math.max(Math.abs(drag.dMinutes), 2 * SNAP_MIN) / 60) * HOUR_PX,
                  background: 'var(--mantine-color-blue-4)',
                }}
              />
            )}
          </div>
        ))}
      </div>
      {editing && (
        <ManualEntryModal
          key={editing.id}
          opened
          onClose={() => setEditing(null)}
          workspaceId={workspaceId}
          userId={userId}
          timeZone={timeZone}
          pickers={pickers}
          entry={editing}
        />
      )}
      {adding && (
        <CalendarEventDialog
          workspaceId={workspaceId}
          event={adding.event}
          day={adding.day}
          pickers={pickers}
          onClose={() => setAdding(null)}
        />
      )}
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
    </section>
  );
}
