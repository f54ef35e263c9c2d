import { ActionIcon, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { ACTIVITY_KEEP, type ComputerTimeGroupSettingsBody, type ComputerTimeGroupSettingsView } from '@sundial/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useGroups } from '../../../api/team';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { failed } from '../../../components/notify';
import { ct } from '../categories-texts';
import { useGroupSettings, useSaveGroupSettings } from '../group-settings-api';

const g = ct.groups;
const AS_WORKSPACE = 'workspace';
const keepChoices = [
  { value: AS_WORKSPACE, label: g.asWorkspace },
  ...ACTIVITY_KEEP.map((value) => ({ value, label: ct.settings.keeps[value] })),
];
const seeChoices = [
  { value: AS_WORKSPACE, label: g.asWorkspace },
  { value: 'yes', label: g.yes },
  { value: 'no', label: g.no },
];

/**
 * Groups whose people's activity is kept otherwise, or shown to their managers otherwise, than the
 * workspace's settings say (issue 35). A choice saves at once; "as the workspace" for both removes
 * the group from the list. Owners and admins.
 */
export function GroupSettingsCard({ workspaceId }: { workspaceId: string }) {
  const choices = useGroupSettings(workspaceId);
  const groups = useGroups(workspaceId);
  const save = useSaveGroupSettings(workspaceId);
  // A group added here but with nothing chosen yet (nothing to store until a choice is made).
  const [pending, setPending] = useState<string | null>(null);
  // The row saved last says so in place (a notification would sit over the rows).
  const [saved, setSaved] = useState<string | null>(null);

  if (choices.error)
    return <ErrorPanel message={parseApiError(choices.error).message} onRetry={() => choices.refetch()} />;
  if (!choices.data || !groups.data) return null;
  const listed = choices.data.items;
  const pendingGroup = groups.data.find((group) => group.id === pending && !listed.some((c) => c.groupId === pending));
  const rows: ComputerTimeGroupSettingsView[] = [
    ...listed,
    ...(pendingGroup
      ? [{ groupId: pendingGroup.id, groupName: pendingGroup.name, keep: null, managersSeeActivity: null }]
      : []),
  ];
  const addable = groups.data.filter((group) => !rows.some((row) => row.groupId === group.id));

  const change = async (row: ComputerTimeGroupSettingsView, body: ComputerTimeGroupSettingsBody) => {
    try {
      await save.mutateAsync({ groupId: row.groupId, body });
      if (row.groupId === pending) setPending(null);
      setSaved(row.groupId);
    } catch (error) {
      failed(error);
    }
  };

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="ct-group-settings-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="ct-group-settings-title">
          {g.title}
        </Title>
        <Text size="sm" c="dimmed">
          {g.hint}
        </Text>
        {rows.length === 0 ? (
          <Text size="sm">{groups.data.length === 0 ? g.noGroups : g.none}</Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{g.group}</Table.Th>
                  <Table.Th w={230}>{g.keep}</Table.Th>
                  <Table.Th w={170}>{g.managers}</Table.Th>
                  <Table.Th w={48} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.groupId}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {row.groupName}
                      </Text>
                      {row.groupId === pendingGroup?.id ? (
                        <Text size="xs" c="dimmed">
                          {g.pending}
                        </Text>
                      ) : (
                        row.groupId === saved && (
                          <Text size="xs" c="teal.8" role="status">
                            {g.saved}
                          </Text>
                        )
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`${g.keep}: ${row.groupName}`}
                        data={keepChoices}
                        value={row.keep ?? AS_WORKSPACE}
                        allowDeselect={false}
                        onChange={(value) =>
                          void change(row, {
                            keep:
                              value === AS_WORKSPACE || value === null
                                ? null
                                : (value as (typeof ACTIVITY_KEEP)[number]),
                            managersSeeActivity: row.managersSeeActivity,
                          })
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`${g.managers}: ${row.groupName}`}
                        data={seeChoices}
                        value={row.managersSeeActivity === null ? AS_WORKSPACE : row.managersSeeActivity ? 'yes' : 'no'}
                        allowDeselect={false}
                        onChange={(value) =>
                          void change(row, {
                            keep: row.keep,
                            managersSeeActivity: value === 'yes' ? true : value === 'no' ? false : null,
                          })
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="lg"
                        aria-label={g.remove(row.groupName)}
                        onClick={() =>
                          row.groupId === pendingGroup?.id
                            ? setPending(null)
                            : void change(row, { keep: null, managersSeeActivity: null })
                        }
                      >
                        <IconTrash size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {addable.length > 0 && (
          <Group>
            <Select
              aria-label={g.addLabel}
              placeholder={g.add}
              data={addable.map((group) => ({ value: group.id, label: group.name }))}
              value={null}
              onChange={(value) => setPending(value)}
              searchable
              w={260}
            />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
