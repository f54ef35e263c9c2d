import type {
  ClientCreateBody,
  ClientUpdateBody,
  MembersBody,
  ProjectCreateBody,
  ProjectPeopleBody,
  ProjectUpdateBody,
  TaskCreateBody,
  TaskUpdateBody,
} from '@sundial/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client';

export interface Budget {
  type: 'hours' | 'fee';
  amount: number;
  resetsMonthly: boolean;
}
/** canManage: the project-level "Can manage" grant (never set on tasks). */
export interface People {
  users: { id: string; email: string; name: string; canManage: boolean }[];
  groups: { id: string; name: string; canManage: boolean }[];
}
interface Sections {
  description: string | null;
  budget: Budget | null;
  billableDefault: boolean;
  keywordsEnabled: boolean;
  keywords: string[];
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}
export interface Project extends Sections {
  id: string;
  name: string;
  color: string;
  clientId: string | null;
  clientName: string | null;
  ownerUserId: string | null;
  ownerEmail: string | null;
  /** '' when the owner has given no name. */
  ownerName: string | null;
  isPublic: boolean;
  taskCount: number;
  trackedSeconds: number;
  /** The caller may edit it and its tasks (Manager and above, or a member holding "Can manage"). */
  canEdit: boolean;
  /** In a search: the tasks whose names matched (the list opens their project to show them). */
  matchingTaskIds?: string[];
}
export interface ProjectDetail extends Project {
  people: People;
}
export interface Task extends Sections {
  id: string;
  projectId: string;
  parentTaskId: string | null;
  name: string;
}
export interface TaskDetail extends Task {
  people: People;
}
export interface Client {
  id: string;
  name: string;
  address: string | null;
  currency: string | null;
  note: string | null;
  archived: boolean;
  projectCount: number;
}
export interface Page<T> {
  items: T[];
  total: number;
}
export interface Assignable {
  users: { id: string; email: string; name: string; role: string }[];
  groups: { id: string; name: string }[];
}

export interface ProjectFilter {
  search: string;
  mine: boolean;
  archived: boolean;
}

const ws = (workspaceId: string) => `/workspaces/${workspaceId}`;

export const projectKeys = {
  all: (w: string) => ['projects', w] as const,
  list: (w: string, f: ProjectFilter) => ['projects', w, 'list', f] as const,
  one: (w: string, id: string) => ['projects', w, 'one', id] as const,
  tasks: (w: string, projectId: string, mine: boolean, archived: boolean) =>
    ['projects', w, 'tasks', projectId, mine, archived] as const,
  task: (w: string, id: string) => ['projects', w, 'task', id] as const,
  clients: (w: string) => ['clients', w] as const,
  assignable: (w: string) => ['projects', w, 'assignable'] as const,
};

/** Projects per page of the left pane; "Load more" fetches the next page. */
export const PROJECTS_PAGE = 100;

/** The projects of the left pane, a page at a time (the API's limit/offset). */
export function useProjects(w: string, f: ProjectFilter) {
  const query = useInfiniteQuery({
    queryKey: projectKeys.list(w, f),
    initialPageParam: 0,
    queryFn: ({ pageParam }) => {
      // "Archived" shows archived projects and tasks beside the active ones, marked as such.
      const q = new URLSearchParams({
        limit: String(PROJECTS_PAGE),
        offset: String(pageParam),
        archived: f.archived ? 'all' : 'false',
      });
      if (f.search.trim()) q.set('search', f.search.trim());
      if (f.mine) q.set('mine', 'true');
      return api<Page<Project>>('GET', `${ws(w)}/projects?${q}`);
    },
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return last.items.length > 0 && loaded < last.total ? loaded : undefined;
    },
    placeholderData: (previous) => previous,
  });
  const pages = query.data?.pages;
  // A project may shift between pages while others are added or deleted: show it once.
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (pages ?? []).flatMap((p) => p.items).filter((p) => !seen.has(p.id) && seen.add(p.id));
  }, [pages]);
  return { ...query, items, total: pages?.at(-1)?.total ?? 0 };
}

export const useProject = (w: string, id: string) =>
  useQuery({ queryKey: projectKeys.one(w, id), queryFn: () => api<ProjectDetail>('GET', `${ws(w)}/projects/${id}`) });

