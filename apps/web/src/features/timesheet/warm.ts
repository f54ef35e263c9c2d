import { can, dayKey, type WeekStart, weekDays } from '@sundial/core';
import type { QueryClient } from '@tanstack/react-query';
import { projectPickerQuery, tagListsQuery } from '../../api/catalog';
import { membersQuery } from '../../api/people';
import { currentWorkspace, type Me } from '../../api/session';
import { entriesQuery, timeSettingsQuery } from '../../api/time';
import { timerQuery } from './api';

export const asWeekStart = (value: string): WeekStart =>
  value === 'sunday' || value === 'saturday' ? value : 'monday';

/** The days of the week the timesheet opens on: the one holding today in the user's time zone. */
export const thisWeek = (me: Me): string[] =>
  weekDays(dayKey(Date.now(), me.user.timeZone), asWeekStart(me.user.weekStart));

/**
 * Asks for what the timesheet shows first (this week's entries, the timer, the time settings, the
 * pickers, the people) under the very keys its queries use, so the answers travel while the page's
 * code loads and the page's first render already lists the entries.
 */
export default function warmTimesheet(queryClient: QueryClient, me: Me): void {
  const workspace = currentWorkspace(me);
  if (!workspace) return;
  const w = workspace.id;
  const days = thisWeek(me);
  const first = days[0];
  const last = days[6];
  if (!first || !last) return;
  void queryClient.prefetchQuery(entriesQuery(w, me.user.id, first, last, me.user.timeZone));
  void queryClient.prefetchQuery(timerQuery(w, me.user.id));
  void queryClient.prefetchQuery(timeSettingsQuery(w));
  void queryClient.prefetchQuery(projectPickerQuery(w));
  void queryClient.prefetchQuery(tagListsQuery(w, false));
  if (can(workspace.role, 'time:view_others')) void queryClient.prefetchQuery(membersQuery(w));
}
