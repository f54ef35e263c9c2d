import { NumberInput, Radio, Select, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import type { ActivityKeep, ComputerTimeSettingsBody } from '@sundial/core';
import { useEffect, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { useComputerTimeSettings, useSaveComputerTimeSettings } from '../api';
import { ct } from '../categories-texts';
import { FormCard, useFormSave } from './FormCard';
import { PatternRows } from './PatternRows';

const s = ct.settings;
const RETENTION = [null, 30, 90, 180, 365, 730, 1095] as const;

/**
 * What the desktop app keeps for the workspace (issue 35): applications, titles or sites; when
 * no input is away time; how long activity is kept; whether managers see their people's; and the
 * applications and titles that never leave the computer. Owners and admins.
 */
export function SettingsCard({ workspaceId }: { workspaceId: string }) {
  const settings = useComputerTimeSettings(workspaceId);
  const save = useSaveComputerTimeSettings(workspaceId);
  const [form, setForm] = useState<ComputerTimeSettingsBody | null>(null);
  const { errors, save: saving } = useFormSave(s.saved);
  useEffect(() => {
    if (settings.data) setForm(settings.data);
  }, [settings.data]);

  if (settings.error)
    return <ErrorPanel message={parseApiError(settings.error).message} onRetry={() => settings.refetch()} />;
  if (!form) return null;
  const submit = () => saving(() => save.mutateAsync(form));

  return (
    <FormCard
      id="ct-settings-title"
      title={s.title}
      onSubmit={() => void submit()}
      add={{
        label: s.addExclusion,
        onClick: () => setForm({ ...form, exclusions: [...form.exclusions, { field: 'app', pattern: '' }] }),
      }}
      saveLabel={s.save}
      saving={save.isPending}
    >
      <Radio.Group
        label={s.keep}
        description={s.keepHint}
        value={form.keep}
        onChange={(value) => setForm({ ...form, keep: value as ActivityKeep })}
      >
        <Stack gap={6} mt={6}>
          {(['apps', 'titles', 'sites'] as const).map((value) => (
            <Radio key={value} value={value} label={s.keeps[value]} />
          ))}
        </Stack>
      </Radio.Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label={s.idle}
          description={s.idleHint}
          min={1}
          max={60}
          value={Math.round(form.idleSeconds / 60)}
          onChange={(value) => setForm({ ...form, idleSeconds: Math.round(Number(value) || 0) * 60 })}
          error={errors.idleSeconds}
        />
        <Select
          label={s.retention}
          description={s.retentionHint}
          data={RETENTION.map((days) => ({ value: String(days), label: s.retentions(days) }))}
          value={String(form.retentionDays)}
          onChange={(value) =>
            setForm({ ...form, retentionDays: value === 'null' || value === null ? null : Number(value) })
          }
          allowDeselect={false}
          error={errors.retentionDays}
        />
      </SimpleGrid>
      <Switch
        label={s.managers}
        description={s.managersHint}
        checked={form.managersSeeActivity}
        onChange={(event) => setForm({ ...form, managersSeeActivity: event.currentTarget.checked })}
      />
      <Text size="sm" fw={600} mt="xs">
        {s.exclusions}
      </Text>
      <Text size="xs" c="dimmed">
        {s.exclusionsHint}
      </Text>
      <PatternRows
        rows={form.exclusions}
        fields={[
          { value: 'app' as const, label: ct.fields.app },
          { value: 'title' as const, label: ct.fields.title },
        ]}
        label={s.exclusion}
        removeLabel={s.removeExclusion}
        errorOf={(i) => errors[`exclusions.${i}.pattern`]}
        onChange={(exclusions) => setForm({ ...form, exclusions })}
      />
    </FormCard>
  );
}
