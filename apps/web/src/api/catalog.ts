import { useDebouncedValue } from '@mantine/hooks';
import { PICKER_MAX_IDS, type PickerProjectView, type TagView, type TaskView } from '@sundial/core';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
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
  /** Active projects with their active tasks, for the time-entry pickers (every key below starts with it). */
  picker: (w: string) => ['projects', w, 'picker'] as const,
  pickerIds: (w: string, ids: string[]) => ['projects', w, 'picker', 'ids', ids] as const,
  pickerSearch: (w: string, search: string) => ['projects', w, 'picker', 'search', search] as const,
  /** Projects a picker's search found beyond the first answer, kept so every picker can name them. */
  pickerFound: (w: string) => ['projects', w, 'picker', 'found'] as const,
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

const _ws = (w: string) => `/workspaces/${w}`;

/**
 * The pickers' first answer: up to 300 active projects the user sees, each with its active tasks, in
 * one request. `complete` is false when there are more: the pickers then search on the server.
 */
export const projectPickerQuery = (w: string) =>
  queryOptions({
    queryKey: projectKeys.picker(w),
    queryFn: () => api('GET /workspaces/:workspaceId/project-picker', { params: { workspaceId: w } }),
    // Not reloaded on every visit to the timesheet: changes made on Projects invalidate it instead.
    staleTime: 60_000,
  });
export const useProjectPicker = (w: string) => useQuery(projectPickerQuery(w));

/** Projects asked for by id (those the shown entries name that the first answer left out). */
export const useProjectPickerByIds = (w: string, ids: string[], enabled: boolean) =>
  useQuery({
    queryKey: projectKeys.pickerIds(w, ids),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/project-picker', {
        params: { workspaceId: w },
        query: new URLSearchParams({ ids: ids.join(',') }),
      }),
    enabled: enabled && ids.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

const byId = (lists: PickerProjectView[][]): PickerProjectView[] => [
  ...new Map(lists.flat().map((p) => [p.id, p])).values(),
];

/** What the pickers' searches have found so far (filled by useProjectPickerSearch, never fetched). */
export function useProjectPickerFound(w: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: projectKeys.pickerFound(w),
    queryFn: () => queryClient.getQueryData<PickerProjectView[]>(projectKeys.pickerFound(w)) ?? [],
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Searches the user's projects on the server once typing pauses; what it finds joins
 * useProjectPickerFound, so the entry that picks it can read its name, colour and billable default.
 */
export function useProjectPickerSearch(w: string, search: string, enabled: boolean) {
  const queryClient = useQueryClient();
  const [settled] = useDebouncedValue(search.trim(), 250);
  const query = useQuery({
    queryKey: projectKeys.pickerSearch(w, settled),
    queryFn: async () => {
      const answer = await api('GET /workspaces/:workspaceId/project-picker', {
        params: { workspaceId: w },
        query: new URLSearchParams({ search: settled }),
      });
      queryClient.setQueryData<PickerProjectView[]>(projectKeys.pickerFound(w), (found = []) =>
        byId([found, answer.items]),
      );
      return answer;
    },
    enabled: enabled && settled !== '',
    staleTime: 60_000,
  });
  return { isSearching: enabled && (settled !== search.trim() || query.isFetching) };
}

/** Projects from several picker answers, once each, by name (the order the server gives). */
export function mergePickerProjects(lists: PickerProjectView[][]): PickerProjectView[] {
  const merged = byId(lists);
  if (lists.filter((l) => l.length > 0).length <= 1) return merged;
  return merged.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
}

/** The tag lists with their tags (archived ones too when asked): the Tags page and the tag pickers. */
export const tagListsQuery = (w: string, archived: boolean) =>
  queryOptions({
    queryKey: tagKeys.lists(w, archived),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/tag-lists', {
        params: { workspaceId: w },
        query: `limit=500&archived=${archived ? 'all' : 'false'}`,
      }),
    // An answer fetched ahead (sign-in warms the timesheet) is not asked again as the pickers mount;
    // the Tags page's changes invalidate it.
    staleTime: 10_000,
  });
export const useTagLists = (w: string, archived: boolean) => useQuery(tagListsQuery(w, archived));

export type PickerProject = Omit<PickerProjectView, 'tasks'>;
export type PickerTask = TaskView;
export type PickerTag = TagView;

/**
 * Projects, their tasks and tags for pickers and row names, read through the same keys as the
 * Projects and Tags pages, so what those change shows here at once. At most three requests
 * whatever the number of projects: the first picker answer (up to 300 projects), the tags, and,
 * only when the first answer is not complete, the projects `namedProjectIds` (the shown entries
 * and the timer) need that it left out. Projects a picker's search found join them. Empty while
 * loading or when those APIs refuse.
 */
export function usePickers(w: string, namedProjectIds: (string | null)[] = []) {
  const picker = useProjectPicker(w);
  const tagLists = useTagLists(w, false);
  const found = useProjectPickerFound(w);
  const firstItems = picker.data?.items;
  const complete = picker.data?.complete ?? true;
  const wantedKey = [...new Set(namedProjectIds.filter((id): id is string => id !== null))].sort().join(',');
  const missing = useMemo(() => {
    const loaded = new Set((firstItems ?? []).map((p) => p.id));
    return wantedKey
      .split(',')
      .filter((id) => id !== '' && !loaded.has(id))
      .slice(0, PICKER_MAX_IDS);
  }, [firstItems, wantedKey]);
  const named = useProjectPickerByIds(w, missing, !complete);
  const namedItems = complete ? undefined : named.data?.items;
  const foundItems = complete ? undefined : found.data;
  const listItems = tagLists.data?.items;
  const data = useMemo(() => {
    if (!firstItems && !listItems) return undefined;
    const items = mergePickerProjects([firstItems ?? [], namedItems ?? [], foundItems ?? []]);
    const projects = items.map(({ tasks: _tasks, ...project }) => project);
    const tasks = items.flatMap((p) => p.tasks);
    const tags = (listItems ?? []).flatMap((l) => l.tags).filter((t) => !t.archived);
    return { projects, tasks, tags, complete, workspaceId: w };
  }, [firstItems, namedItems, foundItems, listItems, complete, w]);
  return { data };
}

/** The workspace's clients, archived ones too (Projects, the invoice dialog and the report filters). */
export const useClients = (w: string, enabled = true) =>
  useQuery({
    queryKey: projectKeys.clients(w),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/clients', { params: { workspaceId: w }, query: 'limit=500&archived=all' }),
    enabled,
  });
