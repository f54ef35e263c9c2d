import { Button, Group, Modal, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { ROUNDING_MINUTES, type TimeSettings } from '@sundial/core';
import { useEffect, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { TimeZoneSelect } from '../../../components/TimeZoneSelect';
import { useSaveTimeSettings } from '../api';
import { t } from '../texts';

/** Workspace rules for time entries: required fields, rounding, longest entry, how far ahead. */
export function TimeSettingsModal(props: {
  opened: boolean;
  onClose: () => void;
  workspaceId: string;
  settings: TimeSettings | undefined;
}) {
  const save = useSaveTimeSettings(props.workspaceId);
  const [draft, setDraft] = useState<TimeSettings | undefined>(props.settings);
  const [maxHours, setMaxHours] = useState('');
  const [futureHours, setFutureHours] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (!props.opened || !props.settings) return;
    setDraft(props.settings);
    setMaxHours(String(props.settings.maxEntryMinutes / 60));
    setFutureHours(String(props.settings.futureLimitMinutes / 60));
    setError(undefined);
  }, [props.opened, props.settings]);
  if (!draft) return null;
  const set = (patch: Partial<TimeSettings>) => setDraft({ ...draft, ...patch });

  const handleSave = () => {
    const maxEntryMinutes = Math.round(Number(maxHours) * 60);
    const futureLimitMinutes = Math.round(Number(futureHours) * 60);
    if (!Number.isFinite(maxEntryMinutes) || maxEntryMinutes < 1) return setError(t.settings.badMax);
    if (!Number.isFinite(futureLimitMinutes) || futureLimitMinutes < 0) return setError(t.settings.badFuture);
    save.mutate(
      { ...draft, maxEntryMinutes, futureLimitMinutes },
      { onSuccess: props.onClose, onError: (e) => setError(parseApiError(e).message) },
    );
  };

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t.settings.title}>
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          {t.settings.required}
        </Text>
        <Group>
          <Switch
            label="Project"
            checked={draft.requireProject}
            onChange={(e) => set({ requireProject: e.currentTarget.checked })}
          />
          <Switch
            label="Task"
            checked={draft.requireTask}
            onChange={(e) => set({ requireTask: e.currentTarget.checked })}
          />
          <Switch
            label="Tag"
            checked={draft.requireTag}
            onChange={(e) => set({ requireTag: e.currentTarget.checked })}
          />
          <Switch
            label="Note"
            checked={draft.requireNote}
            onChange={(e) => set({ requireNote: e.currentTarget.checked })}
          />
        </Group>
        <Group grow>
          <Select
            label={t.settings.rounding}
            value={draft.roundingMode}
            allowDeselect={false}
            data={[
              { value: 'none', label: 'No rounding' },
              { value: 'up', label: 'Round up' },
              { value: 'down', label: 'Round down' },
              { value: 'nearest', label: 'Round to nearest' },
            ]}
            onChange={(v) => v && set({ roundingMode: v as TimeSettings['roundingMode'] })}
          />
          <Select
            label={t.settings.roundingTo}
            value={String(draft.roundingMinutes)}
            allowDeselect={false}
            disabled={draft.roundingMode === 'none'}
            data={ROUNDING_MINUTES.map((m) => ({ value: String(m), label: `${m} min` }))}
            onChange={(v) => v && set({ roundingMinutes: Number(v) as TimeSettings['roundingMinutes'] })}
          />
        </Group>
        <Group grow>
          <TextInput
            label={t.settings.maxHours}
            type="number"
            min={1}
            value={maxHours}
            onChange={(e) => setMaxHours(e.currentTarget.value)}
          />
          <TextInput
            label={t.settings.futureHours}
            type="number"
            min={0}
            value={futureHours}
            onChange={(e) => setFutureHours(e.currentTarget.value)}
          />
        </Group>
        <TimeZoneSelect
          label={t.settings.reportZone}
          description={t.settings.reportZoneHint}
          value={draft.reportTimeZone}
          onChange={(reportTimeZone) => set({ reportTimeZone })}
        />
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button onClick={handleSave} loading={save.isPending}>
            {t.settings.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
