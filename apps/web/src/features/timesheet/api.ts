import { useDebouncedValue } from '@mantine/hooks';
import {
  applyEntryEdit,
  type BulkUpdateTimeEntriesBody,
  type CreateTimeEntryBody,
  type ProjectSuggestionView,
  type StartTimerBody,
  type TimeEntryView,
  type TimeSettings,
  type UpdateTimeEntryBody,
} from '@sundial/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiUrl } from '../../api/client';
import { entriesQuery, patchTimeEntry, timeKeys } from '../../api/time';

/** A retried start, stop or create happens once. */
const once = { idempotencyKey: true } as const;

export type { TimeEntryView };

export const useEntries = (w: string, userId: string, firstDay: string, lastDay: string, timeZone: string) =>
  useQuery({
    ...entriesQuery(w, userId, firstDay, lastDay, timeZone),
    placeholderData: (previous: { items: TimeEntryView[] } | undefined) => previous,
  });

export const timerQuery = (w: string, userId: string) =>
  queryOptions({
    queryKey: timeKeys.timer(w, userId),
    queryFn: () => api('GET /workspaces/:workspaceId/timer', { params: { workspaceId: w }, query: `userId=${userId}` }),
  });
export const useTimer = (w: string, userId: string) => useQuery(timerQuery(w, userId));

export type Suggestion = ProjectSuggestionView;

/** Projects (or tasks) whose keywords occur in the note, asked of the server once typing pauses. */
export function useSuggestion(w: string, note: string, enabled: boolean): Suggestion | undefined {
  const [settled] = useDebouncedValue(note.trim(), 300);
  const query = useQuery({
    queryKey: ['time-suggestions', w, settled],
    queryFn: () =>
      api('GET /workspaces/:workspaceId/project-suggestions', {
        params: { workspaceId: w },
        query: new URLSearchParams({ note: settled }),
      }),
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
    mutationFn: (body: Partial<TimeSettings>) =>
      api('PATCH /workspaces/:workspaceId/time-settings', { params: { workspaceId: w }, body }),
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
      const params = { workspaceId: w };
      const query = { userId };
      if (action === 'start')
        return api('POST /workspaces/:workspaceId/timer/start', {
          params: { workspaceId: w },
          body: { ...body, userId },
          ...once,
        });
      if (action === 'stop') return api('POST /workspaces/:workspaceId/timer/stop', { params, query, ...once });
      if (action === 'discard') return api('DELETE /workspaces/:workspaceId/timer', { params, query });
      return api(`POST /workspaces/:workspaceId/timer/${action}`, { params, query });
    },
    onSettled: invalidate,
  });
}

export function useCreateEntry(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (body: CreateTimeEntryBody) =>
      api('POST /workspaces/:workspaceId/time-entries', { params: { workspaceId: w }, body, ...once }),
    onSettled: invalidate,
  });
}

/** The one write of an entry's fields and times (PATCH /time-entries/:id), for the timesheet and the reports. */
type EntryList = { items: TimeEntryView[] };
type Snapshot = [readonly unknown[], unknown][];

/**
 * Changes an entry and shows the change at once (optimistic): every loaded week and the timer show
 * the entry as the server will store it before the PATCH answers; the answer then replaces it, and
 * a refusal puts back what was shown before (the caller says why, see `notSaved`).
 */
export function useUpdateEntry(w: string) {
  const invalidate = useInvalidate(w);
  const queryClient = useQueryClient();
  const entriesKey = [...timeKeys.all(w), 'entries'];
  const timerKey = [...timeKeys.all(w), 'timer'];
  const replace = (id: string, change: (entry: TimeEntryView) => TimeEntryView) => {
    queryClient.setQueriesData<EntryList>({ queryKey: entriesKey }, (data) =>
      data?.items.some((e) => e.id === id)
        ? { ...data, items: data.items.map((e) => (e.id === id ? change(e) : e)) }
        : data,
    );
    queryClient.setQueriesData<{ entry: TimeEntryView | null }>({ queryKey: timerKey }, (data) =>
      data?.entry?.id === id ? { entry: change(data.entry) } : data,
    );
  };
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateTimeEntryBody }) => patchTimeEntry(w, id, body),
    onMutate: async ({ id, body }): Promise<Snapshot> => {
      // A reload already on its way would bring back the old entry over the change.
      await Promise.all([
        queryClient.cancelQueries({ queryKey: entriesKey }),
        queryClient.cancelQueries({ queryKey: timerKey }),
      ]);
      const snapshot: Snapshot = [
        ...queryClient.getQueriesData({ queryKey: entriesKey }),
        ...queryClient.getQueriesData({ queryKey: timerKey }),
      ];
      replace(id, (entry) => applyEntryEdit(entry, body));
      return snapshot;
    },
    onError: (_error, _variables, snapshot) => {
      for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
    },
    // The stored entry (the server's rounding, defaults), so a next drag or edit starts from it.
    onSuccess: (saved) => replace(saved.id, () => saved),
    onSettled: invalidate,
  });
}

export function useBulkUpdate(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (body: BulkUpdateTimeEntriesBody) =>
      api('POST /workspaces/:workspaceId/time-entries/bulk-update', { params: { workspaceId: w }, body }),
    onSettled: invalidate,
  });
}

/** Undo of a delete: the same entries come back (ids, breaks, tags) within ten minutes. */
export function useRestoreEntries(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (ids: string[]) =>
      api('POST /workspaces/:workspaceId/time-entries/restore', { params: { workspaceId: w }, body: { ids } }),
    onSettled: invalidate,
  });
}

export function useDeleteEntries(w: string) {
  const invalidate = useInvalidate(w);
  return useMutation({
    mutationFn: (ids: string[]) => {
      const [only] = ids;
      return ids.length === 1 && only !== undefined
        ? api('DELETE /workspaces/:workspaceId/time-entries/:entryId', { params: { workspaceId: w, entryId: only } })
        : api('POST /workspaces/:workspaceId/time-entries/bulk-delete', { params: { workspaceId: w }, body: { ids } });
    },
    onSettled: invalidate,
  });
}

/** Keeps this tab current: every change to the user's entries, from any tab or device, reloads them. */
export function useLiveEntries(w: string, userId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(
      apiUrl('GET /workspaces/:workspaceId/time-entries/events', { params: { workspaceId: w }, query: { userId } }),
    );
    const refresh = () => queryClient.invalidateQueries({ queryKey: timeKeys.all(w) });
    source.addEventListener('change', refresh);
    // After a dropped connection, catch up on what was missed.
    source.addEventListener('ready', refresh);
    return () => source.close();
  }, [w, userId, queryClient]);
}
