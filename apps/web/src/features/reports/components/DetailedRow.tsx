import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Checkbox,
  Group,
  Table,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  type ClockFormat,
  type DetailedEntryView,
  dayKey,
  formatClockTime,
  formatDayLabel,
  parseDuration,
  shiftDay,
  type UpdateTimeEntryBody,
  zonedInstant,
} from '@sundial/core';
import { IconTag } from '@tabler/icons-react';
import { memo, type ReactNode, type RefObject, useState } from 'react';
import { Link } from 'react-router';
import { type Pickers, ProjectTaskSelect, TagSelect } from '../../../components/EntryFields';
import type { useReportFormat } from '../../../components/report-format';
import { Swatch } from '../../../components/Swatch';
import { useInPlace } from '../../../components/useInPlace';
import type { RowNames } from '../api';
import { t } from '../texts';
import classes from './DetailedRow.module.css';

const nowrap = { whiteSpace: 'nowrap' } as const;

/** What a row asks of the page; one stable object, so a row re-renders only when its own data changes. */
export interface DetailedRowActions {
  onToggle: (id: string) => void;
  /** Saves a change of the entry; rejects (after saying why) when the server refuses it. */
  onEdit: (row: DetailedEntryView, body: UpdateTimeEntryBody, names?: RowNames) => void;
}

/** How the row shows the entry's day and times, and reads times typed for them, in the viewer's zone. */
export interface EntryClock {
  date: (e: DetailedEntryView) => string;
  span: (e: DetailedEntryView) => string;
  /** "HH:MM" (24 h) of an instant, for a time field. */
  hhmm: (iso: string) => string;
  /** The instants of start and end typed as "HH:MM" on the entry's start day (an end before its start is the next day). */
  instants: (e: DetailedEntryView, start: string, end: string) => { start: string; end: string };
}

/**
 * The clock of a time zone and the reader's formats (the viewer's profile, or on a public page the
 * report's zone with ISO order and a 24-hour clock), through core's one formatter.
 */
export function entryClock(
  zone: string,
  formats: Pick<ClockFormat, 'dateFormat' | 'timeFormat'> = { dateFormat: 'YYYY-MM-DD', timeFormat: '24h' },
): EntryClock {
  const f: ClockFormat = { ...formats, timeZone: zone };
  return {
    date: (e) => formatDayLabel(e.start, f),
    span: (e) => `${formatClockTime(e.start, f)}–${e.end ? formatClockTime(e.end, f) : t.detailed.running}`,
    hhmm: (iso) => formatClockTime(iso, { timeZone: zone, timeFormat: '24h' }),
    instants: (e, start, end) => {
      const day = dayKey(e.start, zone);
      const from = zonedInstant(day, start, zone);
      let to = zonedInstant(day, end, zone);
      if (to <= from) to = zonedInstant(shiftDay(day, 1), end, zone);
      return { start: new Date(from).toISOString(), end: new Date(to).toISOString() };
    },
  };
}

/**
 * One entry of the Detailed report. For those who may edit it, each field edits in place through
 * the timesheet's write: description, project / task (the timesheet's picker, mounted only while
 * open), tags, billable, start and end, duration. Enter (or leaving the field) saves, Escape gives
 * up. Others' rows only show.
 */
