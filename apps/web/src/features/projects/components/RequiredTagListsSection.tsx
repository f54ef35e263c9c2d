import { Button, Group, MultiSelect, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTagLists } from '../../../api/catalog';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { done } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { useSaveRequiredTagLists } from '../api';

/**
 * On a project's panel: the tag lists its time entries must carry a tag of (advanced tags, Pro).
 * Saved on its own; without the feature the lists can only be taken off.
 */
export function RequiredTagListsSection({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const { hasFeature } = useWorkspace();
  const lists = useTagLists(workspaceId, false);
  const save = useSaveRequiredTagLists(workspaceId);
  const items = lists.data?.items ?? [];
  const stored = items.filter((l) => l.requiredProjectIds.includes(projectId)).map((l) => l.id);
  const [value, setValue] = useState<string[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const current = value ?? stored;
  const submit = async () => {
    setError(undefined);
    try {
      await save.mutateAsync({ projectId, tagListIds: current });
      setValue(undefined);
      done('Required tag lists saved.');
    } catch (e) {
      setError(parseApiError(e).message);
    }
  };
  return (
    <Stack gap="xs" component="section" aria-label="Required tag lists">
      <Title order={3} size="h6">
        Required tag lists
      </Title>
      {!hasFeature('advanced_tags') && <UpgradePrompt feature="advanced_tags" compact />}
      <MultiSelect
        aria-label="Required tag lists"
        description="Time entries of this project need a tag of each list."
        placeholder={items.length === 0 ? 'No tag lists yet' : 'Choose tag lists'}
        data={items.map((l) => ({ value: l.id, label: l.name }))}
        value={current}
        onChange={setValue}
        error={error}
        searchable
        clearable
      />
      {lists.isError && (
        <Text c="red" size="sm">
          {parseApiError(lists.error).message}
        </Text>
      )}
      <Group justify="flex-end">
        <Button size="compact-sm" loading={save.isPending} disabled={value === undefined} onClick={submit}>
          Save required lists
        </Button>
      </Group>
    </Stack>
  );
}
