import type {
  AcceptedInviteView,
  BulkMembersBody,
  GroupView,
  InviteBody,
  InvitePreviewView,
  InviteView,
  MemberUpdateBody,
  MemberView,
  TeamSettingsView,
} from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { sessionKeys } from '../../api/session';
import { teamKeys } from '../../api/team';

export type { GroupView, InviteView, MemberView };
export type TeamSettings = TeamSettingsView;
export type InvitePreview = InvitePreviewView;

const base = (ws: string) => `/workspaces/${ws}`;

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

/** An owner or admin turns a member's 2FA off (a lost phone); the member's sessions end. */
export const useResetMemberTwoFactor = (ws: string) =>
  useMutation({
    mutationFn: (userId: string) => api<void>('POST', `${base(ws)}/members/${userId}/two-factor/reset`),
  });
