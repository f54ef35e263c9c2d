import { Button, Group, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useClients } from '../../../api/catalog';
import { done, failed } from '../../../components/notify';
import { type Project, type Task, useDeleteProject, useTasks, useUpdateProject, useUpdateTask } from '../api';
import { ColourPalette, ConfirmDelete } from './FormParts';

/** Delete with the spec's texts, the title and id, and the archiving hint. */
export function DeleteProjectDialog({
  project,
  onClose,
  onDeleted,
  workspaceId,
}: {
  project: Project | null;
  onClose: () => void;
  onDeleted: (id: string) => void;
  workspaceId: string;
}) {
  const remove = useDeleteProject(workspaceId);
  return (
    <Modal opened={project !== null} onClose={onClose} title="Are you sure you want to delete Project?" centered>
      <Stack gap="sm">
        <Text size="sm">
          This action is permanent and cannot be undone. All time tracked to this project will be gone.
        </Text>
        <Paper withBorder p="sm" bg="var(--sundial-color-subtle)">
          <Text size="sm">
            <b>Title:</b> {project?.name}
          </Text>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            <b>Id:</b> {project?.id}
          </Text>
        </Paper>
        <Text size="sm" c="dimmed">
          If you simply want to hide the project, we recommend archiving it instead.
        </Text>
        <ConfirmDelete
          deleting={remove.isPending}
          onCancel={onClose}
          onDelete={() =>
            project &&
            remove.mutate(project.id, {
              onSuccess: () => {
                done('Project deleted.');
                onDeleted(project.id);
              },
              onError: failed,
            })
          }
        />
      </Stack>
    </Modal>
  );
}

export type MoveTarget = { kind: 'project'; project: Project } | { kind: 'task'; task: Task };

/** Move a project to another client, or a task to another project and/or under another task. */
export function MoveDialog({
  target,
  workspaceId,
  projects,
  onClose,
}: {
  target: MoveTarget | null;
  workspaceId: string;
  projects: Project[];
  onClose: () => void;
}) {
  const clients = useClients(workspaceId, target !== null);
  const updateProject = useUpdateProject(workspaceId);
  const updateTask = useUpdateTask(workspaceId);
  // undefined: not chosen yet (the project's current client); null: no client.
  const [clientId, setClientId] = useState<string | null | undefined>(undefined);
  const [projectId, setProjectId] = useState<string | null>(null);
  const [parentId, setParentId] = useState<string | null | undefined>(undefined);
  const targetProjectId = target?.kind === 'task' ? (projectId ?? target.task.projectId) : '';
  const tasks = useTasks(workspaceId, targetProjectId, false, false);
  // Staying in the same project keeps the current parent until another is chosen.
  const currentParent =
    target?.kind === 'task' && targetProjectId === target.task.projectId ? target.task.parentTaskId : null;

  const close = () => {
    setClientId(undefined);
    setProjectId(null);
    setParentId(undefined);
    onClose();
  };
  const save = () => {
    if (target?.kind === 'project') {
      updateProject.mutate(
        { id: target.project.id, clientId: clientId === undefined ? target.project.clientId : clientId },
        {
          onSuccess: () => {
            done('Project moved.');
            close();
          },
          onError: failed,
        },
      );
    } else if (target?.kind === 'task') {
      updateTask.mutate(
        {
          id: target.task.id,
          projectId: targetProjectId,
          parentTaskId: parentId === undefined ? currentParent : parentId,
        },
        {
          onSuccess: () => {
            done('Task moved.');
            close();
          },
          onError: failed,
        },
      );
    }
  };

  return (
    <Modal
      opened={target !== null}
      onClose={close}
      title={target?.kind === 'project' ? `Move ${target.project.name}` : `Move ${target?.task.name ?? ''}`}
      centered
    >
      <Stack>
        {target?.kind === 'project' ? (
          <Select
            label="Client"
            placeholder="No client"
            data={(clients.data?.items ?? []).filter((c) => !c.archived).map((c) => ({ value: c.id, label: c.name }))}
            value={clientId === undefined ? target.project.clientId : clientId}
            onChange={setClientId}
            clearable
            searchable
          />
        ) : (
          <>
            <Select
              label="Project"
              data={projects.map((p) => ({ value: p.id, label: p.name }))}
              value={targetProjectId}
              onChange={(v) => {
                setProjectId(v);
                setParentId(null);
              }}
              allowDeselect={false}
              searchable
            />
            <Select
              label="Sub-task of"
              placeholder="Top level"
              data={(tasks.data?.items ?? [])
                .filter((t) => t.id !== (target?.kind === 'task' ? target.task.id : ''))
                .map((t) => ({ value: t.id, label: t.name }))}
              value={parentId === undefined ? currentParent : parentId}
              onChange={setParentId}
              clearable
              searchable
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button onClick={save} loading={updateProject.isPending || updateTask.isPending}>
            Move
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Change Color: the palette; a click saves. */
export function ColorDialog({
  project,
  workspaceId,
  onClose,
}: {
  project: Project | null;
  workspaceId: string;
  onClose: () => void;
}) {
  const update = useUpdateProject(workspaceId);
  return (
    <Modal opened={project !== null} onClose={onClose} title="Change Color" centered size="sm">
      <ColourPalette
        value={project?.color}
        size={32}
        onPick={(c) => project && update.mutate({ id: project.id, color: c }, { onSuccess: onClose, onError: failed })}
      />
    </Modal>
  );
}
