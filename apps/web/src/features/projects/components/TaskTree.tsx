import { ActionIcon, Box, Button, Group, Loader, Mark, Modal, Text } from '@mantine/core';
import { IconArchive, IconArchiveOff, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { failed } from '../../../components/notify';
import { type Project, type Task, useArchiveTask, useDeleteTask, useTasks } from '../api';
import classes from '../pages/ProjectsPage.module.css';
import { ConfirmDelete } from './FormParts';

interface TreeNode {
  task: Task;
  depth: number;
}

/** Tasks in tree order (parents before their sub-tasks), with their depth. */
function flattenTree(tasks: Task[]): TreeNode[] {
  const ids = new Set(tasks.map((t) => t.id));
  const children = new Map<string | null, Task[]>();
  for (const t of tasks) {
    // A sub-task whose parent is filtered out is shown at the top level.
    const parent = t.parentTaskId && ids.has(t.parentTaskId) ? t.parentTaskId : null;
    children.set(parent, [...(children.get(parent) ?? []), t]);
  }
  const out: TreeNode[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const task of children.get(parent) ?? []) {
      out.push({ task, depth });
      walk(task.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

interface TaskActions {
  onEdit: (task: Task) => void;
  onAddSub: (task: Task) => void;
  onMove: (task: Task) => void;
}

function TaskRow({
  task,
  depth,
  selected,
  matched,
  canManage,
  onArchive,
  onDelete,
  onEdit,
  onAddSub,
  onMove,
}: TaskActions & {
  task: Task;
  depth: number;
  selected: boolean;
  /** Found by the search in progress. */
  matched: boolean;
  canManage: boolean;
  onArchive: (task: Task) => void;
  onDelete: (task: Task) => void;
}) {
  return (
    <div
      className={classes.taskRow}
      style={{ paddingLeft: 40 + depth * 24, fontWeight: selected ? 600 : undefined }}
      data-selected={selected || undefined}
      data-match={matched || undefined}
      data-testid="task-row"
    >
      <Text size="sm" className={classes.name} c={task.archived ? 'dimmed' : undefined} title={task.name}>
        {matched ? <Mark>{task.name}</Mark> : task.name}
        {task.archived ? ' (archived)' : ''}
      </Text>
      {/* Each row's buttons name their task (after the words they show, WCAG 2.5.3), so a list of them reads apart. */}
      <Button size="compact-xs" variant="subtle" aria-label={`Edit Task ${task.name}`} onClick={() => onEdit(task)}>
        Edit Task
      </Button>
      {canManage && (
        <>
          {/* Shown on hover, focus or selection, so long titles keep their room. */}
          <span className={classes.taskActions}>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={`Add sub-task to ${task.name}`}
              onClick={() => onAddSub(task)}
            >
              <IconPlus size={14} aria-hidden="true" />
            </ActionIcon>
            <Button
              size="compact-xs"
              variant="subtle"
              color="gray"
              aria-label={`Move ${task.name}`}
              onClick={() => onMove(task)}
            >
              Move
            </Button>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={`${task.archived ? 'Restore' : 'Archive'} task ${task.name}`}
              title={task.archived ? 'Restore' : 'Archive'}
              onClick={() => onArchive(task)}
            >
              {task.archived ? (
                <IconArchiveOff size={14} aria-hidden="true" />
              ) : (
                <IconArchive size={14} aria-hidden="true" />
              )}
            </ActionIcon>
          </span>
          <ActionIcon
            variant="subtle"
            color="red"
            size="sm"
            aria-label={`Delete task ${task.name}`}
            onClick={() => onDelete(task)}
          >
            <IconTrash size={14} aria-hidden="true" />
          </ActionIcon>
        </>
      )}
    </div>
  );
}

function DeleteTaskDialog({
  workspaceId,
  task,
  onClose,
}: {
  workspaceId: string;
  task: Task | null;
  onClose: () => void;
}) {
  const remove = useDeleteTask(workspaceId);
  return (
    <Modal opened={task !== null} onClose={onClose} title="Delete task?" centered>
      <Text size="sm">
        “{task?.name}” and its sub-tasks will be deleted. Time tracked to them stays on the project.
      </Text>
      <ConfirmDelete
        mt="md"
        deleting={remove.isPending}
        onCancel={onClose}
        onDelete={() => task && remove.mutate(task.id, { onSuccess: onClose, onError: failed })}
      />
    </Modal>
  );
}

/** The tasks of an expanded project row, nested, with their actions. */
export function TaskTree({
  workspaceId,
  project,
  mine,
  archived,
  matching,
  canManage,
  selectedTaskId,
  ...actions
}: TaskActions & {
  workspaceId: string;
  project: Project;
  mine: boolean;
  archived: boolean;
  /** The tasks a search found here, marked in the tree. */
  matching?: string[];
  canManage: boolean;
  selectedTaskId?: string;
}) {
  const tasks = useTasks(workspaceId, project.id, mine, archived);
  const archive = useArchiveTask(workspaceId);
  const [confirm, setConfirm] = useState<Task | null>(null);
  if (tasks.isPending) {
    return (
      <Group p="sm" pl={40}>
        <Loader size="xs" aria-label="Loading tasks" />
      </Group>
    );
  }
  if (tasks.isError) return <ErrorPanel onRetry={() => tasks.refetch()} />;
  const tree = flattenTree(tasks.data.items);
  return (
    <Box role="group" aria-label={`Tasks of ${project.name}`}>
      {tree.length === 0 && (
        <Text size="sm" c="dimmed" pl={40} py={6}>
          No tasks yet.
        </Text>
      )}
      {tree.map(({ task, depth }) => (
        <TaskRow
          key={task.id}
          task={task}
          depth={depth}
          selected={task.id === selectedTaskId}
          matched={matching?.includes(task.id) ?? false}
          canManage={canManage}
          onArchive={(t) => archive.mutate({ id: t.id, archived: !t.archived }, { onError: failed })}
          onDelete={setConfirm}
          {...actions}
        />
      ))}
      <DeleteTaskDialog workspaceId={workspaceId} task={confirm} onClose={() => setConfirm(null)} />
    </Box>
  );
}
