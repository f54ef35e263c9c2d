import { useDebouncedValue } from '@mantine/hooks';
import {
  type BulkUpdateTimeEntriesBody,
  type CreateTimeEntryBody,
  dayBounds,
  isApiErrorBody,
  type StartTimerBody,
  type TimeEntryView,
  type TimeSettings,
  type UpdateTimeEntryBody,
} from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, api } from '../../api/client';

export type { TimeEntryView };

const ws = (w: string) => `/workspaces/${w}`;

export const timeKeys = {
  all: (w: string) => ['time', w] as const,
  entries: (w: string, userId: string, from: string, to: string) => ['time', w, 'entries', userId, from, to] as const,
  timer: (w: string, userId: string) => ['time', w, 'timer', userId] as const,
  settings: (w: string) => ['time', w, 'settings'] as const,
  pickers: (w: string) => ['time-pickers', w] as const,
};

/** Like api(), with an Idempotency-Key so a retried start, stop or create happens once. */
async function apiOnce<T>(method: string, path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  const data: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (isApiErrorBody(data))
      throw new ApiError(response.status, data.error.code, data.error.message, data.error.fields);
    throw new ApiError(response.status, 'unknown_error', 'Something went wrong. Please try again.');
  }
  return data as T;
}

/** Every entry of the user touching the local days first..last (inclusive). */
export function useEntries(w: string, userId: string, firstDay: string, lastDay: string, timeZone: string) {
  const from = new Date(dayBounds(firstDay, timeZone).startMs).toISOString();
  const to = new Date(dayBounds(lastDay, timeZone).endMs).toISOString();
  return useQuery({
    queryKey: timeKeys.entries(w, userId, from, to),
    queryFn: () =>
      api<{ items: TimeEntryView[] }>(
        'GET',
        `${ws(w)}/time-entries?${new URLSearchParams({ from, to, userId, limit: '1000' })}`,
      ),
    placeholderData: (previous) => previous,
  });
}

export const useTimer = (w: string, userId: string) =>
  useQuery({
    queryKey: timeKeys.timer(w, userId),
    queryFn: () => api<{ entry: TimeEntryView | null }>('GET', `${ws(w)}/timer?userId=${userId}`),
  });

export const useTimeSettings = (w: string) =>
  useQuery({ queryKey: timeKeys.settings(w), queryFn: () => api<TimeSettings>('GET', `${ws(w)}/time-settings`) });

export interface PickerProject {
  id: string;
  name: string;
  color: string;
  clientName: string | null;
  billableDefault: boolean;
  keywordsEnabled: boolean;
  keywords: string[];
  taskCount: number;
}
export interface PickerTask {
  id: string;
  projectId: string;
  name: string;
}
export interface PickerTag {
  id: string;
  name: string;
}
export interface Member {
  userId: string;
  name: string;
  email: string;
}

/** Projects, their tasks and tags for pickers and row names; empty when those APIs refuse. */
export function usePickers(w: string) {
  return useQuery({
    queryKey: timeKeys.pickers(w),
    queryFn: async () => {
      const projects = await api<{ items: PickerProject[] }>('GET', `${ws(w)}/projects?limit=500`).catch(() => ({
        items: [] as PickerProject[],
      }));
      const tasks = (
        await Promise.all(
          projects.items
            .filter((p) => p.taskCount > 0)
            .map((p) =>
              api<{ items: PickerTask[] }>('GET', `${ws(w)}/projects/${p.id}/tasks?archived=false`).catch(() => ({
                items: [] as PickerTask[],
              })),
            ),
        )
      ).flatMap((r) => r.items);
      const lists = await api<{ items: { tags: (PickerTag & { archived: boolean })[] }[] }>(
        'GET',
        `${ws(w)}/tag-lists?limit=100`,
      ).catch(() => ({ items: [] }));
      const tags = lists.items.flatMap((l) => l.tags).filter((t) => !t.archived);
      return { projects: projects.items, tasks, tags };
    },
    staleTime: 60_000,
  });
}

