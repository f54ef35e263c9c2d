import { Divider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useWorkspace } from '../../../api/session';
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
  canEdit,
  canManage,
  onClose,
  onCreated,
}: {
  workspaceId: string;
  projectName: string;
  projectId: string;
  task?: TaskDetail;
  parentTaskId?: string | null;
  /** May change the task (projects:manage, or "Can manage" on its project). */
  canEdit: boolean;
  /** May change who is assigned (projects:manage). */
  canManage: boolean;
  onClose: () => void;
  onCreated: (task: TaskDetail) => void;
}) {
  const budgets = useWorkspace().hasFeature('budgets');
  const create = useCreateTask(workspaceId);
  const update = useUpdateTask(workspaceId);
  const setPeople = useSetTaskPeople(workspaceId);
  const [name, setName] = useState(task?.name ?? '');
  const [sections, setSections] = useState(() => initialSections(task));
  const { errors, onSubmit } = useSubmit(async () => {
    const body = { name, ...sectionsBody(sections, { budgets }) };
    const saved = task
      ? await update.mutateAsync({ id: task.id, ...body })
      : await create.mutateAsync({ projectId, parentTaskId: parentTaskId ?? null, ...body });
    const people = changedPeople(sections, saved.people);
    if (people) await setPeople.mutateAsync({ id: saved.id, userIds: people.userIds, groupIds: people.groupIds });
    done(task ? 'Task saved.' : 'Task created.');
    if (!task) onCreated(saved);
  });

  return (
    <Stack component="form" onSubmit={onSubmit} gap="md">
      <PaneHeader title={!canEdit ? 'Task' : task ? 'Edit Task' : 'Add Task'} onClose={onClose} />
      {/* The whole project name, wrapping over lines when long, above the title that gets the full width. */}
      <Stack gap={4}>
        <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="task-prefix">
          {projectName} /
        </Text>
        <NameInput
          label="Task title"
          value={name}
          onValue={setName}
          error={errors.name}
          disabled={!canEdit}
          data-autofocus
        />
      </Stack>
      <Divider />
      <Sections
        workspaceId={workspaceId}
        value={sections}
        onChange={(patch) => setSections((s) => ({ ...s, ...patch }))}
        people={task?.people}
        readOnly={!canEdit}
        peopleReadOnly={!canManage}
        onSaveDescription={async (description) => {
          if (task) await saveDescription(update.mutateAsync, task.id, description);
        }}
      />
      {canEdit && (
        <FormFooter saving={create.isPending || update.isPending || setPeople.isPending} onCancel={onClose} />
      )}
    </Stack>
  );
}
