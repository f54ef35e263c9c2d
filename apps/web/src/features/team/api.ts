import type {
  AcceptedInviteView,
  BulkMembersBody,
  GroupView,
  InviteBody,
  InvitePreviewView,
  InviteView,
  MemberUpdateBody,
  MemberView,
  PageView,
  TeamSettingsView,
} from '@sundial/core';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../../api/client';
import { sessionKeys } from '../../api/session';

export type { GroupView, InviteView, MemberView };
export type TeamSettings = TeamSettingsView;
export type InvitePreview = InvitePreviewView;

/** Select options naming each group with its path, e.g. "Sales / EMEA", sorted by that path. */
export function groupOptions(groups: GroupView[], exclude: Set<string> = new Set()) {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const path = (g: GroupView): string => {
    const names = [g.name];
    const seen = new Set([g.id]);
    for (let p = g.parentId ? byId.get(g.parentId) : undefined; p && !seen.has(p.id); ) {
      names.unshift(p.name);
      seen.add(p.id);
      p = p.parentId ? byId.get(p.parentId) : undefined;
    }
    return names.join(' / ');
  };
  return groups
    .filter((g) => !exclude.has(g.id))
    .map((g) => ({ value: g.id, label: path(g) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export const teamKeys = {
  all: (ws: string) => ['team', ws] as const,
  members: (ws: string) => ['team', ws, 'members'] as const,
  groups: (ws: string) => ['team', ws, 'groups'] as const,
  invites: (ws: string) => ['team', ws, 'invites'] as const,
  settings: (ws: string) => ['team', ws, 'settings'] as const,
};

const base = (ws: string) => `/workspaces/${ws}`;

/** People per request on the Users screen; more come with "Show more people". */
export const MEMBERS_PAGE_SIZE = 100;

/**
 * The workspace's people, a page at a time, found on the server by `search` (name, e-mail,
 * external id). The next page starts after the people already loaded.
 */
export function useMembers(ws: string, search: string) {
  const query = useInfiniteQuery({
    queryKey: [...teamKeys.members(ws), search.trim()],
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(MEMBERS_PAGE_SIZE), offset: String(pageParam) });
      if (search.trim()) params.set('search', search.trim());
      return api<PageView<MemberView>>('GET', `${base(ws)}/members?${params}`);
    },
    initialPageParam: 0,
    getNextPageParam: (last) =>
      last.offset + last.items.length < last.total ? last.offset + last.items.length : undefined,
    // While a new search loads, keep showing the people found so far (filtered in the browser).
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const total = query.data?.pages[query.data.pages.length - 1]?.total ?? 0;
  return { ...query, items, total };
}

export const useGroups = (ws: string) =>
  useQuery({
    queryKey: teamKeys.groups(ws),
    queryFn: async () => (await api<{ items: GroupView[] }>('GET', `${base(ws)}/groups`)).items,
  });

export const useInvites = (ws: string, enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.invites(ws),
    queryFn: async () => (await api<{ items: InviteView[] }>('GET', `${base(ws)}/invites`)).items,
    enabled,
  });

export const useTeamSettings = (ws: string) =>
  useQuery({ queryKey: teamKeys.settings(ws), queryFn: () => api<TeamSettings>('GET', `${base(ws)}/team-settings`) });

/** A mutation that refreshes everything on the Users screen when it succeeds. */
function useTeamMutation<TArgs, TResult>(ws: string, call: (args: TArgs) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all(ws) }),
  });
}

export const useInvite = (ws: string) =>
  useTeamMutation(ws, (body: InviteBody) => api<{ items: InviteView[] }>('POST', `${base(ws)}/invites`, body));
export const useResendInvite = (ws: string) =>
  useTeamMutation(ws, (id: string) => api<InviteView>('POST', `${base(ws)}/invites/${id}/resend`));
/** A new link for a pending invite, for the inviter to hand over; the link e-mailed before stops working. */
export const useInviteLink = (ws: string) =>
  useTeamMutation(ws, (id: string) =>
    api<{ url: string; invite: InviteView }>('POST', `${base(ws)}/invites/${id}/link`),
  );
export const useRevokeInvite = (ws: string) =>
  useTeamMutation(ws, (id: string) => api<void>('DELETE', `${base(ws)}/invites/${id}`));

export const useUpdateMember = (ws: string) =>
  useTeamMutation(ws, ({ userId, ...body }: MemberUpdateBody & { userId: string }) =>
    api<MemberView>('PATCH', `${base(ws)}/members/${userId}`, body),
  );
export const useRemoveMember = (ws: string) =>
  useTeamMutation(ws, (userId: string) => api<void>('DELETE', `${base(ws)}/members/${userId}`));
export const useBulkEdit = (ws: string) =>
  useTeamMutation(ws, (body: BulkMembersBody) =>
    api<{ items: MemberView[] }>('POST', `${base(ws)}/members/bulk`, body),
  );

export function useTransferOwnership(ws: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api<MemberView>('POST', `${base(ws)}/owner`, { userId }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: teamKeys.all(ws) });
      queryClient.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
}

export const useSaveTeamSettings = (ws: string) =>
  useTeamMutation(ws, (body: { hideDisabledUsers: boolean }) =>
    api<TeamSettings>('PATCH', `${base(ws)}/team-settings`, body),
  );

export const useCreateGroup = (ws: string) =>
  useTeamMutation(ws, (body: { name: string; parentId?: string | null }) =>
    api<GroupView>('POST', `${base(ws)}/groups`, body),
  );
export const useUpdateGroup = (ws: string) =>
  useTeamMutation(ws, ({ id, ...body }: { id: string; name?: string; parentId?: string | null }) =>
    api<GroupView>('PATCH', `${base(ws)}/groups/${id}`, body),
  );
export const useDeleteGroup = (ws: string) =>
  useTeamMutation(ws, (id: string) => api<void>('DELETE', `${base(ws)}/groups/${id}`));
export const useGroupMembership = (ws: string) =>
  useTeamMutation(ws, ({ groupId, userId, add }: { groupId: string; userId: string; add: boolean }) =>
    api<GroupView>(add ? 'PUT' : 'DELETE', `${base(ws)}/groups/${groupId}/members/${userId}`),
  );

export const fetchInvitePreview = (token: string) => api<InvitePreview>('GET', `/invites/${encodeURIComponent(token)}`);
export const acceptInvite = (token: string, body: { password?: string; name?: string }) =>
  api<AcceptedInviteView>('POST', `/invites/${encodeURIComponent(token)}/accept`, body);
