import {
  ActionIcon,
  Box,
  Button,
  ColorSwatch,
  Group,
  Loader,
  Menu,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { can, PROJECT_COLORS } from '@sundial/core';
import {
  IconArchive,
  IconArchiveOff,
  IconChevronDown,
  IconChevronRight,
  IconDotsVertical,
  IconPlus,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import { type KeyboardEvent, useMemo, useState } from 'react';
import { useOutletContext } from 'react-router';
import { parseApiError } from '../../../api/client';
import { type Me, useCurrentWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import {
  formatTracked,
  type Project,
  type Task,
  useArchiveProject,
  useArchiveTask,
  useClients,
  useCreateProject,
  useDeleteProject,
  useDeleteTask,
  useProjects,
  useTasks,
  useUpdateProject,
  useUpdateTask,
} from '../api';
import { ClientsModal } from '../components/ClientsModal';
import { EditPane, type PaneMode } from '../components/EditPanel';
import { ImportModal } from '../components/ImportModal';
import classes from './ProjectsPage.module.css';

const failed = (error: unknown) => notifications.show({ color: 'red', message: parseApiError(error).message });

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

function TaskRows({
  workspaceId,
  project,
  mine,
  archived,
  canManage,
  selectedTaskId,
  onEdit,
  onAddSub,
  onMove,
}: {
  workspaceId: string;
  project: Project;
  mine: boolean;
  archived: boolean;
  canManage: boolean;
  selectedTaskId?: string;
  onEdit: (task: Task) => void;
  onAddSub: (task: Task) => void;
  onMove: (task: Task) => void;
}) {
  const tasks = useTasks(workspaceId, project.id, mine, archived);
  const remove = useDeleteTask(workspaceId);
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
        <div
          key={task.id}
          className={classes.taskRow}
          style={{ paddingLeft: 40 + depth * 24, fontWeight: task.id === selectedTaskId ? 600 : undefined }}
          data-testid="task-row"
        >
          <Text size="sm" className={classes.name} c={task.archived ? 'dimmed' : undefined}>
            {task.name}
            {task.archived ? ' (archived)' : ''}
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => onEdit(task)}>
            Edit Task
          </Button>
          {canManage && (
            <>
              <ActionIcon
                variant="subtle"
                size="sm"
                aria-label={`Add sub-task to ${task.name}`}
                onClick={() => onAddSub(task)}
              >
                <IconPlus size={14} aria-hidden="true" />
              </ActionIcon>
              <Button size="compact-xs" variant="subtle" color="gray" onClick={() => onMove(task)}>
                Move
              </Button>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label={`${task.archived ? 'Restore' : 'Archive'} task ${task.name}`}
                title={task.archived ? 'Restore' : 'Archive'}
                onClick={() => archive.mutate({ id: task.id, archived: !task.archived }, { onError: failed })}
              >
                {task.archived ? (
                  <IconArchiveOff size={14} aria-hidden="true" />
                ) : (
                  <IconArchive size={14} aria-hidden="true" />
                )}
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                aria-label={`Delete task ${task.name}`}
                onClick={() => setConfirm(task)}
              >
                <IconTrash size={14} aria-hidden="true" />
              </ActionIcon>
            </>
          )}
        </div>
      ))}
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title="Delete task?" centered>
        <Text size="sm">
          “{confirm?.name}” and its sub-tasks will be deleted. Time tracked to them stays on the project.
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirm(null)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              confirm &&
              remove.mutate(confirm.id, {
                onSuccess: () => setConfirm(null),
                onError: failed,
              })
            }
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </Box>
  );
}

