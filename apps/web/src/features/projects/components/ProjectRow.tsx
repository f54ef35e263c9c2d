import { ActionIcon, Badge, Box, Button, Menu, Text, UnstyledButton } from '@mantine/core';
import { budgetNearPercent, budgetStateFromAlerts, budgetStatus, formatDuration } from '@sundial/core';
import { IconChevronDown, IconChevronRight, IconDotsVertical } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useDurationFormat } from '../../../api/session';
import { HistoryMenuItem } from '../../../components/History';
import { done, failed } from '../../../components/notify';
import { type Project, useArchiveProject } from '../api';
import classes from '../pages/ProjectsPage.module.css';
import { personLabel } from './sections/PeopleSection';

export interface ProjectRowActions {
  onAddTask: (project: Project) => void;
  onChangeColor: (project: Project) => void;
  onMove: (project: Project) => void;
  onDelete: (project: Project) => void;
}

/**
 * Add Task and the ⋮ menu (Change Color, Move, Archive / Restore, History, Delete), shown on hover; Delete
 * only with `canDelete` (projects:manage; a member holding "Can manage" has the rest).
 */
function RowActions({
  workspaceId,
  project,
  canDelete,
  onAddTask,
  onChangeColor,
  onMove,
  onDelete,
}: ProjectRowActions & { workspaceId: string; project: Project; canDelete: boolean }) {
  const archive = useArchiveProject(workspaceId);
  const toggleArchived = () =>
    archive.mutate(
      { id: project.id, archived: !project.archived },
      {
        onSuccess: () => done(project.archived ? 'Project restored.' : 'Project archived.'),
        onError: failed,
      },
    );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: stops row toggling only
    // biome-ignore lint/a11y/useKeyWithClickEvents: stops row toggling only
    <div className={classes.actions} onClick={(e) => e.stopPropagation()}>
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => onAddTask(project)}
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
          <Menu.Item onClick={() => onChangeColor(project)}>Change Color</Menu.Item>
          <Menu.Item onClick={() => onMove(project)}>Move</Menu.Item>
          <Menu.Item onClick={toggleArchived}>{project.archived ? 'Restore' : 'Archive'}</Menu.Item>
          <HistoryMenuItem subjectId={project.id} />
          {canDelete && (
            <>
              <Menu.Divider />
              <Menu.Item color="red" c="var(--mantine-color-red-text)" onClick={() => onDelete(project)}>
                Delete
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
    </div>
  );
}

/**
 * One project: colour, name, client · owner, tracked total; clicking toggles its tasks (given as
 * `children` while expanded) and opens it in the edit pane.
 */
export function ProjectRow({
  workspaceId,
  project,
  expanded,
  selected,
  canManage,
  onToggle,
  children,
  measureRef,
  index,
  ...actions
}: ProjectRowActions & {
  workspaceId: string;
  project: Project;
  expanded: boolean;
  selected: boolean;
  canManage: boolean;
  onToggle: (project: Project) => void;
  children?: ReactNode;
  /** For a virtualised list: measures the row (with its open task tree) at its position `index`. */
  measureRef?: (element: HTMLElement | null) => void;
  index?: number;
}) {
  return (
    <Box role="listitem" aria-label={project.name} ref={measureRef} data-index={index}>
      {/*
       * The whole row is the mouse target; its keyboard and screen-reader path is the name button
       * inside, whose accessible name is the text it shows (WCAG 2.5.3). The row is no button itself,
       * since it holds the Add Task and menu buttons (no nested interactive controls).
       */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a larger mouse target for the name button */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the name button inside takes the keyboard */}
      <div
        className={classes.row}
        data-selected={selected || undefined}
        data-testid="project-row"
        onClick={() => onToggle(project)}
      >
        {expanded ? (
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
        <UnstyledButton
          className={classes.name}
          aria-expanded={expanded}
          onClick={(e) => {
            e.stopPropagation();
            onToggle(project);
          }}
        >
          <Text size="sm" fw={600} truncate>
            {project.name}
            {project.archived ? ' (archived)' : ''}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {[project.clientName, personLabel({ name: project.ownerName, email: project.ownerEmail })]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </UnstyledButton>
        {project.canEdit && (
          <RowActions workspaceId={workspaceId} project={project} canDelete={canManage} {...actions} />
        )}
        <BudgetState project={project} />
        <TrackedTime seconds={project.trackedSeconds} />
      </div>
      {expanded && children}
    </Box>
  );
}

/** A project's tracked total, in the person's duration format. */
/**
 * How the budget stands: "Near budget" from its lowest alert threshold below 100, "Over budget"
 * past it (an all-time hours budget) or from a 100 % (or higher) alert. An hours budget over all time
 * is read against the time tracked to the project; a fee or monthly budget from the budget alerts
 * recorded for its current period (`budgetReached`; the Estimates report has the figures).
 */
function BudgetState({ project }: { project: Project }) {
  const budget = project.budget;
  if (!budget) return null;
  const status =
    budget.type === 'hours' && !budget.resetsMonthly
      ? budgetStatus(project.trackedSeconds, budget.amount * 60, budgetNearPercent(budget.alertPercents))
      : budgetStateFromAlerts(project.budgetReached, budget.alertPercents);
  if (status === 'ok') return null;
  return (
    <Badge size="sm" variant="light" color={status === 'over' ? 'red' : 'orange'} style={{ flexShrink: 0 }}>
      {status === 'over' ? 'Over budget' : 'Near budget'}
    </Badge>
  );
}

function TrackedTime({ seconds }: { seconds: number }) {
  const format = useDurationFormat();
  return (
    <Text size="sm" c="dimmed" miw={56} ta="right" title="Tracked time" style={{ whiteSpace: 'nowrap' }}>
      {formatDuration(seconds, format)}
    </Text>
  );
}
