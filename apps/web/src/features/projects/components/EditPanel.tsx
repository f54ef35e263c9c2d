import {
  Badge,
  Box,
  Button,
  Checkbox,
  CloseButton,
  ColorSwatch,
  Divider,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { BUDGET_TYPE_LABELS, type BudgetType, PROJECT_COLORS } from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { ErrorPanel } from '../../../components/ErrorPanel';
import {
  type Budget,
  formatTracked,
  type People,
  type ProjectDetail,
  type TaskDetail,
  useAssignable,
  useClients,
  useCreateTask,
  useProject,
  useSetProjectPeople,
  useSetTaskPeople,
  useTask,
  useUpdateProject,
  useUpdateTask,
} from '../api';
import { Markdown } from './Markdown';

export type PaneMode =
  | { kind: 'empty' }
  | { kind: 'project'; id: string }
  | { kind: 'task'; projectId: string; taskId?: string; parentTaskId?: string | null };

interface SectionsState {
  description: string;
  budgetType: BudgetType;
  budgetAmount: number | string;
  budgetResets: boolean;
  billableDefault: boolean;
  keywordsEnabled: boolean;
  keywords: string[];
  userIds: string[];
  groupIds: string[];
}

function initialSections(x?: {
  description: string | null;
  budget: Budget | null;
  billableDefault: boolean;
  keywordsEnabled: boolean;
  keywords: string[];
  people: People;
}): SectionsState {
  const budget = x?.budget;
  return {
    description: x?.description ?? '',
    budgetType: budget?.type ?? 'hours',
    budgetAmount: budget ? (budget.type === 'hours' ? budget.amount / 60 : budget.amount / 100) : '',
    budgetResets: budget?.resetsMonthly ?? false,
    billableDefault: x?.billableDefault ?? false,
    keywordsEnabled: x?.keywordsEnabled ?? false,
    keywords: x?.keywords ?? [],
    userIds: x?.people.users.map((u) => u.id) ?? [],
    groupIds: x?.people.groups.map((g) => g.id) ?? [],
  };
}

/** The sections as an API body: budget in minutes or cents. */
function sectionsBody(s: SectionsState) {
  const amount = typeof s.budgetAmount === 'number' ? s.budgetAmount : Number.parseFloat(s.budgetAmount);
  return {
    description: s.description.trim() ? s.description : null,
    budget: Number.isFinite(amount)
      ? {
          type: s.budgetType,
          amount: Math.round(amount * (s.budgetType === 'hours' ? 60 : 100)),
          resetsMonthly: s.budgetResets,
        }
      : null,
    billableDefault: s.billableDefault,
    keywordsEnabled: s.keywordsEnabled,
    keywords: s.keywords,
  };
}

const samePeople = (s: SectionsState, p?: People) =>
  JSON.stringify([[...s.userIds].sort(), [...s.groupIds].sort()]) ===
  JSON.stringify([(p?.users.map((u) => u.id) ?? []).sort(), (p?.groups.map((g) => g.id) ?? []).sort()]);

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Text fw={600} size="sm" mb={6}>
        {title}
      </Text>
      {children}
    </Box>
  );
}