export const useTasks = (w: string, projectId: string, mine: boolean, archived: boolean, enabled = true) =>
  useQuery({
    enabled: enabled && projectId !== '',
    queryKey: projectKeys.tasks(w, projectId, mine, archived),
    queryFn: () =>
      api<{ items: Task[] }>(
        'GET',
        `${ws(w)}/projects/${projectId}/tasks?archived=${archived ? 'all' : 'false'}${mine ? '&mine=true' : ''}`,
      ),
  });

export const useTask = (w: string, id: string) =>
  useQuery({
    queryKey: projectKeys.task(w, id),
    queryFn: () => api<TaskDetail>('GET', `${ws(w)}/tasks/${id}`),
    enabled: id !== '',
  });

export const useClients = (w: string, enabled = true) =>
  useQuery({
    queryKey: projectKeys.clients(w),
    queryFn: () => api<Page<Client>>('GET', `${ws(w)}/clients?limit=500&archived=all`),
    enabled,
  });

export const useAssignable = (w: string, enabled: boolean) =>
  useQuery({
    queryKey: projectKeys.assignable(w),
    queryFn: () => api<Assignable>('GET', `${ws(w)}/project-assignees`),
    enabled,
  });

/** A mutation that reloads projects (and clients) afterwards, as the spec's refetching rules say. */
function useProjectsMutation<TVars, TResult>(w: string, fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.all(w) }),
        queryClient.invalidateQueries({ queryKey: projectKeys.clients(w) }),
      ]);
    },
  });
}

export const useCreateProject = (w: string) =>
  useProjectsMutation(w, (body: ProjectCreateBody) => api<ProjectDetail>('POST', `${ws(w)}/projects`, body));
export const useUpdateProject = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: ProjectUpdateBody & { id: string }) =>
    api<ProjectDetail>('PATCH', `${ws(w)}/projects/${id}`, body),
  );
export const useSetProjectPeople = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: ProjectPeopleBody & { id: string }) =>
    api<ProjectDetail>('PUT', `${ws(w)}/projects/${id}/people`, body),
  );
export const useArchiveProject = (w: string) =>
  useProjectsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api<ProjectDetail>('POST', `${ws(w)}/projects/${id}/${archived ? 'archive' : 'restore'}`),
  );
export const useDeleteProject = (w: string) =>
  useProjectsMutation(w, (id: string) => api<void>('DELETE', `${ws(w)}/projects/${id}`));

export const useCreateTask = (w: string) =>
  useProjectsMutation(w, ({ projectId, ...body }: TaskCreateBody & { projectId: string }) =>
    api<TaskDetail>('POST', `${ws(w)}/projects/${projectId}/tasks`, body),
  );
export const useUpdateTask = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: TaskUpdateBody & { id: string }) =>
    api<TaskDetail>('PATCH', `${ws(w)}/tasks/${id}`, body),
  );
export const useSetTaskPeople = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: MembersBody & { id: string }) =>
    api<TaskDetail>('PUT', `${ws(w)}/tasks/${id}/people`, body),
  );
export const useArchiveTask = (w: string) =>
  useProjectsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api<TaskDetail>('POST', `${ws(w)}/tasks/${id}/${archived ? 'archive' : 'restore'}`),
  );
export const useDeleteTask = (w: string) =>
  useProjectsMutation(w, (id: string) => api<void>('DELETE', `${ws(w)}/tasks/${id}`));

export const useCreateClient = (w: string) =>
  useProjectsMutation(w, (body: ClientCreateBody) => api<Client>('POST', `${ws(w)}/clients`, body));
export const useUpdateClient = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: ClientUpdateBody & { id: string }) =>
    api<Client>('PATCH', `${ws(w)}/clients/${id}`, body),
  );
export const useArchiveClient = (w: string) =>
  useProjectsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api<Client>('POST', `${ws(w)}/clients/${id}/${archived ? 'archive' : 'restore'}`),
  );
export const useDeleteClient = (w: string) =>
  useProjectsMutation(w, (id: string) => api<void>('DELETE', `${ws(w)}/clients/${id}`));

/** "12:05" for 12 hours 5 minutes. */
