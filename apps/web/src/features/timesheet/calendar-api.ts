import type { CalendarEventEntryBody, CalendarRuleBody, CreateCalendarSubscriptionBody } from '@sundial/core';
import { dayBounds } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { timeKeys } from '../../api/time';

/** Calendars one subscribes to, their events and keyword rules: each key under the workspace's. */
export const calendarKeys = {
  all: (w: string) => ['calendars', w] as const,
  subscriptions: (w: string) => ['calendars', w, 'subscriptions'] as const,
  events: (w: string, from: string, to: string) => ['calendars', w, 'events', from, to] as const,
  rules: (w: string) => ['calendars', w, 'rules'] as const,
};

export const useCalendarSubscriptions = (w: string) =>
  useQuery({
    queryKey: calendarKeys.subscriptions(w),
    queryFn: () => api('GET /workspaces/:workspaceId/calendar-subscriptions', { params: { workspaceId: w } }),
  });

/** The person's calendar events touching the local days first..last, refetched every hour. */
export function useCalendarEvents(w: string, firstDay: string, lastDay: string, timeZone: string, enabled: boolean) {
  const from = new Date(dayBounds(firstDay, timeZone).startMs).toISOString();
  const to = new Date(dayBounds(lastDay, timeZone).endMs).toISOString();
  return useQuery({
    queryKey: calendarKeys.events(w, from, to),
    queryFn: () =>
      api('GET /workspaces/:workspaceId/calendar-events', {
        params: { workspaceId: w },
        query: new URLSearchParams({ from, to }),
      }),
    enabled,
    refetchInterval: 3_600_000,
  });
}

export const useCalendarRules = (w: string) =>
  useQuery({
    queryKey: calendarKeys.rules(w),
    queryFn: () => api('GET /workspaces/:workspaceId/calendar-rules', { params: { workspaceId: w } }),
  });

/** A change to calendars, after which everything of calendars is read again. */
function useCalendarChange<TBody, TResult>(w: string, call: (body: TBody) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: calendarKeys.all(w) }),
  });
}

export const useSubscribeCalendar = (w: string) =>
  useCalendarChange(w, (body: CreateCalendarSubscriptionBody) =>
    api('POST /workspaces/:workspaceId/calendar-subscriptions', { params: { workspaceId: w }, body }),
  );
export const useUnsubscribeCalendar = (w: string) =>
  useCalendarChange(w, (subscriptionId: string) =>
    api('DELETE /workspaces/:workspaceId/calendar-subscriptions/:subscriptionId', {
      params: { workspaceId: w, subscriptionId },
    }),
  );
export const useRefreshCalendar = (w: string) =>
  useCalendarChange(w, (subscriptionId: string) =>
    api('POST /workspaces/:workspaceId/calendar-subscriptions/:subscriptionId/refresh', {
      params: { workspaceId: w, subscriptionId },
    }),
  );
export const useAddCalendarRule = (w: string) =>
  useCalendarChange(w, (body: CalendarRuleBody) =>
    api('POST /workspaces/:workspaceId/calendar-rules', { params: { workspaceId: w }, body }),
  );
export const useRemoveCalendarRule = (w: string) =>
  useCalendarChange(w, (ruleId: string) =>
    api('DELETE /workspaces/:workspaceId/calendar-rules/:ruleId', { params: { workspaceId: w, ruleId } }),
  );

/** Turns an event into an entry: the timesheet and the events are read again. */
export function useEventToEntry(w: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, body }: { eventId: string; body: CalendarEventEntryBody }) =>
      api('POST /workspaces/:workspaceId/calendar-events/:eventId/entry', {
        params: { workspaceId: w, eventId },
        body,
        idempotencyKey: true,
      }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: calendarKeys.all(w) }),
        queryClient.invalidateQueries({ queryKey: timeKeys.all(w) }),
      ]);
    },
  });
}
