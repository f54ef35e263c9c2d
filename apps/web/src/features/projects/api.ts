import type {
  AssignableView,
  BudgetView,
  ClientCreateBody,
  ClientUpdateBody,
  ClientView,
  MembersBody,
  PeopleView,
  ProjectCreateBody,
  ProjectDetailView,
  ProjectListItemView,
  ProjectPeopleBody,
  ProjectUpdateBody,
  ProjectView,
  TaskCreateBody,
  TaskDetailView,
  TaskUpdateBody,
  TaskView,
} from '@sundial/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type ProjectFilter, projectKeys, tagKeys } from '../../api/catalog';
import { api } from '../../api/client';

export type Budget = NonNullable<BudgetView>;
/** canManage: the project-level "Can manage" grant (never set on tasks). */
export type People = PeopleView;
/** A project in the list or in detail; in a search, matchingTaskIds names the tasks that matched. */
export type Project = ProjectView & Partial<Pick<ProjectListItemView, 'matchingTaskIds'>>;
export type ProjectDetail = ProjectDetailView;
export type Task = TaskView;
export type TaskDetail = TaskDetailView;
export type Client = ClientView;
export type Assignable = AssignableView;
export type { ProjectFilter };
export { projectKeys };

const _ws = (workspaceId: string) => `/workspaces/${workspaceId}`;

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
      return api('GET /workspaces/:workspaceId/projects', { params: { workspaceId: w }, query: q });
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
  useQuery({
    queryKey: projectKeys.one(w, id),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/projects/:projectId', { params: { workspaceId: w, projectId: id } }),
  });

export const useTasks = (w: string, projectId: string, mine: boolean, archived: boolean, enabled = true) =>
  useQuery({
    enabled: enabled && projectId !== '',
    queryKey: projectKeys.tasks(w, projectId, mine, archived),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/projects/:projectId/tasks', {
        params: { workspaceId: w, projectId },
        query: `archived=${archived ? 'all' : 'false'}${mine ? '&mine=true' : ''}`,
      }),
  });

export const useTask = (w: string, id: string) =>
  useQuery({
    queryKey: projectKeys.task(w, id),
    queryFn: () => api('GET /workspaces/:workspaceId/tasks/:taskId', { params: { workspaceId: w, taskId: id } }),
    enabled: id !== '',
  });

export const useAssignable = (w: string, enabled: boolean) =>
  useQuery({
    queryKey: projectKeys.assignable(w),
    queryFn: () => api('GET /workspaces/:workspaceId/project-assignees', { params: { workspaceId: w } }),
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
  useProjectsMutation(w, (body: ProjectCreateBody) =>
    api('POST /workspaces/:workspaceId/projects', { params: { workspaceId: w }, body }),
  );
export const useUpdateProject = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: ProjectUpdateBody & { id: string }) =>
    api('PATCH /workspaces/:workspaceId/projects/:projectId', { params: { workspaceId: w, projectId: id }, body }),
  );
export const useSetProjectPeople = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: ProjectPeopleBody & { id: string }) =>
    api('PUT /workspaces/:workspaceId/projects/:projectId/people', { params: { workspaceId: w, projectId: id }, body }),
  );
export const useArchiveProject = (w: string) =>
  useProjectsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api(`POST /workspaces/:workspaceId/projects/:projectId/${archived ? 'archive' : 'restore'}`, {
      params: { workspaceId: w, projectId: id },
    }),
  );
export const useDeleteProject = (w: string) =>
  useProjectsMutation(w, (id: string) =>
    api('DELETE /workspaces/:workspaceId/projects/:projectId', { params: { workspaceId: w, projectId: id } }),
  );

export const useCreateTask = (w: string) =>
  useProjectsMutation(w, ({ projectId, ...body }: TaskCreateBody & { projectId: string }) =>
    api('POST /workspaces/:workspaceId/projects/:projectId/tasks', { params: { workspaceId: w, projectId }, body }),
  );
export const useUpdateTask = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: TaskUpdateBody & { id: string }) =>
    api('PATCH /workspaces/:workspaceId/tasks/:taskId', { params: { workspaceId: w, taskId: id }, body }),
  );
export const useSetTaskPeople = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: MembersBody & { id: string }) =>
    api('PUT /workspaces/:workspaceId/tasks/:taskId/people', { params: { workspaceId: w, taskId: id }, body }),
  );
export const useArchiveTask = (w: string) =>
  useProjectsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api(`POST /workspaces/:workspaceId/tasks/:taskId/${archived ? 'archive' : 'restore'}`, {
      params: { workspaceId: w, taskId: id },
    }),
  );
export const useDeleteTask = (w: string) =>
  useProjectsMutation(w, (id: string) =>
    api('DELETE /workspaces/:workspaceId/tasks/:taskId', { params: { workspaceId: w, taskId: id } }),
  );

export const useCreateClient = (w: string) =>
  useProjectsMutation(w, (body: ClientCreateBody) =>
    api('POST /workspaces/:workspaceId/clients', { params: { workspaceId: w }, body }),
  );
export const useUpdateClient = (w: string) =>
  useProjectsMutation(w, ({ id, ...body }: ClientUpdateBody & { id: string }) =>
    api('PATCH /workspaces/:workspaceId/clients/:clientId', { params: { workspaceId: w, clientId: id }, body }),
  );
export const useArchiveClient = (w: string) =>
  useProjectsMutation(w, ({ id, archived }: { id: string; archived: boolean }) =>
    api(`POST /workspaces/:workspaceId/clients/:clientId/${archived ? 'archive' : 'restore'}`, {
      params: { workspaceId: w, clientId: id },
    }),
  );
export const useDeleteClient = (w: string) =>
  useProjectsMutation(w, (id: string) =>
    api('DELETE /workspaces/:workspaceId/clients/:clientId', { params: { workspaceId: w, clientId: id } }),
  );

/** "12:05" for 12 hours 5 minutes. */

/** Advanced tags: the lists a project requires, set from the project (the tag lists show them). */
export function useSaveRequiredTagLists(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, tagListIds }: { projectId: string; tagListIds: string[] }) =>
      api('PUT /workspaces/:workspaceId/projects/:projectId/required-tag-lists', {
        params: { workspaceId: w, projectId },
        body: { tagListIds },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tagKeys.all(w) }),
  });
}
