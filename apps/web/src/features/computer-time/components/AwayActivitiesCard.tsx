import { ActionIcon, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { AwayActivity } from '@sundial/core';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { type Pickers, ProjectTaskSelect } from '../../../components/EntryFields';
import { activityIdOf } from '../away';
import { useSaveAwayActivities } from '../away-api';
import { t } from '../texts';
import { FormCard, useFormSave } from './FormCard';

const s = t.away.activities;
const MAX = 30;

/**
 * The workspace's away activities (owners and admins): each a name, whether it makes a time entry
 * or a break, and for an entry a default project and task.
 */
export function AwayActivitiesCard(props: {
  workspaceId: string;
  activities: readonly AwayActivity[];
  pickers: Pickers | undefined;
}) {
  const save = useSaveAwayActivities(props.workspaceId);
  const [rows, setRows] = useState<AwayActivity[]>([...props.activities]);
  const { errors, save: saving } = useFormSave(s.saved);
  useEffect(() => setRows([...props.activities]), [props.activities]);

  const change = (i: number, patch: Partial<AwayActivity>) =>
    setRows(rows.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  const handleAdd = () =>
    setRows([
      ...rows,
      {
        id: activityIdOf(`new-${rows.length + 1}`, new Set(rows.map((r) => r.id))),
        name: '',
        makes: 'entry',
        projectId: null,
        taskId: null,
      },
    ]);
  // A new activity's id comes from its name once (ids stay as they are after).
  const submit = () => {
    const known = new Set(props.activities.map((a) => a.id));
    const taken = new Set(rows.filter((r) => known.has(r.id)).map((r) => r.id));
    const items = rows.map((row) => {
      if (known.has(row.id)) return row;
      const id = activityIdOf(row.name, taken);
      taken.add(id);
      return { ...row, id };
    });
    return saving(() => save.mutateAsync({ items }));
  };

  return (
    <FormCard
      id="away-activities-title"
      title={s.title}
      onSubmit={() => void submit()}
      add={{
        label: s.add,
        onClick: handleAdd,
        disabled: rows.length >= MAX,
        title: rows.length >= MAX ? s.max : undefined,
      }}
      saveLabel={s.save}
      saving={save.isPending}
    >
      <Text size="xs" c="dimmed">
        {s.hint}
      </Text>
      {rows.map((row, i) => (
        <Group key={row.id} align="flex-start" gap="xs" wrap="wrap" data-testid="away-activity-row">
          <TextInput
            label={s.name}
            value={row.name}
            onChange={(e) => change(i, { name: e.currentTarget.value })}
            maxLength={60}
            error={errors[`items.${i}.name`]}
            style={{ flex: '1 1 160px', maxWidth: 280 }}
          />
          <Select
            label={s.makes}
            data={[
              { value: 'entry', label: s.entry },
              { value: 'break', label: s.break },
            ]}
            value={row.makes}
            onChange={(value) =>
              change(i, value === 'break' ? { makes: 'break', projectId: null, taskId: null } : { makes: 'entry' })
            }
            allowDeselect={false}
            w={130}
          />
          {row.makes === 'break' && (
            <Text size="xs" c="dimmed" mt={30} visibleFrom="sm" style={{ flex: '2 1 200px' }}>
              {s.breakHint}
            </Text>
          )}
          {row.makes === 'entry' && (
            <Stack gap={2} style={{ flex: '2 1 200px' }}>
              <ProjectTaskSelect
                pickers={props.pickers}
                label={s.project}
                projectId={row.projectId}
                taskId={row.taskId}
                onChange={(ref) => change(i, ref)}
              />
              {(errors[`items.${i}.projectId`] || errors[`items.${i}.taskId`]) && (
                <Text size="xs" c="red">
                  {errors[`items.${i}.projectId`] ?? errors[`items.${i}.taskId`]}
                </Text>
              )}
            </Stack>
          )}
          <ActionIcon
            variant="subtle"
            color="red"
            mt={26}
            aria-label={s.remove(row.name)}
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {errors.items && (
        <Text size="sm" c="red">
          {errors.items}
        </Text>
      )}
    </FormCard>
  );
}
