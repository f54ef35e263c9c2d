import { Alert, Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { dayKey, formatClockTime, parseDuration, shiftDay, type TimeEntryView, zonedInstant } from '@sundial/core';
import { IconLock, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { type Pickers, ProjectTaskSelect, TagSelect } from '../../../components/EntryFields';
import { useCreateEntry, useDeleteEntries, useRestoreEntries, useUpdateEntry } from '../api';
import { t } from '../texts';
import { notifyDeleted } from './DayList';
import { closesAll } from './LockMark';
import { SuggestionHint } from './SuggestionHint';

/** What a quick entry (a grid cell, a calendar drag) had when a workspace rule refused it. */
export interface EntryDraft {
  date: string;
  from: string;
  to?: string;
  duration?: string;
  projectId?: string | null;
  taskId?: string | null;
  tagIds?: string[];
  billable?: boolean;
  /** The refusal, field by field, shown until the person completes the entry. */
  errors?: Record<string, string>;
}

/**
 * A manual entry: date, start and end (an end before the start means the next day) or a duration.
 * It opens empty (today, 09:00), or with a `draft` of a refused quick entry to complete.
 * With `entry` (a stopped one) the same form edits it, and offers Delete with Undo.
 */
export function ManualEntryModal(props: {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  userId: string;
  timeZone: string;
  pickers: Pickers | undefined;
  entry?: TimeEntryView;
  draft?: EntryDraft;
}) {
  const { timeZone, entry, draft } = props;
  // Locked time opens read-only with its reason; an invoiced entry keeps its note and tags editable.
  const lock = entry?.lock ?? null;
  const allFixed = closesAll(lock);
  const timeFixed = lock !== null;
  const create = useCreateEntry(props.workspaceId);
  const update = useUpdateEntry(props.workspaceId);
  const remove = useDeleteEntries(props.workspaceId);
  const restore = useRestoreEntries(props.workspaceId);
  const save = entry ? update : create;
  // Its openers mount it per opening and unmount it on close, so Mantine's returnFocus never runs:
  // the control that opened it (read on the first render, before the dialog takes focus) gets
  // focus back here, as a keyboard user expects after Escape or Save.
  const [opener] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    },
    [opener],
  );
  const [initial] = useState(() => ({
    date: draft?.date ?? dayKey(entry?.start ?? Date.now(), timeZone),
    from: draft?.from ?? (entry ? formatClockTime(entry.start, { timeZone, timeFormat: '24h' }) : '09:00'),
    to: draft?.to ?? (entry?.end ? formatClockTime(entry.end, { timeZone, timeFormat: '24h' }) : ''),
  }));
  const [date, setDate] = useState(initial.date);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [duration, setDuration] = useState(draft?.duration ?? '');
  const [note, setNote] = useState(entry?.note ?? '');
  const [ref, setRef] = useState<{ projectId: string | null; taskId: string | null }>({
    projectId: entry?.projectId ?? draft?.projectId ?? null,
    taskId: entry?.taskId ?? draft?.taskId ?? null,
  });
  const [tagIds, setTagIds] = useState<string[]>(entry?.tagIds ?? draft?.tagIds ?? []);
  const [billable, setBillable] = useState(entry?.billable ?? draft?.billable ?? false);
  const [errors, setErrors] = useState<Record<string, string>>(draft?.errors ?? {});

  const chooseRef = (next: { projectId: string | null; taskId: string | null }) => {
    setRef(next);
    const project = props.pickers?.projects.find((p) => p.id === next.projectId);
    if (project) setBillable(project.billableDefault);
  };

  const handleSubmit = () => {
    const start = zonedInstant(date, from, timeZone);
    let end: number | undefined;
    if (to) {
      end = zonedInstant(date, to, timeZone);
      if (end <= start) end = zonedInstant(shiftDay(date, 1), to, timeZone);
    }
    const seconds = duration ? parseDuration(duration) : null;
    if (duration && seconds === null) return setErrors({ duration: t.badDuration });
    if (end === undefined && seconds === null) return setErrors({ end: t.manual.needEnd });
    setErrors({});
    const details = { note, projectId: ref.projectId, taskId: ref.taskId, tagIds, billable };
    const times = {
      start: new Date(start).toISOString(),
      ...(end !== undefined ? { end: new Date(end).toISOString() } : { duration: seconds ?? 0 }),
    };
    const handlers = {
      onSuccess: () => {
        setNote('');
        setTo('');
        setDuration('');
        props.onClose();
      },
      onError: (error: unknown) => {
        const parsed = parseApiError(error);
        setErrors({ ...parsed.fields, form: parsed.message });
      },
    };
    // Times left as they were keep their seconds: the form shows minutes only.
    const sameTimes = date === initial.date && from === initial.from && to === initial.to && !duration;
    if (entry) update.mutate({ id: entry.id, body: sameTimes ? details : { ...details, ...times } }, handlers);
    else create.mutate({ ...details, ...times, userId: props.userId }, handlers);
  };

  const handleDelete = (target: TimeEntryView) =>
    remove.mutate([target.id], {
      onError: (error) => setErrors({ form: parseApiError(error).message }),
      onSuccess: () => {
        props.onClose();
        notifyDeleted([target.id], t.deleted, () => restore.mutate([target.id]));
      },
    });

  // Said once: the form's message repeats the field's.
  const pickerError = errors.projectId ?? errors.taskId ?? errors.tagIds;

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={entry ? t.manual.editTitle : t.manual.title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          handleSubmit();
        }}
      >
        <Stack gap="sm">
          {lock && (
            <Alert
              color="gray"
              variant="light"
              icon={<IconLock size={16} />}
              title={lock.label}
              data-testid="entry-lock"
            >
              {lock.reason}
            </Alert>
          )}
          {draft && (
            <Text size="sm" c="dimmed">
              {t.manual.complete}
            </Text>
          )}
          <TextInput
            label={t.manual.date}
            type="date"
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            disabled={timeFixed}
            required
          />
          <Group grow>
            <TextInput
              label={t.manual.from}
              type="time"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              error={errors.start}
              disabled={timeFixed}
              required
            />
            <TextInput
              label={t.manual.to}
              type="time"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              description={to && from && to <= from ? t.manual.nextDay : undefined}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              error={errors.end}
              disabled={timeFixed}
            />
          </Group>
          <TextInput
            label={t.manual.duration}
            description={t.manual.durationHint}
            value={duration}
            onChange={(e) => setDuration(e.currentTarget.value)}
            error={errors.duration}
            disabled={to !== '' || timeFixed}
          />
          <TextInput
            label={t.manual.note}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            error={errors.note}
            disabled={allFixed}
          />
          <ProjectTaskSelect
            pickers={props.pickers}
            label="Project"
            projectId={ref.projectId}
            taskId={ref.taskId}
            onChange={chooseRef}
            disabled={timeFixed}
          />
          <SuggestionHint
            workspaceId={props.workspaceId}
            note={note}
            active={props.opened && !ref.projectId && !timeFixed}
            onApply={chooseRef}
          />
          <TagSelect pickers={props.pickers} label={t.tags} value={tagIds} onChange={setTagIds} disabled={allFixed} />
          <Switch
            label={t.billable}
            checked={billable}
            onChange={(e) => setBillable(e.currentTarget.checked)}
            disabled={timeFixed}
          />
          {errors.form && !errors.end && !errors.start && !errors.duration && !errors.note && !pickerError && (
            <div role="alert" style={{ color: 'var(--mantine-color-red-text)', fontSize: 14 }}>
              {errors.form}
            </div>
          )}
          {pickerError && (
            <div role="alert" style={{ color: 'var(--mantine-color-red-text)', fontSize: 14 }}>
              {pickerError}
            </div>
          )}
          <Group justify={entry ? 'space-between' : 'flex-end'}>
            {entry && !timeFixed && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                loading={remove.isPending}
                onClick={() => handleDelete(entry)}
              >
                {t.delete}
              </Button>
            )}
            {allFixed ? (
              <Button variant="default" onClick={props.onClose}>
                {t.manual.close}
              </Button>
            ) : (
              <Button type="submit" loading={save.isPending}>
                {t.manual.save}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
