import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { groupOptions } from '../../../api/team';
import { type GroupView, useCreateGroup, useUpdateGroup } from '../api';
import { withSubgroups } from './people';

interface Props {
  workspaceId: string;
  groups: GroupView[];
  /** The group to rename or move; none to create one. */
  group?: GroupView;
  /** Preselected parent when creating a subgroup. */
  parentId?: string | null;
  opened: boolean;
  onClose: () => void;
}

export function GroupModal(props: Props) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.group ? 'Edit group' : 'Create group'}>
      {props.opened && <GroupForm {...props} />}
    </Modal>
  );
}

function GroupForm({ workspaceId, groups, group, parentId, onClose }: Props) {
  const create = useCreateGroup(workspaceId);
  const update = useUpdateGroup(workspaceId);
  const [name, setName] = useState(group?.name ?? '');
  const [parent, setParent] = useState<string | null>(group ? group.parentId : (parentId ?? null));
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  // A group cannot move under itself or anything below it.
  const excluded = group ? withSubgroups(groups, [group.id]) : new Set<string>();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const done = {
      onSuccess: () => {
        notifications.show({ color: 'green', message: group ? 'Group saved.' : `Group ${name.trim()} created.` });
        onClose();
      },
      onError: (err: unknown) => setError(parseApiError(err)),
    };
    if (group) update.mutate({ id: group.id, name, parentId: parent }, done);
    else create.mutate({ name, parentId: parent }, done);
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        {error && !error.fields.name && (
          <Alert color="red" role="alert">
            {error.message}
          </Alert>
        )}
        <TextInput
          label="Group name"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error?.fields.name}
          maxLength={100}
          required
          data-autofocus
        />
        <Select
          label="Inside group"
          placeholder="Top level"
          data={groupOptions(groups, excluded)}
          value={parent}
          onChange={setParent}
          clearable
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {group ? 'Save' : 'Create group'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