export const DetailedRow = memo(function DetailedRow(props: {
  entry: DetailedEntryView;
  editable: boolean;
  picked: boolean;
  showUser: boolean;
  showAmounts: boolean;
  /** A cost column (a public link that includes costs). */
  showCosts?: boolean;
  pickers: Pickers | undefined;
  /** Tag names by id from the workspace's lists; without them, the entry's own (sorted) names show. */
  tagNames?: Map<string, string>;
  clock: EntryClock;
  format: ReturnType<typeof useReportFormat>;
  actions: DetailedRowActions;
}) {
  const { entry: e, editable, actions, clock, format } = props;
  const what = e.note || t.detailed.noDescription;
  const date = clock.date(e);
  const span = clock.span(e);
  const edit = (body: UpdateTimeEntryBody, names?: RowNames) => actions.onEdit(e, body, names);
  const tagLabels = props.tagNames
    ? e.tagIds.map((id) => [id, props.tagNames?.get(id) ?? 'tag'])
    : e.tagNames.map((name) => [name, name]);
  const tags =
    tagLabels.length > 0 ? (
      <Group gap={4} mt={2} aria-label={t.detailed.tagsCol}>
        {tagLabels.map(([key, label]) => (
          <Badge key={key} size="xs" variant="light" color="gray" tt="none" maw="100%">
            {label}
          </Badge>
        ))}
      </Group>
    ) : null;
  const project = e.projectName ? (
    <Text size="sm" lineClamp={2} ta="left">
      <Swatch color={e.projectColor ?? 'gray.5'} size={8} />
      {e.projectName}
      {e.taskName ? ` / ${e.taskName}` : ''}
      {e.clientName ? (
        <Text span size="xs" c="dimmed">
          {` · ${e.clientName}`}
        </Text>
      ) : null}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      {t.detailed.noProject}
    </Text>
  );

  return (
    <Table.Tr data-testid="detailed-row" data-editable={editable || undefined}>
      <Table.Td>
        {editable && (
          <Checkbox
            aria-label={t.detailed.select(`${what}, ${date}`)}
            checked={props.picked}
            onChange={() => actions.onToggle(e.id)}
          />
        )}
      </Table.Td>
      <Table.Td style={nowrap}>
        <Text size="sm">{date}</Text>
        {editable && e.end !== null ? (
          <TimesField entry={e} span={span} clock={clock} onSave={edit} />
        ) : (
          <Text size="xs" c="dimmed">
            {span}
          </Text>
        )}
      </Table.Td>
      <Table.Td maw={280}>
        {editable ? (
          <TextField
            label={t.detailed.descriptionCol}
            value={e.note}
            shown={
              <Text size="sm" lineClamp={2} c={e.note ? undefined : 'dimmed'}>
                {what}
              </Text>
            }
            onSave={(note) => edit({ note })}
          />
        ) : (
          <Text size="sm" lineClamp={2} c={e.note ? undefined : 'dimmed'}>
            {what}
          </Text>
        )}
        {editable ? <TagsField entry={e} pickers={props.pickers} shown={tags} onSave={edit} /> : tags}
      </Table.Td>
      <Table.Td maw={220}>
        {editable ? <ProjectField entry={e} pickers={props.pickers} shown={project} onSave={edit} /> : project}
      </Table.Td>
      {props.showUser && (
        <Table.Td>
          <Text size="sm">{e.userName}</Text>
        </Table.Td>
      )}
      <Table.Td>
        {editable ? (
          <Checkbox
            size="xs"
            aria-label={t.detailed.billableOf(what)}
            checked={e.billable}
            onChange={(event) => edit({ billable: event.currentTarget.checked })}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {e.billable ? t.detailed.yes : t.detailed.no}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right" style={nowrap}>
        {editable && e.end !== null ? (
          <TextField
            label={t.detailed.duration}
            value={format.duration(e.seconds)}
            shown={
              <Text size="sm" fw={500}>
                {format.duration(e.seconds)}
              </Text>
            }
            align="right"
            width={96}
            parse={(text) => parseDuration(text) ?? t.detailed.badDuration}
            onSave={(seconds) => edit({ duration: seconds })}
          />
        ) : (
          <Text size="sm" fw={500}>
            {format.duration(e.seconds)}
          </Text>
        )}
      </Table.Td>
      {props.showAmounts && (
        <Table.Td ta="right" style={nowrap}>
          {e.billable ? format.measure('billableAmount', e.billableAmount) : '—'}
        </Table.Td>
      )}
      {props.showCosts && (
        <Table.Td ta="right" style={nowrap}>
          {format.measure('costAmount', e.costAmount)}
        </Table.Td>
      )}
      <Table.Td>
        <Text size="sm" c={e.invoiced ? 'teal.9' : 'dimmed'} fw={e.invoiced ? 600 : 400}>
          {e.invoiced ? t.detailed.invoiced : t.detailed.notInvoiced}
        </Text>
        {e.invoice && (
          <Anchor component={Link} to={`/homepage/invoices?invoice=${e.invoice.id}`} size="xs">
            {t.detailed.onInvoice(e.invoice.number)}
          </Anchor>
        )}
      </Table.Td>
    </Table.Tr>
  );
});

function ShownButton(props: {
  label: string;
  onOpen: () => void;
  children: ReactNode;
  align?: 'right';
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <UnstyledButton
      ref={props.buttonRef}
      aria-label={props.label}
      onClick={props.onOpen}
      title={t.detailed.editHint}
      style={{ display: 'block', width: '100%', textAlign: props.align ?? 'left' }}
      className={classes.inline}
    >
      {props.children}
    </UnstyledButton>
  );
}

/** A text (or a value parsed from text) edited in place; `parse` returns the value or the message saying what is wrong. */
function TextField<V = string>(props: {
  label: string;
  value: string;
  shown: ReactNode;
  onSave: (value: V) => void;
  parse?: (text: string) => V | string;
  align?: 'right';
  width?: number;
}) {
  const place = useInPlace();
  const [text, setText] = useState(props.value);
  const [error, setError] = useState<string>();
  const open = () => {
    setText(props.value);
    setError(undefined);
    place.setOpen(true);
  };
  const save = (keepFocus: boolean) => {
    if (text.trim() === props.value.trim()) return place.close(keepFocus);
    const parsed = props.parse ? props.parse(text) : (text as V);
    if (props.parse && typeof parsed === 'string') return setError(parsed);
    place.close(keepFocus);
    props.onSave(parsed as V);
  };
  if (!place.open)
    return (
      <ShownButton
        label={`${props.label}: ${props.value || t.detailed.noDescription}`}
        onOpen={open}
        align={props.align}
        buttonRef={place.button}
      >
        {props.shown}
      </ShownButton>
    );
  return (
    <TextInput
      aria-label={props.label}
      size="xs"
      w={props.width}
      autoFocus
      value={text}
      error={error}
      styles={props.align ? { input: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' } } : undefined}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={() => place.open && save(false)}
      onKeyDown={place.keys(save)}
    />
  );
}

/** Start and end, typed as times of the entry's day; Enter in either saves both, Escape gives up. */
function TimesField(props: {
  entry: DetailedEntryView;
  span: string;
  clock: EntryClock;
  onSave: (body: UpdateTimeEntryBody) => void;
}) {
  const { entry, clock } = props;
  const place = useInPlace();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const open = () => {
    setStart(clock.hhmm(entry.start));
    setEnd(entry.end ? clock.hhmm(entry.end) : '');
    place.setOpen(true);
  };
  const save = (keepFocus: boolean) => {
    place.close(keepFocus);
    if (!start || !end || (start === clock.hhmm(entry.start) && entry.end && end === clock.hhmm(entry.end))) return;
    props.onSave(clock.instants(entry, start, end));
  };
  if (!place.open)
    return (
      <ShownButton label={`${t.detailed.times}: ${props.span}`} onOpen={open} buttonRef={place.button}>
        <Text size="xs" c="dimmed">
          {props.span}
        </Text>
      </ShownButton>
    );
  return (
    <Group gap={4} wrap="nowrap" onBlur={(event) => place.leaving(event) && save(false)} onKeyDown={place.keys(save)}>
      <TextInput
        type="time"
        size="xs"
        aria-label={t.detailed.startTime}
        value={start}
        autoFocus
        onChange={(event) => setStart(event.currentTarget.value)}
      />
      <TextInput
        type="time"
        size="xs"
        aria-label={t.detailed.endTime}
        value={end}
        onChange={(event) => setEnd(event.currentTarget.value)}
      />
    </Group>
  );
}

/** The project / task: the timesheet's picker in place of the shown name while open. */
function ProjectField(props: {
  entry: DetailedEntryView;
  pickers: Pickers | undefined;
  shown: ReactNode;
  onSave: (body: UpdateTimeEntryBody, names: RowNames) => void;
}) {
  const { entry, pickers } = props;
  const place = useInPlace();
  if (!place.open)
    return (
      <ShownButton
        label={`${t.detailed.projectTask}: ${entry.projectName ?? t.detailed.noProject}${entry.taskName ? ` / ${entry.taskName}` : ''}`}
        onOpen={() => place.setOpen(true)}
        buttonRef={place.button}
      >
        {props.shown}
      </ShownButton>
    );
  return (
    <Box w={200} onBlur={(event) => place.leaving(event) && place.close(false)}>
      <ProjectTaskSelect
        pickers={pickers}
        projectId={entry.projectId}
        taskId={entry.taskId}
        label={t.detailed.projectTask}
        size="xs"
        w={200}
        autoFocus
        onCancel={() => place.close(true)}
        onChange={(next) => {
          place.close(true);
          if (next.projectId === entry.projectId && next.taskId === entry.taskId) return;
          const project = pickers?.projects.find((p) => p.id === next.projectId);
          const task = pickers?.tasks.find((x) => x.id === next.taskId);
          props.onSave(next, {
            projectName: project?.name ?? null,
            projectColor: project?.color ?? null,
            clientName: project?.clientName ?? null,
            taskName: task?.name ?? null,
          });
        }}
      />
    </Box>
  );
}

/** The tags: the timesheet's tag picker while open; leaving it saves, Escape gives up. */
function TagsField(props: {
  entry: DetailedEntryView;
  pickers: Pickers | undefined;
  shown: ReactNode;
  onSave: (body: UpdateTimeEntryBody) => void;
}) {
  const { entry, pickers } = props;
  const place = useInPlace();
  const [ids, setIds] = useState(entry.tagIds);
  const name = entry.note || t.detailed.noDescription;
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((id) => b.includes(id));
  const save = (keepFocus: boolean) => {
    place.close(keepFocus);
    if (!same(ids, entry.tagIds)) props.onSave({ tagIds: ids });
  };
  // Nothing to choose from (no tags in the workspace, or not loaded yet): the tags only show.
  if (!pickers || pickers.tags.length === 0) return props.shown;
  if (!place.open)
    return (
      <Group gap={4} wrap="nowrap" align="center">
        {props.shown}
        <Tooltip label={t.detailed.editTags(name)}>
          <ActionIcon
            ref={place.button}
            variant="subtle"
            color="gray"
            size={24}
            mt={props.shown ? 2 : 0}
            aria-label={t.detailed.editTags(name)}
            onClick={() => {
              setIds(entry.tagIds);
              place.setOpen(true);
            }}
          >
            <IconTag size={14} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
    );
  return (
    <Box
      mt={4}
      onBlur={(event) => place.leaving(event) && save(false)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          place.close(true);
        }
      }}
    >
      <TagSelect pickers={pickers} value={ids} onChange={setIds} size="xs" w={240} autoFocus />
    </Box>
  );
}
