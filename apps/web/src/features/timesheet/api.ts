import { useDebouncedValue } from '@mantine/hooks';
import {
  type BulkUpdateTimeEntriesBody,
  type CreateTimeEntryBody,
  dayBounds,
  type ProjectSuggestionView,
  type ProjectView,
  type StartTimerBody,
  type TagView,
  type TaskView,
  type TimeEntryView,
  type TimeSettings,
  type TimesheetPersonView,
  type UpdateTimeEntryBody,
} from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useProjectPicker, useTagLists } from '../../api/catalog';
import { api } from '../../api/client';

/** A retried start, stop or create happens once. */
const once = { idempotencyKey: true } as const;

export type { TimeEntryView };

const ws = (w: string) => `/workspaces/${w}`;

export const timeKeys = {
  all: (w: string) => ['time', w] as const,
  entries: (w: string, userId: string, from: string, to: string) => ['time', w, 'entries', userId, from, to] as const,
  timer: (w: string, userId: string) => ['time', w, 'timer', userId] as const,
  settings: (w: string) => ['time', w, 'settings'] as const,
};

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

export type PickerProject = ProjectView;
export type PickerTask = TaskView;
export type PickerTag = TagView;
export type Member = TimesheetPersonView;

/**
 * Projects, their tasks and tags for pickers and row names: two requests whatever the number of
 * projects, read through the same keys as the Projects and Tags pages, so what those change shows
 * here at once. Empty while loading or when those APIs refuse.
 */
export function usePickers(w: string) {
  const picker = useProjectPicker(w);
  const tagLists = useTagLists(w, false);
  const projectItems = picker.data?.items;
  const listItems = tagLists.data?.items;
  const data = useMemo(() => {
    if (!projectItems && !listItems) return undefined;
    const projects = (projectItems ?? []).map(({ tasks: _tasks, ...project }) => project);
    const tasks = (projectItems ?? []).flatMap((p) => p.tasks);
    const tags = (listItems ?? []).flatMap((l) => l.tags).filter((t) => !t.archived);
    return { projects, tasks, tags };
  }, [projectItems, listItems]);
  return { data };
}

/** The people whose timesheet the user may open: everyone for owners and admins, a manager's people. */
export const useMembers = (w: string, enabled: boolean) =>
  useQuery({
    queryKey: ['time-members', w],
    queryFn: () => api<{ items: Member[] }>('GET', `${ws(w)}/time-entries/people`),
    enabled,
  });

export type Suggestion = ProjectSuggestionView;

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
      if (action === 'start') return api<unknown>('POST', `${ws(w)}/timer/start`, { ...body, userId }, once);
      if (action === 'stop') return api<unknown>('POST', `${ws(w)}/timer/stop${q}`, {}, once);
      if (action === 'discard') return api<unknown>('DELETE', `${ws(w)}/timer${q}`);
      return api<unknown>('POST', `${ws(w)}/timer/${action}${q}`, {});
    },
    onSettled: invalidate,
  });
}

export function useCreateEntry(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (body: CreateTimeEntryBody) => api<TimeEntryView>('POST', `${ws(w)}/time-entries`, body, once),
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
