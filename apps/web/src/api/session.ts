import { DEFAULT_DURATION_FORMAT, type DurationFormat } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from './client';

export interface UserView {
  id: string;
  email: string;
  name: string;
  phone: string | null;
  timeZone: string;
  weekStart: string;
  dateFormat: string;
  timeFormat: string;
  durationFormat: DurationFormat;
}

export interface WorkspaceView {
  id: string;
  name: string;
  role: 'owner' | 'admin' | 'manager' | 'member' | 'guest';
  plan: 'free' | 'basic' | 'pro' | 'enterprise';
  purchasedPlan: 'free' | 'basic' | 'pro' | 'enterprise';
  trialEndsAt: string | null;
  trialDaysLeft: number;
  createdAt: string;
}

/** A workspace that disabled or removed the user. */
export interface InactiveWorkspace {
  id: string;
  name: string;
  status: 'disabled' | 'removed';
}

export interface Me {
  user: UserView;
  workspaces: WorkspaceView[];
  /** Workspaces the user may no longer use; shown when none is left. */
  inactiveWorkspaces: InactiveWorkspace[];
  currentWorkspaceId: string | null;
}

export const sessionKeys = { me: ['me'] as const };

/** The signed-in user, or null when nobody is signed in. */
export function useMe() {
  return useQuery({
    queryKey: sessionKeys.me,
    queryFn: async () => {
      try {
        return await api<Me>('GET', '/me');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/** How the signed-in user wants durations shown; pass it to core's formatDuration. */
export function useDurationFormat(): DurationFormat {
  return useMe().data?.user.durationFormat ?? DEFAULT_DURATION_FORMAT;
}

export function useCurrentWorkspace(me: Me | null | undefined): WorkspaceView | undefined {
  return me?.workspaces.find((w) => w.id === me.currentWorkspaceId) ?? me?.workspaces[0];
}

/** Runs an auth call, then reloads who is signed in. */
export function useSessionMutation<TBody, TResult>(call: (body: TBody) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    // Reset, not invalidate: a cached "nobody" must not send the new session back to log-in.
    onSuccess: () => queryClient.resetQueries({ queryKey: sessionKeys.me }),
  });
}

/** Ends the session on the server, leaves the protected area for /, then forgets the user's data. */
export function useLogout() {
  return useMutation({
    mutationFn: () => api<void>('POST', '/auth/logout'),
    // "/" is the prerendered public site, not an app route: load it as a document. Leaving the
    // app also drops every cached query of the signed-out user.
    onSettled: () => window.location.assign('/'),
  });
}
