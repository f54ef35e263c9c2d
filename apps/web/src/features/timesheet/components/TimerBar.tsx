import { ActionIcon, Button, Group, Paper, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { type DurationFormat, formatDuration, type TimeEntryView, workSeconds } from '@sundial/core';
import { IconPlayerPause, IconPlayerPlay, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import { memo, useEffect, useRef, useState } from 'react';
import { useDurationFormat } from '../../../api/session';
import { type Pickers, ProjectTaskSelect, TagSelect } from '../../../components/EntryFields';
import { failed } from '../../../components/notify';
import { useTimerAction, useUpdateEntry } from '../api';
import { t } from '../texts';
import { SuggestionHint } from './SuggestionHint';

/** Seconds of work of the running entry, ticking every second. */
function useElapsed(entry: TimeEntryView | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!entry) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [entry]);
  return entry ? workSeconds(entry, Math.max(now, Date.now())) : 0;
}

/** The tab title shows the running timer, so it is visible from other tabs. */
function useTabTitle(entry: TimeEntryView | null, elapsed: number, format: DurationFormat) {
  useEffect(() => {
    if (!entry) return;
    const icon = entry.isPaused ? '⏸' : '▶';
    document.title = `${icon} ${formatDuration(elapsed, format)} ${entry.note || 'TimeSheet'} · Sundial`;
  }, [entry, elapsed, format]);
  useEffect(() => {
    if (!entry) document.title = 'TimeSheet · Sundial';
    return () => {
      document.title = 'TimeSheet · Sundial';
    };
  }, [entry]);
}

