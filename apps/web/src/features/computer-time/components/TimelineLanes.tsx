import { Group, Paper, Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import {
  type ActivitySpanView,
  type ClockFormat,
  type DurationFormat,
  formatClockTime,
  formatDuration,
  type TimeEntryView,
} from '@sundial/core';
import { type MouseEvent, type PointerEvent, useMemo, useRef, useState } from 'react';
import { type Pickers, projectColor, rowLabel } from '../../../components/EntryFields';
import { Swatch } from '../../../components/Swatch';
import { appColor, type Band, bandsOf } from '../lanes';
import { t } from '../texts';
import css from './Timeline.module.css';

export interface TimeRange {
  startMs: number;
  endMs: number;
}

type Lane = 'apps' | 'away';
const MINUTE = 60_000;

const clamp = (axis: TimeRange, ms: number) => Math.min(Math.max(ms, axis.startMs), axis.endMs);
/** Where an instant sits on the axis, as a CSS percentage. */
const leftOf = (axis: TimeRange, ms: number) =>
  `${((clamp(axis, ms) - axis.startMs) / (axis.endMs - axis.startMs)) * 100}%`;
const widthOf = (axis: TimeRange, from: number, to: number) =>
  `${((clamp(axis, to) - clamp(axis, from)) / (axis.endMs - axis.startMs)) * 100}%`;
const LABEL_PX = 120;

/** What a band's tooltip says: the application (or why away), title, site, the times and the duration. */
function bandLines(band: Band<ActivitySpanView>, lane: Lane, clock: ClockFormat, durations: DurationFormat): string[] {
  const first = band.spans[0];
  const times = `${formatClockTime(band.startMs, clock)}–${formatClockTime(band.endMs, clock)} · ${formatDuration(
    Math.round((band.endMs - band.startMs) / 1000),
    durations,
  )}`;
  if (lane === 'away') return [t.timeline.awayReason[first?.awayReason ?? 'idle'], times];
  const lines = [band.app, times];
  if (band.spans.length === 1) {
    if (first?.title) lines.push(first.title);
    if (first?.url) lines.push(first.url);
  } else {
    lines.push(t.timeline.spans(band.spans.length));
    const titles = [...new Set(band.spans.map((s) => s.title).filter((x): x is string => Boolean(x)))];
    lines.push(...titles.slice(0, 3));
  }
  return [...new Set(lines)];
}

/**
 * A day's lanes on one time axis: the applications (a coloured band per span, spans under two
 * pixels merged), away time, and the person's time entries. A click on an application band, or a
 * drag across the applications lane, selects that time (`onSelect`).
 */
export function TimelineLanes(props: {
  axis: TimeRange;
  spans: readonly ActivitySpanView[];
  entries: readonly TimeEntryView[];
  pickers: Pickers | undefined;
  clock: ClockFormat;
  durations: DurationFormat;
  selection: TimeRange | null;
  onSelect: (range: TimeRange) => void;
}) {
  const { axis, clock, durations, onSelect } = props;
  const { ref: trackRef, width: measured } = useElementSize();
  const width = measured || 1000;
  const length = axis.endMs - axis.startMs;
  const pct = (ms: number) => leftOf(axis, ms);
  const widthPct = (from: number, to: number) => widthOf(axis, from, to);

  const lanes = useMemo(() => {
    const active: ActivitySpanView[] = [];
    const away: ActivitySpanView[] = [];
    for (const span of props.spans) (span.kind === 'away' ? away : active).push(span);
    const bounds = { ...axis, widthPx: width };
    return { apps: bandsOf(active, bounds), away: bandsOf(away, bounds) };
  }, [props.spans, axis, width]);

  const [hovered, setHovered] = useState<{ lines: string[]; left: string; top: number } | null>(null);
  const [drag, setDrag] = useState<TimeRange | null>(null);
  const dragged = useRef(false);
  const wrapperRef = useRef<HTMLElement>(null);

  // The bands change with the data and the width only: hovering and dragging do not redraw them.
  const drawn = useMemo(() => {
    const draw = (lane: Lane) =>
      lanes[lane].map((band, index) => (
        <div
          role="img"
          key={band.startMs}
          className={css.band}
          data-lane={lane}
          data-band={index}
          aria-label={`${lane === 'away' ? t.timeline.away : band.app} ${formatClockTime(band.startMs, clock)}–${formatClockTime(band.endMs, clock)}`}
          style={{
            left: leftOf(axis, band.startMs),
            width: widthOf(axis, band.startMs, band.endMs),
            background: lane === 'away' ? 'var(--mantine-color-gray-5)' : appColor(band.app),
          }}
        />
      ));
    return { apps: draw('apps'), away: draw('away') };
  }, [lanes, clock, axis]);

  const bandOf = (target: EventTarget | null) => {
    const element = target instanceof HTMLElement ? target.closest<HTMLElement>('[data-band]') : null;
    if (!element) return undefined;
    const lane = element.dataset.lane as Lane;
    const band = lanes[lane][Number(element.dataset.band)];
    return band ? { lane, band, element } : undefined;
  };

  const handleHover = (e: { target: EventTarget | null }) => {
    const found = bandOf(e.target);
    const wrapper = wrapperRef.current;
    if (!found || !wrapper) return setHovered(null);
    const box = found.element.getBoundingClientRect();
    const frame = wrapper.getBoundingClientRect();
    setHovered({
      lines: bandLines(found.band, found.lane, clock, durations),
      left: `${box.left + box.width / 2 - frame.left}px`,
      top: box.bottom - frame.top + 6,
    });
  };

  const msAt = (clientX: number, track: HTMLElement) => {
    const box = track.getBoundingClientRect();
    const ms = axis.startMs + ((clientX - box.left) / box.width) * length;
    return Math.min(Math.max(Math.round(ms / MINUTE) * MINUTE, axis.startMs), axis.endMs);
  };

  const handlePointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    const track = e.currentTarget;
    const x0 = e.clientX;
    const origin = msAt(x0, track);
    dragged.current = false;
    let range: TimeRange | null = null;
    const move = (ev: globalThis.PointerEvent) => {
      if (Math.abs(ev.clientX - x0) < 5) return;
      dragged.current = true;
      const at = msAt(ev.clientX, track);
      range = { startMs: Math.min(origin, at), endMs: Math.max(origin, at) };
      setDrag(range);
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      setDrag(null);
      if (range && range.endMs > range.startMs) onSelect(range);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  const handleClick = (e: MouseEvent) => {
    if (dragged.current) {
      dragged.current = false;
      return;
    }
    const found = bandOf(e.target);
    if (found?.lane === 'apps') onSelect({ startMs: found.band.startMs, endMs: found.band.endMs });
  };

  const hours: number[] = [];
  const hourCount = length / 3_600_000;
  const step = width / hourCount < 28 ? 3 : width / hourCount < 48 ? 2 : 1;
  for (let ms = axis.startMs; ms <= axis.endMs; ms += step * 3_600_000) hours.push(ms);
  const shown = drag ?? props.selection;
  const legend = useMemo(() => {
    const seconds = new Map<string, number>();
    for (const span of props.spans) {
      if (span.kind !== 'active' || !span.app) continue;
      seconds.set(
        span.app,
        (seconds.get(span.app) ?? 0) + (Date.parse(span.endedAt) - Date.parse(span.startedAt)) / 1000,
      );
    }
    return [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 12);
  }, [props.spans]);

  return (
    <section
      ref={wrapperRef}
      className={css.lanes}
      aria-label={t.timeline.lanes}
      onMouseOver={handleHover}
      onMouseLeave={() => setHovered(null)}
      onFocus={handleHover}
      onBlur={() => setHovered(null)}
    >
      <div className={css.grid}>
        <div />
        <div className={css.axis} aria-hidden>
          {hours.map((ms) => (
            <span key={ms} className={css.tick} style={{ left: pct(ms) }}>
              {formatClockTime(ms, clock)}
            </span>
          ))}
        </div>
        <div className={css.label}>{t.timeline.apps}</div>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the bands inside are the buttons; the lane adds dragging */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: pointer selection; the keyboard way is yet to come (see the report) */}
        <div
          ref={trackRef}
          className={`${css.track} ${css.apps}`}
          data-testid="lane-apps"
          onPointerDown={handlePointerDown}
          onClick={handleClick}
        >
          {drawn.apps}
        </div>
        <div className={css.label}>{t.timeline.away}</div>
        <div className={css.track} data-testid="lane-away">
          {drawn.away}
        </div>
        <div className={css.label}>{t.timeline.entries}</div>
        <div className={css.track} data-testid="lane-entries">
          {props.entries.map((entry) => {
            const start = Date.parse(entry.start);
            const end = entry.end ? Date.parse(entry.end) : Date.now();
            if (end <= axis.startMs || start >= axis.endMs) return null;
            const label = rowLabel(props.pickers, entry.projectId, entry.taskId);
            const text = [label, entry.note].filter(Boolean).join(' · ');
            const times = `${formatClockTime(start, clock)}–${formatClockTime(end, clock)}`;
            return (
              <div
                key={entry.id}
                className={css.entry}
                role="img"
                aria-label={`${text} ${times}`}
                title={`${text}\n${times} · ${formatDuration(entry.durationSeconds, durations)}`}
                style={{
                  left: pct(start),
                  width: widthPct(start, end),
                  background: projectColor(props.pickers, entry.projectId),
                }}
              >
                {text}
              </div>
            );
          })}
        </div>
      </div>
      <div style={{ position: 'absolute', left: LABEL_PX, right: 0, top: 0, bottom: 0, pointerEvents: 'none' }}>
        {shown && (
          <div
            className={css.selection}
            data-testid="timeline-selection"
            style={{ left: pct(shown.startMs), width: widthPct(shown.startMs, shown.endMs) }}
          />
        )}
      </div>
      <Group gap="md" mt="sm" data-testid="timeline-legend">
        {legend.map(([app, seconds]) => (
          <Group key={app} gap={6} wrap="nowrap">
            <Swatch color={appColor(app)} round={false} />
            <Text size="xs">
              {app} · {formatDuration(Math.round(seconds), durations)}
            </Text>
          </Group>
        ))}
      </Group>
      {hovered && (
        <Paper className={css.tooltip} shadow="md" p="xs" withBorder style={{ left: hovered.left, top: hovered.top }}>
          <Stack gap={2} role="tooltip">
            {hovered.lines.map((line, i) => (
              <Text key={line} size="xs" fw={i === 0 ? 600 : 400} truncate="end">
                {line}
              </Text>
            ))}
          </Stack>
        </Paper>
      )}
    </section>
  );
}
