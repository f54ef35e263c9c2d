import type { TimesheetPersonView } from '@sundial/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

export type Member = TimesheetPersonView;

/** The people whose timesheet the user may open: everyone for owners and admins, a manager's people. */
export const membersQuery = (w: string) =>
  queryOptions({
    queryKey: ['time-members', w],
    queryFn: () => api('GET /workspaces/:workspaceId/time-entries/people', { params: { workspaceId: w } }),
  });
export const useMembers = (w: string, enabled: boolean) => useQuery({ ...membersQuery(w), enabled });