/** The people whose timesheet the user may open: everyone for owners and admins, a manager's people. */
export const useMembers = (w: string, enabled: boolean) =>
  useQuery({
    queryKey: ['time-members', w],
    queryFn: () => api<{ items: Member[] }>('GET', `${ws(w)}/time-entries/people`),
    enabled,
  });

export interface Suggestion {
  projectId: string;
  projectName: string;
  taskId: string | null;
  taskName: string | null;
  keyword: string;
}

/** Projects (or tasks) whose keywords occur in the note, asked of the server once typing pauses. */
export function useSuggestion(w: string, note: string, enabled: boolean): Suggestion | undefined {
  const [settled] = useDebouncedValue(note.trim(), 300);
  const query = useQuery({
    queryKey: ['time-suggestions', w, settled],
    queryFn: () =>
      api<{ items: Suggestion[] }>('GET', `${ws(w)}/project-suggestions?${new URLSearchParams({ note: settled })}`),
    enabled: enabled && settled !== '',
    staleTime: 60_000,
  });
  return enabled && settled !== '' ? query.data?.items[0] : undefined;
}

function useInvalidate(w: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: timeKeys.all(w) });
}

export function useSaveTimeSettings(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (body: Partial<TimeSettings>) => api<TimeSettings>('PATCH', `${ws(w)}/time-settings`, body),
    onSettled: invalidate,
  });
}

export function useTimerAction(w: string, userId: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: ({
      action,
      body,
    }: {
      action: 'start' | 'stop' | 'pause' | 'resume' | 'discard';
      body?: StartTimerBody;
    }) => {
      const q = `?userId=${userId}`;
      if (action === 'start') return apiOnce<unknown>('POST', `${ws(w)}/timer/start`, { ...body, userId });
      if (action === 'stop') return apiOnce<unknown>('POST', `${ws(w)}/timer/stop${q}`, {});
      if (action === 'discard') return api<unknown>('DELETE', `${ws(w)}/timer${q}`);
      return api<unknown>('POST', `${ws(w)}/timer/${action}${q}`, {});
    },
    onSettled: invalidate,
  });
}

export function useCreateEntry(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (body: CreateTimeEntryBody) => apiOnce<TimeEntryView>('POST', `${ws(w)}/time-entries`, body),
    onSettled: invalidate,
  });
}

export function useUpdateEntry(w: string) {
  const invalidate = useInvalidate(w);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateTimeEntryBody }) =>
      api<TimeEntryView>('PATCH', `${ws(w)}/time-entries/${id}`, body),
    // Show the saved entry at once, so a next drag or edit starts from it, then reload.
    onSuccess: (saved) => {
      queryClient.setQueriesData<{ items: TimeEntryView[] }>({ queryKey: [...timeKeys.all(w), 'entries'] }, (data) =>
        data ? { ...data, items: data.items.map((e) => (e.id === saved.id ? saved : e)) } : data,
      );
    },
    onSettled: invalidate,
  });
}

export function useBulkUpdate(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (body: BulkUpdateTimeEntriesBody) =>
      api<{ items: TimeEntryView[] }>('POST', `${ws(w)}/time-entries/bulk-update`, body),
    onSettled: invalidate,
  });
}

/** Undo of a delete: the same entries come back (ids, breaks, tags) within ten minutes. */
export function useRestoreEntries(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (ids: string[]) => api<{ items: TimeEntryView[] }>('POST', `${ws(w)}/time-entries/restore`, { ids }),
    onSettled: invalidate,
  });
}

export function useDeleteEntries(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (ids: string[]) =>
      ids.length === 1
        ? api<void>('DELETE', `${ws(w)}/time-entries/${ids[0]}`)
        : api<unknown>('POST', `${ws(w)}/time-entries/bulk-delete`, { ids }),
    onSettled: invalidate,
  });
}

/** Keeps this tab current: every change to the user's entries, from any tab or device, reloads them. */
export function useLiveEntries(w: string, userId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/v1${ws(w)}/time-entries/events?userId=${userId}`);
    const refresh = () => queryClient.invalidateQueries({ queryKey: timeKeys.all(w) });
    source.addEventListener('change', refresh);
    // After a dropped connection, catch up on what was missed.
    source.addEventListener('ready', refresh);
    return () => source.close();
  }, [w, userId, queryClient]);
}
