import { Divider, Group, Stack, Text } from '@mantine/core';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { HistoryLink } from '../../../components/History';
import { ProjectRatesSection } from '../../../components/rates/ProjectRatesSection';
import { type TaskDetail, useAssignable, useProject, useTask } from '../api';
import { Loading } from './FormParts';
import { ProjectForm } from './ProjectForm';
import { RequiredTagListsSection } from './RequiredTagListsSection';
import { TaskForm } from './TaskForm';

export type PaneMode =
  | { kind: 'empty' }
  | { kind: 'project'; id: string }
  | { kind: 'task'; projectId: string; taskId?: string; parentTaskId?: string | null };

function ProjectPane({
  workspaceId,
  id,
  canManage,
  onClose,
}: {
  workspaceId: string;
  id: string;
  canManage: boolean;
  onClose: () => void;
}) {
  const project = useProject(workspaceId, id);
  const { can: allowed } = useWorkspace();
  // Owners and admins change rates; who sees others' time (managers) reads the project's billable
  // rates (the API decides: levelRatesAccess).
  const changesRates = allowed('rates:manage');
  const rates = changesRates || allowed('time:view_others');
  const assignable = useAssignable(workspaceId, changesRates);
  if (project.isPending) return <Loading />;
  if (project.isError)
    return <ErrorPanel message={parseApiError(project.error).message} onRetry={() => project.refetch()} />;
  return (
    <Stack gap="md">
      <ProjectForm
        // Changed from the row menu (Change Color, Move): start over from the saved project.
        key={`${project.data.id}-${project.data.color}-${project.data.clientId}`}
        workspaceId={workspaceId}
        project={project.data}
        canManage={canManage}
        onClose={onClose}
      />
      {rates && (
        <>
          <Divider />
          <ProjectRatesSection
            key={id}
            workspaceId={workspaceId}
            projectId={id}
            people={(assignable.data?.users ?? []).map((u) => ({ value: u.id, label: u.name || u.email }))}
          />
        </>
      )}
      {allowed('tags:manage') && (
        <>
          <Divider />
          <RequiredTagListsSection key={`tags-${id}`} workspaceId={workspaceId} projectId={id} />
        </>
      )}
    </Stack>
  );
}

function TaskPane({
  workspaceId,
  mode,
  canManage,
  onClose,
  onCreated,
}: {
  workspaceId: string;
  mode: Extract<PaneMode, { kind: 'task' }>;
  canManage: boolean;
  onClose: () => void;
  onCreated: (task: TaskDetail) => void;
}) {
  const project = useProject(workspaceId, mode.projectId);
  const task = useTask(workspaceId, mode.taskId ?? '');
  const { can: allowed } = useWorkspace();
  const rates = allowed('rates:manage') || allowed('time:view_others');
  const loadingTask = mode.taskId !== undefined && task.isPending;
  if (project.isPending || loadingTask) return <Loading />;
  const error = project.error ?? (mode.taskId ? task.error : null);
  if (error || !project.data) {
    return (
      <ErrorPanel
        message={parseApiError(error).message}
        onRetry={() => {
          project.refetch();
          if (mode.taskId) task.refetch();
        }}
      />
    );
  }
  return (
    <Stack gap="md">
      <TaskForm
        key={`${mode.taskId ?? 'new'}-${mode.parentTaskId ?? ''}-${task.data?.projectId}-${task.data?.parentTaskId}`}
        workspaceId={workspaceId}
        projectId={mode.projectId}
        projectName={project.data.name}
        task={mode.taskId ? task.data : undefined}
        parentTaskId={mode.parentTaskId}
        canEdit={project.data.canEdit}
        canManage={canManage}
        onClose={onClose}
        onCreated={onCreated}
      />
      {rates && mode.taskId && (
        <>
          <Divider />
          <ProjectRatesSection
            key={mode.taskId}
            workspaceId={workspaceId}
            projectId={mode.projectId}
            taskId={mode.taskId}
          />
        </>
      )}
      {mode.taskId && (
        <Group justify="flex-end">
          <HistoryLink subjectId={mode.taskId} label={`History of task ${task.data?.name ?? ''}`} />
        </Group>
      )}
    </Stack>
  );
}

/** The right pane: empty, Project (edit) or Task (add or edit). */
export function EditPane({
  workspaceId,
  mode,
  canManage,
  onClose,
  onTaskCreated,
}: {
  workspaceId: string;
  mode: PaneMode;
  canManage: boolean;
  onClose: () => void;
  onTaskCreated: (task: TaskDetail) => void;
}) {
  if (mode.kind === 'empty') {
    return (
      <Text c="dimmed" ta="center" py="xl">
        Choose project or task to edit
      </Text>
    );
  }
  if (mode.kind === 'project')
    return <ProjectPane workspaceId={workspaceId} id={mode.id} canManage={canManage} onClose={onClose} />;
  return (
    <TaskPane workspaceId={workspaceId} mode={mode} canManage={canManage} onClose={onClose} onCreated={onTaskCreated} />
  );
}
