import { useDebouncedValue } from '@mantine/hooks';
import {
  applyEntryEdit,
  type BulkUpdateTimeEntriesBody,
  type CreateTimeEntryBody,
  dayBounds,
  type ProjectSuggestionView,
  type StartTimerBody,
  type TimeEntryView,
  type TimeSettings,
  type UpdateTimeEntryBody,
} from '@sundial/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client';
import { patchTimeEntry, timeKeys } from '../../api/time';

/** A retried start, stop or create happens once. */
const once = { idempotencyKey: true } as const;

export type { TimeEntryView };

const ws = (w: string) => `/workspaces/${w}`;

/** Every entry of the user touching the local days first..last (inclusive). */
export function entriesQuery(w: string, userId: string, firstDay: string, lastDay: string, timeZone: string) {
  const from = new Date(dayBounds(firstDay, timeZone).startMs).toISOString();
  const to = new Date(dayBounds(lastDay, timeZone).endMs).toISOString();
  return queryOptions({
    queryKey: timeKeys.entries(w, userId, from, to),
    queryFn: () =>
      api<{ items: TimeEntryView[] }>(
        'GET',
        `${ws(w)}/time-entries?${new URLSearchParams({ from, to, userId, limit: '1000' })}`,
      ),
  });
}

export const useEntries = (w: string, userId: string, firstDay: string, lastDay: string, timeZone: string) =>
  useQuery({
    ...entriesQuery(w, userId, firstDay, lastDay, timeZone),
    placeholderData: (previous: { items: TimeEntryView[] } | undefined) => previous,
  });

export const timerQuery = (w: string, userId: string) =>
  queryOptions({
    queryKey: timeKeys.timer(w, userId),
    queryFn: () => api<{ entry: TimeEntryView | null }>('GET', `${ws(w)}/timer?userId=${userId}`),
  });
export const useTimer = (w: string, userId: string) => useQuery(timerQuery(w, userId));

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
