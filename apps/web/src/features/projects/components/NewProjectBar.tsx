import { Button, Group, TextInput } from '@mantine/core';
import { type KeyboardEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { done } from '../../../components/notify';
import { type ProjectDetail, useCreateProject } from '../api';

/** The inline name bar of Add Project: Enter (or Create new project) creates, Esc (or Cancel) closes. */
export function NewProjectBar({
  workspaceId,
  onCreated,
  onClose,
}: {
  workspaceId: string;
  onCreated: (project: ProjectDetail) => void;
  onClose: () => void;
}) {
  const create = useCreateProject(workspaceId);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = () => {
    setError(undefined);
    create.mutate(
      { name },
      {
        onSuccess: (project) => {
          done('Project created.');
          onCreated(project);
        },
        onError: (e) => setError(parseApiError(e).fields.name ?? parseApiError(e).message),
      },
    );
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      onClose();
    }
  };

  return (
    <Group px="sm" pb="sm" gap="xs" align="flex-start">
      <TextInput
        aria-label="New project name"
        placeholder="Enter the name for new project or task..."
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        onKeyDown={onKey}
        error={error}
        maxLength={255}
        style={{ flex: 1 }}
        autoFocus
      />
      <Button onClick={submit} loading={create.isPending}>
        Create new project
      </Button>
      <Button variant="default" onClick={onClose}>
        Cancel
      </Button>
    </Group>
  );
}
