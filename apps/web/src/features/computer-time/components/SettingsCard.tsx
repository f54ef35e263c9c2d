import {
  Button,
  Group,
  NumberInput,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import type { ActivityKeep, ComputerTimeSettingsBody } from '@sundial/core';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import { useComputerTimeSettings, useSaveComputerTimeSettings } from '../api';
import { ct } from '../categories-texts';
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
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (settings.data) setForm(settings.data);
  }, [settings.data]);

  if (settings.error)
    return <ErrorPanel message={parseApiError(settings.error).message} onRetry={() => settings.refetch()} />;
  if (!form) return null;
  const submit = async () => {
    setErrors({});
    try {
      await save.mutateAsync(form);
      done(s.saved);
    } catch (error) {
      const parsed = parseApiError(error);
      if (parsed.fields) setErrors(parsed.fields);
      else failed(error);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="ct-settings-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h5" id="ct-settings-title">
            {s.title}
          </Title>
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
          <Group justify="space-between">
            <Button
              variant="subtle"
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onClick={() => setForm({ ...form, exclusions: [...form.exclusions, { field: 'app', pattern: '' }] })}
            >
              {s.addExclusion}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {s.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
