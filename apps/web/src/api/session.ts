import {
  type ClockFormat,
  DEFAULT_DURATION_FORMAT,
  type DurationFormat,
  type Feature,
  type MeView,
  type Permission,
  type Role,
  type UserView,
  type WorkspaceView,
} from '@sundial/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from './client';

export type { UserView, WorkspaceView };
/** Who is signed in, their workspaces and the current one: the API's GET /me answer. */
export type Me = MeView;

export const sessionKeys = { me: ['me'] as const };

/** The signed-in user, or null when nobody is signed in. */
export const meQuery = queryOptions({
  queryKey: sessionKeys.me,
  queryFn: async () => {
    try {
      return await api('GET /me');
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export const useMe = () => useQuery(meQuery);

/** How the signed-in user wants durations shown; pass it to core's formatDuration. */
export function useDurationFormat(): DurationFormat {
  return useMe().data?.user.durationFormat ?? DEFAULT_DURATION_FORMAT;
}

/**
 * How the signed-in user reads dates and times (their profile's formats and zone); pass it to core's
 * formatDate, formatClockTime and formatDateTime, the one formatter of every screen.
 */
export function useClockFormat(): ClockFormat {
  const user = useMe().data?.user;
  return {
    dateFormat: user?.dateFormat ?? 'YYYY-MM-DD',
    timeFormat: user?.timeFormat ?? '24h',
    timeZone: user?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
}

/** The workspace the user works in: the one chosen last, else the first. */
export function currentWorkspace(me: Me | null | undefined): WorkspaceView | undefined {
  return me?.workspaces.find((w) => w.id === me.currentWorkspaceId) ?? me?.workspaces[0];
}

/**
 * Whether the person manages what the workspace buys (billing:manage, by the permissions in force)
 * on a Sundial that sells plans: the Billing link, the Subscribe button and the checkout pages.
 */
export const managesBilling = (workspace: WorkspaceView): boolean =>
  workspace.billing && workspace.permissions.includes('billing:manage');

export interface CurrentWorkspace {
  me: Me;
  workspace: WorkspaceView;
  workspaceId: string;
  role: Role;
  /** What the user's role allows here (the web only hides what the API already forbids). */
  can: (permission: Permission) => boolean;
  /**
   * Whether the workspace's plan includes the feature now (the API's own list, `features` of the
   * workspace view): where it does not, screens show an UpgradePrompt in its place.
   */
  hasFeature: (feature: Feature) => boolean;
}

/**
 * The signed-in user's current workspace, its id and their role in it. For pages and components
 * of the signed-in app: the shell renders them only once /me has answered with a workspace.
 */
export function useWorkspace(): CurrentWorkspace {
  const me = useMe().data;
  const workspace = currentWorkspace(me);
  if (!me || !workspace) throw new Error('useWorkspace() is used outside the signed-in app.');
  return {
    me,
    workspace,
    workspaceId: workspace.id,
    role: workspace.role,
    can: (p) => workspace.permissions.includes(p),
    hasFeature: (feature) => workspace.features.includes(feature),
  };
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
    mutationFn: () => api('POST /auth/logout'),
    // "/" is the prerendered public site, not an app route: load it as a document. Leaving the
    // app also drops every cached query of the signed-out user.
    onSettled: () => window.location.assign('/'),
  });
}