// Memoised: its project picker holds every project and task, and need not follow the week's entries.
export const TimerBar = memo(function TimerBar(props: {
  workspaceId: string;
  userId: string;
  running: TimeEntryView | null;
  pickers: Pickers | undefined;
}) {
  const { workspaceId, userId, running, pickers } = props;
  const action = useTimerAction(workspaceId, userId);
  const update = useUpdateEntry(workspaceId);
  const [note, setNote] = useState('');
  const [ref, setRef] = useState<{ projectId: string | null; taskId: string | null }>({
    projectId: null,
    taskId: null,
  });
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [billable, setBillable] = useState(false);
  const elapsed = useElapsed(running);
  const format = useDurationFormat();
  useTabTitle(running, elapsed, format);

  // While a timer runs, the bar shows (and edits) the running entry; when it ends (here or in
  // another tab) the bar clears. Keyed on id and updatedAt, so a refetch does not undo typing.
  const runningKey = running ? `${running.id}@${running.updatedAt}` : null;
  const shownKey = useRef<string | null>(null);
  useEffect(() => {
    if (runningKey === shownKey.current) return;
    const wasRunning = shownKey.current !== null;
    shownKey.current = runningKey;
    if (running) {
      setNote(running.note);
      setRef({ projectId: running.projectId, taskId: running.taskId });
      setTagIds(running.tagIds);
      setBillable(running.billable);
    } else if (wasRunning) {
      setNote('');
      setRef({ projectId: null, taskId: null });
      setTagIds([]);
      setBillable(false);
    }
  }, [runningKey, running]);

  const patchRunning = (body: Parameters<typeof update.mutate>[0]['body']) => {
    if (running) update.mutate({ id: running.id, body }, { onError: failed });
  };

  const handleStart = () =>
    action.mutate(
      { action: 'start', body: { note, projectId: ref.projectId, taskId: ref.taskId, tagIds, billable } },
      { onError: failed },
    );
  const handleStop = () => action.mutate({ action: 'stop' }, { onError: failed });

  // Start pressed from the keyboard gives way to Stop, and Stop to Start: focus goes to the button that
  // took its place, not to the page (issue 30).
  const stopButton = useRef<HTMLButtonElement>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  // The button focus goes to once it is there: Stop after a keyboard Start, Start after a keyboard Stop.
  const focusSwap = useRef<'start' | 'stop' | null>(null);
  const isRunning = Boolean(running);
  const pending = action.isPending;
  useEffect(() => {
    const wanted = focusSwap.current;
    // The action may settle before the timer's state turns (the journey failed on that race in CI):
    // wait for the wanted button itself, and for it to be enabled (Start is disabled while it loads).
    if (!wanted || (wanted === 'stop') !== isRunning) return;
    const target = (wanted === 'stop' ? stopButton : startButton).current;
    if (!target || target.disabled || pending) return;
    focusSwap.current = null;
    target.focus();
  }, [isRunning, pending]);
  const swapsFocus = (e: { currentTarget: Element }) => {
    focusSwap.current = document.activeElement === e.currentTarget ? (isRunning ? 'start' : 'stop') : null;
  };

  return (
    <Paper withBorder p="sm" radius="md" aria-label="Timer">
      <Group gap="sm" wrap="wrap">
        <TextInput
          aria-label="Note"
          placeholder={t.notePlaceholder}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          onBlur={() => running && note !== running.note && patchRunning({ note })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !running) handleStart();
          }}
          style={{ flex: 1, minWidth: 220 }}
        />
        <ProjectTaskSelect
          pickers={pickers}
          projectId={ref.projectId}
          taskId={ref.taskId}
          w={240}
          onChange={(next) => {
            setRef(next);
            const project = pickers?.projects.find((p) => p.id === next.projectId);
            if (project && !running) setBillable(project.billableDefault);
            patchRunning(next);
          }}
        />
        <TagSelect
          pickers={pickers}
          value={tagIds}
          w={180}
          onChange={(ids) => {
            setTagIds(ids);
            patchRunning({ tagIds: ids });
          }}
        />
        <Switch
          label={t.billable}
          checked={billable}
          onChange={(e) => {
            setBillable(e.currentTarget.checked);
            patchRunning({ billable: e.currentTarget.checked });
          }}
        />
        <Text
          ff="monospace"
          fz="xl"
          fw={600}
          w={110}
          ta="right"
          aria-label="Elapsed"
          c={running?.isPaused ? 'dimmed' : undefined}
        >
          {formatDuration(elapsed, format)}
        </Text>
        {running ? (
          <>
            {running.isPaused ? (
              <Button
                variant="light"
                leftSection={<IconPlayerPlay size={16} />}
                onClick={() => action.mutate({ action: 'resume' }, { onError: failed })}
              >
                {t.resume}
              </Button>
            ) : (
              <Button
                variant="light"
                leftSection={<IconPlayerPause size={16} />}
                onClick={() => action.mutate({ action: 'pause' }, { onError: failed })}
              >
                {t.pause}
              </Button>
            )}
            <Button
              ref={stopButton}
              color="red"
              leftSection={<IconPlayerStop size={16} />}
              onClick={(e) => {
                swapsFocus(e);
                handleStop();
              }}
            >
              {t.stop}
            </Button>
            <Tooltip label={t.discard}>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={t.discard}
                onClick={() => action.mutate({ action: 'discard' }, { onError: failed })}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </>
        ) : (
          <Button
            ref={startButton}
            leftSection={<IconPlayerPlay size={16} />}
            onClick={(e) => {
              swapsFocus(e);
              handleStart();
            }}
            loading={action.isPending}
          >
            {t.start}
          </Button>
        )}
      </Group>
      {running?.isPaused && (
        <Text size="sm" c="dimmed" mt={6}>
          {t.paused}
        </Text>
      )}
      <SuggestionHint
        workspaceId={workspaceId}
        note={note}
        active={!ref.projectId}
        onApply={(next) => {
          setRef(next);
          const project = pickers?.projects.find((p) => p.id === next.projectId);
          if (project && !running) setBillable(project.billableDefault);
          patchRunning(next);
        }}
      />
    </Paper>
  );
});
