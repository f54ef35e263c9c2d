import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { dayKey, parseDuration, shiftDay, zonedInstant } from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useCreateEntry } from '../api';
import { t } from '../texts';
import { type Pickers, ProjectTaskSelect, TagSelect } from './EntryFields';
import { SuggestionHint } from './SuggestionHint';

/** A manual entry: date, start and end (an end before the start means the next day) or a duration. */
export function ManualEntryModal(props: {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  userId: string;
  timeZone: string;
  pickers: Pickers | undefined;
}) {
  const { timeZone } = props;
  const create = useCreateEntry(props.workspaceId);
  const [date, setDate] = useState(() => dayKey(Date.now(), timeZone));
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('');
  const [duration, setDuration] = useState('');
  const [note, setNote] = useState('');
  const [ref, setRef] = useState<{ projectId: string | null; taskId: string | null }>({
    projectId: null,
    taskId: null,
  });
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [billable, setBillable] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

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
    create.mutate(
      {
        start: new Date(start).toISOString(),
        ...(end !== undefined ? { end: new Date(end).toISOString() } : { duration: seconds ?? 0 }),
        note,
        projectId: ref.projectId,
        taskId: ref.taskId,
        tagIds,
        billable,
        userId: props.userId,
      },
      {
        onSuccess: () => {
          setNote('');
          setTo('');
          setDuration('');
          props.onClose();
        },
        onError: (error) => {
          const parsed = parseApiError(error);
          setErrors({ ...parsed.fields, form: parsed.message });
        },
      },
    );
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t.manual.title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          handleSubmit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t.manual.date}
            type="date"
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            required
          />
          <Group grow>
            <TextInput
              label={t.manual.from}
              type="time"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              error={errors.start}
              required
            />
            <TextInput
              label={t.manual.to}
              type="time"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              error={errors.end}
            />
          </Group>
          <TextInput
            label={t.manual.duration}
            description={t.manual.durationHint}
            value={duration}
            onChange={(e) => setDuration(e.currentTarget.value)}
            error={errors.duration}
            disabled={to !== ''}
          />
          <TextInput
            label={t.manual.note}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            error={errors.note}
          />
          <ProjectTaskSelect
            pickers={props.pickers}
            label="Project"
            projectId={ref.projectId}
            taskId={ref.taskId}
            onChange={chooseRef}
          />
          <SuggestionHint
            workspaceId={props.workspaceId}
            note={note}
            active={props.opened && !ref.projectId}
            onApply={chooseRef}
          />
          <TagSelect pickers={props.pickers} value={tagIds} onChange={setTagIds} />
          <Switch label={t.billable} checked={billable} onChange={(e) => setBillable(e.currentTarget.checked)} />
          {errors.form && !errors.end && !errors.start && !errors.duration && !errors.note && (
            <div role="alert" style={{ color: 'var(--mantine-color-red-7)', fontSize: 14 }}>
              {errors.form}
            </div>
          )}
          {(errors.projectId || errors.taskId || errors.tagIds) && (
            <div role="alert" style={{ color: 'var(--mantine-color-red-7)', fontSize: 14 }}>
              {errors.projectId ?? errors.taskId ?? errors.tagIds}
            </div>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              {t.manual.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