function DeleteProjectDialog({
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
        <Paper withBorder p="sm" bg="gray.0">
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              project &&
              remove.mutate(project.id, {
                onSuccess: () => {
                  notifications.show({ color: 'green', message: 'Project deleted.' });
                  onDeleted(project.id);
                },
                onError: failed,
              })
            }
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

type MoveTarget = { kind: 'project'; project: Project } | { kind: 'task'; task: Task };

function MoveDialog({
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
            notifications.show({ color: 'green', message: 'Project moved.' });
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
            notifications.show({ color: 'green', message: 'Task moved.' });
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

function ColorDialog({
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
      <Group gap="xs">
        {PROJECT_COLORS.map((c) => (
          <ColorSwatch
            key={c}
            component="button"
            type="button"
            color={c}
            size={32}
            aria-label={`Colour ${c}`}
            style={{ cursor: 'pointer', outline: project?.color === c ? '2px solid #333' : 'none' }}
            onClick={() =>
              project && update.mutate({ id: project.id, color: c }, { onSuccess: onClose, onError: failed })
            }
          />
        ))}
      </Group>
    </Modal>
  );
}

export function ProjectsPage() {
  const me = useOutletContext<Me>();
  const workspace = useCurrentWorkspace(me);
  const workspaceId = workspace?.id ?? '';
  const canManage = workspace ? can(workspace.role, 'projects:manage') : false;

  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 150);
  const [filter, setFilter] = useState<'All Task' | 'My Task'>('All Task');
  const [archived, setArchived] = useState(false);
  const [adding, setAdding] = useState(false);
  const [newName, setNewName] = useState('');
  const [newError, setNewError] = useState<string | undefined>();
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [mode, setMode] = useState<PaneMode>({ kind: 'empty' });
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const [moving, setMoving] = useState<MoveTarget | null>(null);
  const [coloring, setColoring] = useState<Project | null>(null);
  const [clientsOpen, setClientsOpen] = useState(false);
  const [importKind, setImportKind] = useState<'csv' | 'addons' | null>(null);

  const mine = filter === 'My Task';
  const projects = useProjects(workspaceId, { search: debounced, mine, archived });
  const create = useCreateProject(workspaceId);
  const archive = useArchiveProject(workspaceId);
  const items = useMemo(() => projects.data?.items ?? [], [projects.data]);

  const selectedProjectId = mode.kind === 'project' ? mode.id : mode.kind === 'task' ? mode.projectId : undefined;
  const selectedTaskId = mode.kind === 'task' ? mode.taskId : undefined;

  const createProject = () => {
    setNewError(undefined);
    create.mutate(
      { name: newName },
      {
        onSuccess: (project) => {
          setNewName('');
          setAdding(false);
          setMode({ kind: 'project', id: project.id });
          notifications.show({ color: 'green', message: 'Project created.' });
        },
        onError: (error) => setNewError(parseApiError(error).fields.name ?? parseApiError(error).message),
      },
    );
  };
  const onNameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      createProject();
    } else if (event.key === 'Escape') {
      setAdding(false);
      setNewName('');
      setNewError(undefined);
    }
  };

  const toggle = (project: Project) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(project.id)) next.delete(project.id);
      else next.add(project.id);
      return next;
    });
    setMode({ kind: 'project', id: project.id });
  };
  const openTask = (projectId: string, taskId?: string, parentTaskId?: string | null) => {
    setExpanded((current) => new Set(current).add(projectId));
    setMode({ kind: 'task', projectId, taskId, parentTaskId });
  };

  if (!workspace) return null;

  return (
    <Stack gap="md">
      <div className={classes.panes}>
        <Paper withBorder radius="md" className={classes.left}>
          <Group p="sm" gap="xs" wrap="wrap">
            <TextInput
              aria-label="Search projects and tasks"
              placeholder="Search by project or task"
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              style={{ flex: 1, minWidth: 180 }}
            />
            {canManage && (
              <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setAdding((a) => !a)}>
                Add Project
              </Button>
            )}
            <Select
              aria-label="Filter"
              data={['All Task', 'My Task']}
              value={filter}
              onChange={(v) => v && setFilter(v as 'All Task' | 'My Task')}
              allowDeselect={false}
              w={120}
            />
            <Button
              variant={archived ? 'filled' : 'default'}
              color={archived ? 'gray' : undefined}
              leftSection={<IconArchive size={16} aria-hidden="true" />}
              aria-pressed={archived}
              onClick={() => setArchived((a) => !a)}
            >
              Archived
            </Button>
            {can(workspace.role, 'clients:view') && (
              <Button variant="default" onClick={() => setClientsOpen(true)}>
                Clients
              </Button>
            )}
            {canManage && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="default" size="lg" aria-label="More project actions">
                    <IconDotsVertical size={16} aria-hidden="true" />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setImportKind('csv')}>Import From CSV</Menu.Item>
                  <Menu.Item onClick={() => setImportKind('addons')}>Import From add-ons</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>

          {adding && (
            <Group px="sm" pb="sm" gap="xs" align="flex-start">
              <TextInput
                aria-label="New project name"
                placeholder="Enter the name for new project or task..."
                value={newName}
                onChange={(e) => setNewName(e.currentTarget.value)}
                onKeyDown={onNameKey}
                error={newError}
                maxLength={255}
                style={{ flex: 1 }}
                autoFocus
              />
              <Button onClick={createProject} loading={create.isPending}>
                Create new project
              </Button>
              <Button
                variant="default"
                onClick={() => {
                  setAdding(false);
                  setNewName('');
                  setNewError(undefined);
                }}
              >
                Cancel
              </Button>
            </Group>
          )}

          {projects.isPending ? (
            <Group justify="center" py="xl">
              <Loader aria-label="Loading projects" />
            </Group>
          ) : projects.isError ? (
            <ErrorPanel message={parseApiError(projects.error).message} onRetry={() => projects.refetch()} />
          ) : items.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              {debounced || mine || archived
                ? 'No projects match.'
                : canManage
                  ? 'No projects yet. Add Project creates the first one.'
                  : 'No projects are shared with you yet.'}
            </Text>
          ) : (
            <Box role="list" aria-label="Projects">
              {items.map((project) => (
                <Box key={project.id} role="listitem" aria-label={project.name}>
                  {/* biome-ignore lint/a11y/useSemanticElements: a row holds buttons of its own */}
                  <div
                    className={classes.row}
                    data-selected={selectedProjectId === project.id || undefined}
                    data-testid="project-row"
                    role="button"
                    tabIndex={0}
                    aria-expanded={expanded.has(project.id)}
                    aria-label={`${project.name}${project.archived ? ' (archived)' : ''}: show tasks and edit`}
                    onClick={() => toggle(project)}
                    onKeyDown={(e) => {
                      if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
                        e.preventDefault();
                        toggle(project);
                      }
                    }}
                  >
                    {expanded.has(project.id) ? (
                      <IconChevronDown size={16} aria-hidden="true" />
                    ) : (
                      <IconChevronRight size={16} aria-hidden="true" />
                    )}
                    <span
                      className={classes.dot}
                      style={{ background: project.color }}
                      aria-hidden="true"
                      data-testid="project-color"
                    />
                    <Box className={classes.name}>
                      <Text size="sm" fw={600} truncate>
                        {project.name}
                        {project.archived ? ' (archived)' : ''}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {[project.clientName, project.ownerEmail].filter(Boolean).join(' · ')}
                      </Text>
                    </Box>
                    {canManage && (
                      // biome-ignore lint/a11y/noStaticElementInteractions: stops row toggling only
                      // biome-ignore lint/a11y/useKeyWithClickEvents: stops row toggling only
                      <div className={classes.actions} onClick={(e) => e.stopPropagation()}>
                        <Button
                          size="compact-xs"
                          variant="light"
                          onClick={() => openTask(project.id)}
                          aria-label={`Add Task to ${project.name}`}
                        >
                          Add Task
                        </Button>
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" aria-label={`Actions for ${project.name}`}>
                              <IconDotsVertical size={16} aria-hidden="true" />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => setColoring(project)}>Change Color</Menu.Item>
                            <Menu.Item onClick={() => setMoving({ kind: 'project', project })}>Move</Menu.Item>
                            <Menu.Item
                              onClick={() =>
                                archive.mutate(
                                  { id: project.id, archived: !project.archived },
                                  {
                                    onSuccess: () =>
                                      notifications.show({
                                        color: 'green',
                                        message: project.archived ? 'Project restored.' : 'Project archived.',
                                      }),
                                    onError: failed,
                                  },
                                )
                              }
                            >
                              {project.archived ? 'Restore' : 'Archive'}
                            </Menu.Item>
                            <Menu.Divider />
                            <Menu.Item color="red" onClick={() => setToDelete(project)}>
                              Delete
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      </div>
                    )}
                    <Text size="sm" c="dimmed" w={56} ta="right" title="Tracked time (hours:minutes)">
                      {formatTracked(project.trackedSeconds)}
                    </Text>
                  </div>
                  {expanded.has(project.id) && (
                    <TaskRows
                      workspaceId={workspaceId}
                      project={project}
                      mine={mine}
                      archived={archived}
                      canManage={canManage}
                      selectedTaskId={selectedTaskId}
                      onEdit={(task) => openTask(project.id, task.id)}
                      onAddSub={(task) => openTask(project.id, undefined, task.id)}
                      onMove={(task) => setMoving({ kind: 'task', task })}
                    />
                  )}
                </Box>
              ))}
              {(projects.data?.total ?? 0) > items.length && (
                <Text size="sm" c="dimmed" ta="center" py="sm">
                  Showing {items.length} of {projects.data?.total} projects; search to find the others.
                </Text>
              )}
            </Box>
          )}
        </Paper>

        <Paper withBorder radius="md" p="md" className={classes.right} aria-label="Edit pane" component="aside">
          <EditPane
            workspaceId={workspaceId}
            mode={mode}
            canManage={canManage}
            onClose={() => setMode({ kind: 'empty' })}
            onTaskCreated={(task) => setMode({ kind: 'task', projectId: task.projectId, taskId: task.id })}
          />
        </Paper>
      </div>

      <DeleteProjectDialog
        workspaceId={workspaceId}
        project={toDelete}
        onClose={() => setToDelete(null)}
        onDeleted={(id) => {
          setToDelete(null);
          if (selectedProjectId === id) setMode({ kind: 'empty' });
        }}
      />
      <MoveDialog target={moving} workspaceId={workspaceId} projects={items} onClose={() => setMoving(null)} />
      <ColorDialog project={coloring} workspaceId={workspaceId} onClose={() => setColoring(null)} />
      <ClientsModal
        opened={clientsOpen}
        onClose={() => setClientsOpen(false)}
        workspaceId={workspaceId}
        canManage={can(workspace.role, 'clients:manage')}
      />
      <ImportModal kind={importKind} workspaceId={workspaceId} onClose={() => setImportKind(null)} />
    </Stack>
  );
}

export default ProjectsPage;
