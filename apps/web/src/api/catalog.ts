import type { ProjectPickerView, TagListView } from '@sundial/core';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/**
 * Projects, tasks, clients and tags are read by several screens (Projects, Tags, the timesheet's
 * pickers). One key factory for them all: a change saved on one screen invalidates the keys the
 * others read, so they show it without a reload.
 */
export interface ProjectFilter {
  search: string;
  mine: boolean;
  archived: boolean;
}

export const projectKeys = {
  /** Everything about the workspace's projects and tasks; project and task mutations invalidate it. */
  all: (w: string) => ['projects', w] as const,
  list: (w: string, f: ProjectFilter) => ['projects', w, 'list', f] as const,
  one: (w: string, id: string) => ['projects', w, 'one', id] as const,
  tasks: (w: string, projectId: string, mine: boolean, archived: boolean) =>
    ['projects', w, 'tasks', projectId, mine, archived] as const,
  task: (w: string, id: string) => ['projects', w, 'task', id] as const,
  /** Active projects with their active tasks, for the time-entry pickers. */
  picker: (w: string) => ['projects', w, 'picker'] as const,
  clients: (w: string) => ['clients', w] as const,
  assignable: (w: string) => ['projects', w, 'assignable'] as const,
};

export const tagKeys = {
  /** Everything about the workspace's tags; tag mutations invalidate it. */
  all: (w: string) => ['tags', w] as const,
  lists: (w: string, archived: boolean) => ['tags', w, 'lists', archived] as const,
  one: (w: string, id: string) => ['tags', w, 'one', id] as const,
  settings: (w: string) => ['tags', w, 'settings'] as const,
};

const ws = (w: string) => `/workspaces/${w}`;

/** Every active project the user sees, each with its active tasks: one request, whatever the number of projects. */
export const useProjectPicker = (w: string) =>
  useQuery({
    queryKey: projectKeys.picker(w),
    queryFn: () => api<ProjectPickerView>('GET', `${ws(w)}/project-picker`),
    // Not reloaded on every visit to the timesheet: changes made on Projects invalidate it instead.
    staleTime: 60_000,
  });

/** The tag lists with their tags (archived ones too when asked): the Tags page and the tag pickers. */
export const useTagLists = (w: string, archived: boolean) =>
  useQuery({
    queryKey: tagKeys.lists(w, archived),
    queryFn: () =>
      api<{ items: TagListView[]; total: number }>(
        'GET',
        `${ws(w)}/tag-lists?limit=500&archived=${archived ? 'all' : 'false'}`,
      ),
  });
