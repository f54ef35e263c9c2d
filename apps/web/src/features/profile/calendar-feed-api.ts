import type { CalendarFeedBody, CalendarFeedView } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const calendarFeedKeys = { feed: (workspaceId: string) => ['calendar-feed', workspaceId] as const };

/** The person's private calendar feed of their time in the workspace (never its address). */
export const useCalendarFeed = (workspaceId: string) =>
  useQuery({
    queryKey: calendarFeedKeys.feed(workspaceId),
    queryFn: () => api('GET /workspaces/:workspaceId/calendar-feed', { params: { workspaceId } }),
  });

/** A change to the feed, after which its state is read again. */
function useFeedChange<TBody, TResult>(workspaceId: string, call: (body: TBody) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarFeedKeys.feed(workspaceId) }),
  });
}

/** Makes the feed or resets its address: the answer holds the address, this once. */
export const useIssueCalendarFeed = (workspaceId: string) =>
  useFeedChange(workspaceId, (body: CalendarFeedBody) =>
    api('POST /workspaces/:workspaceId/calendar-feed', { params: { workspaceId }, body }),
  );
export const useUpdateCalendarFeed = (workspaceId: string) =>
  useFeedChange(
    workspaceId,
    (body: CalendarFeedBody): Promise<CalendarFeedView> =>
      api('PATCH /workspaces/:workspaceId/calendar-feed', { params: { workspaceId }, body }),
  );
export const useRemoveCalendarFeed = (workspaceId: string) =>
  useFeedChange(workspaceId, (_: undefined) =>
    api('DELETE /workspaces/:workspaceId/calendar-feed', { params: { workspaceId } }),
  );
