import { Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { type Project, useProjects } from '../api';
import { ClientsModal } from '../components/ClientsModal';
import { EditPane, type PaneMode } from '../components/EditPanel';
import { ImportModal } from '../components/ImportModal';
import { NewProjectBar } from '../components/NewProjectBar';
import { ColorDialog, DeleteProjectDialog, MoveDialog, type MoveTarget } from '../components/ProjectDialogs';
import { type ItemActions, ProjectList } from '../components/ProjectList';
import { type ImportKind, ProjectsToolbar, type TaskFilter } from '../components/ProjectsToolbar';
import classes from './ProjectsPage.module.css';

export function ProjectsPage() {
  const { workspaceId, can } = useWorkspace();
  const canManage = can('projects:manage');

  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 150);
  const [filter, setFilter] = useState<TaskFilter>('All Task');
  const [archived, setArchived] = useState(false);
  const [adding, setAdding] = useState(false);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [mode, setMode] = useState<PaneMode>({ kind: 'empty' });
  const [toDelete, setToDelete] = useState<Project | null>(null);
  const [moving, setMoving] = useState<MoveTarget | null>(null);
  const [coloring, setColoring] = useState<Project | null>(null);
  const [clientsOpen, setClientsOpen] = useState(false);
  const [importKind, setImportKind] = useState<ImportKind | null>(null);

  const mine = filter === 'My Task';
  const projects = useProjects(workspaceId, { search: debounced, mine, archived });
  const { items, total } = projects;

  // A search that found tasks opens their projects to show them, once per search: a project the user
  // then closes stays closed.
  const opened = useRef(new Set<string>());
  useEffect(() => {
    const found = debounced.trim()
      ? items.filter((p) => (p.matchingTaskIds?.length ?? 0) > 0 && !opened.current.has(`${debounced}\n${p.id}`))
      : [];
    if (found.length === 0) return;
    for (const p of found) opened.current.add(`${debounced}\n${p.id}`);
    setExpanded((current) => new Set([...current, ...found.map((p) => p.id)]));
  }, [debounced, items]);

  // On a phone the edit pane sits under the list: bring it into view when something is chosen.
  const paneRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (mode.kind !== 'empty' && window.matchMedia('(max-width: 47.99em)').matches) {
      paneRef.current?.scrollIntoView({ block: 'start' });
    }
  }, [mode]);

  const selectedProjectId = mode.kind === 'project' ? mode.id : mode.kind === 'task' ? mode.projectId : undefined;
  const selectedTaskId = mode.kind === 'task' ? mode.taskId : undefined;

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
  // One stable set of handlers for every row, so a memoised row re-renders only when its own data does.
  const latest = useRef({ toggle, openTask });
  latest.current = { toggle, openTask };
  const actions = useMemo<ItemActions>(
    () => ({
      onToggle: (project) => latest.current.toggle(project),
      onAddTask: (project) => latest.current.openTask(project.id),
      onChangeColor: setColoring,
      onMove: (project) => setMoving({ kind: 'project', project }),
      onDelete: setToDelete,
      onEditTask: (task) => latest.current.openTask(task.projectId, task.id),
      onAddSub: (task) => latest.current.openTask(task.projectId, undefined, task.id),
      onMoveTask: (task) => setMoving({ kind: 'task', task }),
    }),
    [],
  );

  return (
    <Stack gap="md">
      <div className={classes.panes}>
        <Paper withBorder radius="md" className={classes.left}>
          <ProjectsToolbar
            search={search}
            onSearch={setSearch}
            filter={filter}
            onFilter={setFilter}
            archived={archived}
            onToggleArchived={() => setArchived((a) => !a)}
            canManage={canManage}
            canSeeClients={can('clients:view')}
            onAddProject={() => setAdding((a) => !a)}
            onClients={() => setClientsOpen(true)}
            onImport={setImportKind}
          />

          {adding && (
            <NewProjectBar
              workspaceId={workspaceId}
              onCreated={(project) => {
                setAdding(false);
                setMode({ kind: 'project', id: project.id });
              }}
              onClose={() => setAdding(false)}
            />
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
            <ProjectList
              workspaceId={workspaceId}
              items={items}
              total={total}
              expanded={expanded}
              selectedProjectId={selectedProjectId}
              selectedTaskId={selectedTaskId}
              canManage={canManage}
              mine={mine}
              archived={archived}
              search={debounced.trim()}
              hasNextPage={projects.hasNextPage}
              isFetchingNextPage={projects.isFetchingNextPage}
              fetchNextPage={projects.fetchNextPage}
              actions={actions}
            />
          )}
        </Paper>

        <Paper
          ref={paneRef}
          withBorder
          radius="md"
          p="md"
          className={classes.right}
          aria-label="Edit pane"
          component="aside"
        >
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
      <MoveDialog
        target={moving}
        workspaceId={workspaceId}
        projects={items.filter((p) => p.canEdit)}
        onClose={() => setMoving(null)}
      />
      <ColorDialog project={coloring} workspaceId={workspaceId} onClose={() => setColoring(null)} />
      <ClientsModal
        opened={clientsOpen}
        onClose={() => setClientsOpen(false)}
        workspaceId={workspaceId}
        canManage={can('clients:manage')}
      />
      <ImportModal kind={importKind} workspaceId={workspaceId} onClose={() => setImportKind(null)} />
    </Stack>
  );
}

export default ProjectsPage;
