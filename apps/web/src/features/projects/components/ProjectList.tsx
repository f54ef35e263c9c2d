import { Box, Button, Group, Text } from '@mantine/core';
import { memo, useEffect } from 'react';
import { useWindowList } from '../../../components/window-list';
import type { Project, Task } from '../api';
import { ProjectRow, type ProjectRowActions } from './ProjectRow';
import { TaskTree } from './TaskTree';

/** What a project row asks of the page; one stable object for every row. */
export interface ItemActions extends ProjectRowActions {
  onToggle: (project: Project) => void;
  onEditTask: (task: Task) => void;
  onAddSub: (task: Task) => void;
  onMoveTask: (task: Task) => void;
}

/** Load the next page when the rows in view come this close to the end of those loaded. */
const LOAD_AHEAD = 20;

interface ItemProps {
  workspaceId: string;
  project: Project;
  index: number;
  measureRef: (element: HTMLElement | null) => void;
  expanded: boolean;
  selected: boolean;
  /** The task open in the edit pane, when it is one of this project's. */
  selectedTaskId: string | undefined;
  canManage: boolean;
  mine: boolean;
  archived: boolean;
  search: string;
  actions: ItemActions;
}

/** A project with its task tree while expanded; memoised, so scrolling and a new page leave it alone. */
const ProjectItem = memo(function ProjectItem({ project, actions, ...props }: ItemProps) {
  return (
    <ProjectRow
      workspaceId={props.workspaceId}
      project={project}
      index={props.index}
      measureRef={props.measureRef}
      expanded={props.expanded}
      selected={props.selected}
      canManage={props.canManage}
      onToggle={actions.onToggle}
      onAddTask={actions.onAddTask}
      onChangeColor={actions.onChangeColor}
      onMove={actions.onMove}
      onDelete={actions.onDelete}
    >
      <TaskTree
        workspaceId={props.workspaceId}
        project={project}
        mine={props.mine}
        archived={props.archived}
        matching={props.search ? project.matchingTaskIds : undefined}
        canManage={project.canEdit}
        selectedTaskId={props.selectedTaskId}
        onEdit={actions.onEditTask}
        onAddSub={actions.onAddSub}
        onMove={actions.onMoveTask}
      />
    </ProjectRow>
  );
});

/**
 * The loaded projects, only those near the viewport mounted (the window scrolls; space above and
 * below stands in for the rest). The next page loads as the end comes near; Load more stays for
 * whoever wants it now.
 */
export function ProjectList(props: {
  workspaceId: string;
  items: Project[];
  total: number;
  expanded: Set<string>;
  selectedProjectId: string | undefined;
  selectedTaskId: string | undefined;
  canManage: boolean;
  mine: boolean;
  archived: boolean;
  search: string;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  actions: ItemActions;
}) {
  const { items } = props;
  const { listRef, scrollMargin, virtualizer } = useWindowList({
    count: items.length,
    estimateSize: () => 57,
    getItemKey: (i) => items[i]?.id ?? i,
    overscan: 8,
  });
  const virtual = virtualizer.getVirtualItems();
  const lastShown = virtual.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = props;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= items.length - LOAD_AHEAD) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastShown, items.length]);

  const first = virtual[0];
  const last = virtual.at(-1);
  return (
    <>
      <Box
        ref={listRef}
        role="list"
        aria-label="Projects"
        style={{
          paddingTop: first ? first.start - scrollMargin : 0,
          paddingBottom: last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0,
        }}
      >
        {virtual.map((v) => {
          const project = items[v.index];
          if (!project) return null;
          const selected = props.selectedProjectId === project.id;
          return (
            <ProjectItem
              key={project.id}
              workspaceId={props.workspaceId}
              project={project}
              index={v.index}
              measureRef={virtualizer.measureElement}
              expanded={props.expanded.has(project.id)}
              selected={selected}
              selectedTaskId={selected ? props.selectedTaskId : undefined}
              canManage={props.canManage}
              mine={props.mine}
              archived={props.archived}
              search={props.search}
              actions={props.actions}
            />
          );
        })}
      </Box>
      {props.total > items.length && (
        <Group justify="center" gap="sm" py="sm">
          <Text size="sm" c="dimmed">
            Showing {items.length} of {props.total} projects
          </Text>
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => fetchNextPage()}
            loading={isFetchingNextPage}
            disabled={!hasNextPage}
          >
            Load more
          </Button>
        </Group>
      )}
    </>
  );
}
