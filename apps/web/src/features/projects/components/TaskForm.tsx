import { Divider, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { done } from '../../../components/notify';
import { type TaskDetail, useCreateTask, useSetTaskPeople, useUpdateTask } from '../api';
import { FormFooter, NameInput, PaneHeader, saveDescription, useSubmit } from './FormParts';
import { Sections } from './sections/Sections';
import { changedPeople, initialSections, sectionsBody } from './sections/sections';

/** Add Task / Edit Task: the "project /" prefix, the title and the sections. */
export function TaskForm({
  workspaceId,
  projectName,
  projectId,
  task,
  parentTaskId,
  canManage,
  onClose,
  onCreated,
}: {
  workspaceId: string;
  projectName: string;
  projectId: string;
  task?: TaskDetail;
  parentTaskId?: string | null;
  canManage: boolean;
  onClose: () => void;
  onCreated: (task: TaskDetail) => void;
}) {
  const create = useCreateTask(workspaceId);
  const update = useUpdateTask(workspaceId);
  const setPeople = useSetTaskPeople(workspaceId);
  const [name, setName] = useState(task?.name ?? '');
  const [sections, setSections] = useState(() => initialSections(task));
  const { errors, onSubmit } = useSubmit(async () => {
    const body = { name, ...sectionsBody(sections) };
    const saved = task
      ? await update.mutateAsync({ id: task.id, ...body })
      : await create.mutateAsync({ projectId, parentTaskId: parentTaskId ?? null, ...body });
    const people = changedPeople(sections, saved.people);
    if (people) await setPeople.mutateAsync({ id: saved.id, ...people });
    done(task ? 'Task saved.' : 'Task created.');
    if (!task) onCreated(saved);
  });

  return (
    <Stack component="form" onSubmit={onSubmit} gap="md">
      <PaneHeader title={!canManage ? 'Task' : task ? 'Edit Task' : 'Add Task'} onClose={onClose} />
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <Text fw={600} pb={8} style={{ whiteSpace: 'nowrap' }} data-testid="task-prefix">
          {projectName} /
        </Text>
        <NameInput
          style={{ flex: 1 }}
          label="Task title"
          value={name}
          onValue={setName}
          error={errors.name}
          disabled={!canManage}
          data-autofocus
        />
      </Group>
      <Divider />
      <Sections
        workspaceId={workspaceId}
        value={sections}
        onChange={(patch) => setSections((s) => ({ ...s, ...patch }))}
        people={task?.people}
        readOnly={!canManage}
        onSaveDescription={async (description) => {
          if (task) await saveDescription(update.mutateAsync, task.id, description);
        }}
      />
      {canManage && (
        <FormFooter saving={create.isPending || update.isPending || setPeople.isPending} onCancel={onClose} />
      )}
    </Stack>
  );
}