/** People, Description, Budget, billable default and Enable Keyword: shared by project and task panels. */
function Sections({
  workspaceId,
  value,
  onChange,
  ownerEmail,
  readOnly,
  onSaveDescription,
  people,
  trackedSeconds,
}: {
  workspaceId: string;
  people?: People;
  /** Time tracked to the project, to show against an hours budget. */
  trackedSeconds?: number;
  value: SectionsState;
  onChange: (patch: Partial<SectionsState>) => void;
  ownerEmail?: string | null;
  readOnly: boolean;
  onSaveDescription: (description: string) => Promise<void>;
}) {
  const assignable = useAssignable(workspaceId, !readOnly);
  // Options: everyone assignable, plus who is assigned now (all a read-only viewer gets to see).
  const userOptions = new Map((people?.users ?? []).map((u) => [u.id, u.email]));
  for (const u of assignable.data?.users ?? []) userOptions.set(u.id, u.email);
  const groupOptions = new Map((people?.groups ?? []).map((g) => [g.id, g.name]));
  for (const g of assignable.data?.groups ?? []) groupOptions.set(g.id, g.name);
  const [editingDescription, setEditingDescription] = useState(false);
  const [draft, setDraft] = useState(value.description);
  const [savingDescription, setSavingDescription] = useState(false);

  return (
    <Stack gap="md">
      <Section title="People">
        <Stack gap="xs">
          {ownerEmail && (
            <Group gap="xs">
              <Text size="sm">{ownerEmail}</Text>
              <Badge variant="light" size="sm">
                Owner
              </Badge>
            </Group>
          )}
          <MultiSelect
            label="Assign people"
            placeholder={readOnly ? undefined : 'Choose members'}
            data={[...userOptions].map(([value, label]) => ({ value, label }))}
            value={value.userIds}
            onChange={(userIds) => onChange({ userIds })}
            searchable
            disabled={readOnly}
            nothingFoundMessage="No members"
          />
          <MultiSelect
            label="Assign group"
            placeholder={readOnly ? undefined : groupOptions.size === 0 ? 'No groups yet' : 'Choose groups'}
            data={[...groupOptions].map(([value, label]) => ({ value, label }))}
            value={value.groupIds}
            onChange={(groupIds) => onChange({ groupIds })}
            searchable
            disabled={readOnly}
          />
        </Stack>
      </Section>

      <Section title="Description">
        {editingDescription ? (
          <Stack gap="xs">
            <Textarea
              aria-label="Description"
              description="Markdown: # heading, - list, **bold**, *italic*, `code`, [link](https://…)"
              autosize
              minRows={3}
              maxRows={12}
              value={draft}
              onChange={(e) => setDraft(e.currentTarget.value)}
            />
            <Group gap="xs">
              <Button
                size="xs"
                loading={savingDescription}
                onClick={async () => {
                  setSavingDescription(true);
                  try {
                    await onSaveDescription(draft);
                    onChange({ description: draft });
                    setEditingDescription(false);
                  } finally {
                    setSavingDescription(false);
                  }
                }}
              >
                Save description
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  setDraft(value.description);
                  setEditingDescription(false);
                }}
              >
                Cancel
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group align="flex-start" wrap="nowrap" justify="space-between">
            <Box data-testid="description" style={{ flex: 1, minWidth: 0 }}>
              {value.description ? (
                <Markdown source={value.description} />
              ) : (
                <Text size="sm" c="dimmed">
                  No description yet.
                </Text>
              )}
            </Box>
            {!readOnly && (
              <Button
                size="xs"
                variant="subtle"
                onClick={() => {
                  setDraft(value.description);
                  setEditingDescription(true);
                }}
              >
                Edit description
              </Button>
            )}
          </Group>
        )}
      </Section>

      <Section title="Budget">
        <Group grow align="flex-start">
          <Select
            aria-label="Budget type"
            data={(Object.keys(BUDGET_TYPE_LABELS) as BudgetType[]).map((v) => ({
              value: v,
              label: BUDGET_TYPE_LABELS[v],
            }))}
            value={value.budgetType}
            onChange={(v) => v && onChange({ budgetType: v as BudgetType })}
            allowDeselect={false}
            disabled={readOnly}
          />
          <NumberInput
            aria-label="Budget amount"
            placeholder={value.budgetType === 'hours' ? 'Hours' : 'Amount'}
            min={0}
            decimalScale={2}
            value={value.budgetAmount}
            onChange={(budgetAmount) => onChange({ budgetAmount })}
            disabled={readOnly}
          />
        </Group>
        {trackedSeconds !== undefined && value.budgetType === 'hours' && Number(value.budgetAmount) > 0 && (
          <Text size="xs" c="dimmed" mt={4} data-testid="budget-usage">
            {`Tracked ${formatTracked(trackedSeconds)} of ${value.budgetAmount} h (${Math.round(
              trackedSeconds / 36 / Number(value.budgetAmount),
            )}%)`}
          </Text>
        )}
        <Checkbox
          mt="xs"
          label="Reset the budget every month"
          checked={value.budgetResets}
          onChange={(e) => onChange({ budgetResets: e.currentTarget.checked })}
          disabled={readOnly}
        />
      </Section>

      <Checkbox
        label="Time from this task is billable by default"
        checked={value.billableDefault}
        onChange={(e) => onChange({ billableDefault: e.currentTarget.checked })}
        disabled={readOnly}
      />

      <Section title="Keywords">
        <Switch
          label="Enable Keyword"
          checked={value.keywordsEnabled}
          onChange={(e) => onChange({ keywordsEnabled: e.currentTarget.checked })}
          disabled={readOnly}
        />
        {value.keywordsEnabled && (
          <TagsInput
            mt="xs"
            label="Keywords"
            description="A time entry whose note contains one of these suggests this project."
            value={value.keywords}
            onChange={(keywords) => onChange({ keywords })}
            disabled={readOnly}
            clearable
          />
        )}
      </Section>
    </Stack>
  );
}

const failed = (error: unknown) => notifications.show({ color: 'red', message: parseApiError(error).message });

function ProjectForm({
  workspaceId,
  project,
  canManage,
  onClose,
}: {
  workspaceId: string;
  project: ProjectDetail;
  canManage: boolean;
  onClose: () => void;
}) {
  const update = useUpdateProject(workspaceId);
  const setPeople = useSetProjectPeople(workspaceId);
  const clients = useClients(workspaceId);
  const [name, setName] = useState(project.name);
  const [clientId, setClientId] = useState<string | null>(project.clientId);
  const [color, setColor] = useState(project.color);
  const [isPublic, setIsPublic] = useState(project.isPublic);
  const [sections, setSections] = useState(() => initialSections(project));
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      await update.mutateAsync({ id: project.id, name, clientId, color, isPublic, ...sectionsBody(sections) });
      if (!samePeople(sections, project.people)) {
        await setPeople.mutateAsync({ id: project.id, userIds: sections.userIds, groupIds: sections.groupIds });
      }
      notifications.show({ color: 'green', message: 'Project saved.' });
    } catch (error) {
      setErrors(parseApiError(error).fields);
      failed(error);
    }
  };

  return (
    <Stack component="form" onSubmit={save} gap="md">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {canManage ? 'Edit Project' : 'Project'}
        </Title>
        <CloseButton aria-label="Close" onClick={onClose} />
      </Group>
      <TextInput
        label="Name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        maxLength={255}
        required
        disabled={!canManage}
      />
      <Select
        label="Client"
        placeholder="No client"
        data={(clients.data?.items ?? [])
          .filter((c) => !c.archived || c.id === clientId)
          .map((c) => ({ value: c.id, label: c.name }))}
        value={clientId}
        onChange={setClientId}
        clearable
        searchable
        disabled={!canManage}
      />
      <Box>
        <Text fw={500} size="sm" mb={4}>
          Colour
        </Text>
        <Group gap={6}>
          {PROJECT_COLORS.map((c) => (
            <ColorSwatch
              key={c}
              component="button"
              type="button"
              color={c}
              aria-label={`Colour ${c}`}
              aria-pressed={c === color}
              onClick={() => canManage && setColor(c)}
              style={{ cursor: canManage ? 'pointer' : 'default', outline: c === color ? '2px solid #333' : 'none' }}
            />
          ))}
        </Group>
      </Box>
      <Checkbox
        label="Public: everyone in the workspace can see it and track time to it"
        checked={isPublic}
        onChange={(e) => setIsPublic(e.currentTarget.checked)}
        disabled={!canManage}
      />
      <Divider />
      <Sections
        workspaceId={workspaceId}
        value={sections}
        onChange={(patch) => setSections((s) => ({ ...s, ...patch }))}
        ownerEmail={project.ownerEmail}
        people={project.people}
        trackedSeconds={project.trackedSeconds}
        readOnly={!canManage}
        onSaveDescription={async (description) => {
          try {
            await update.mutateAsync({ id: project.id, description: description.trim() ? description : null });
          } catch (error) {
            failed(error);
            throw error;
          }
        }}
      />
      {canManage && (
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending || setPeople.isPending}>
            Save
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function TaskForm({
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
  const [errors, setErrors] = useState<Record<string, string>>({});

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      const body = { name, ...sectionsBody(sections) };
      const saved = task
        ? await update.mutateAsync({ id: task.id, ...body })
        : await create.mutateAsync({ projectId, parentTaskId: parentTaskId ?? null, ...body });
      if (!samePeople(sections, saved.people)) {
        await setPeople.mutateAsync({ id: saved.id, userIds: sections.userIds, groupIds: sections.groupIds });
      }
      notifications.show({ color: 'green', message: task ? 'Task saved.' : 'Task created.' });
      if (!task) onCreated(saved);
    } catch (error) {
      setErrors(parseApiError(error).fields);
      failed(error);
    }
  };

  return (
    <Stack component="form" onSubmit={save} gap="md">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {!canManage ? 'Task' : task ? 'Edit Task' : 'Add Task'}
        </Title>
        <CloseButton aria-label="Close" onClick={onClose} />
      </Group>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <Text fw={600} pb={8} style={{ whiteSpace: 'nowrap' }} data-testid="task-prefix">
          {projectName} /
        </Text>
        <TextInput
          style={{ flex: 1 }}
          label="Task title"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          maxLength={255}
          required
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
          if (!task) return;
          try {
            await update.mutateAsync({ id: task.id, description: description.trim() ? description : null });
          } catch (error) {
            failed(error);
            throw error;
          }
        }}
      />
      {canManage && (
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending || setPeople.isPending}>
            Save
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Loading() {
  return (
    <Group justify="center" py="xl">
      <Loader aria-label="Loading" />
    </Group>
  );
}

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
  if (project.isPending) return <Loading />;
  if (project.isError)
    return <ErrorPanel message={parseApiError(project.error).message} onRetry={() => project.refetch()} />;
  return (
    <ProjectForm
      // Changed from the row menu (Change Color, Move): start over from the saved project.
      key={`${project.data.id}-${project.data.color}-${project.data.clientId}`}
      workspaceId={workspaceId}
      project={project.data}
      canManage={canManage}
      onClose={onClose}
    />
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
    <TaskForm
      key={`${mode.taskId ?? 'new'}-${mode.parentTaskId ?? ''}-${task.data?.projectId}-${task.data?.parentTaskId}`}
      workspaceId={workspaceId}
      projectId={mode.projectId}
      projectName={project.data.name}
      task={mode.taskId ? task.data : undefined}
      parentTaskId={mode.parentTaskId}
      canManage={canManage}
      onClose={onClose}
      onCreated={onCreated}
    />
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
