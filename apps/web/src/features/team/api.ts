import type {
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

const _base = (ws: string) => `/workspaces/${ws}`;

export const useInvites = (ws: string, enabled: boolean) =>
  useQuery({
    queryKey: teamKeys.invites(ws),
    queryFn: async () => (await api('GET /workspaces/:workspaceId/invites', { params: { workspaceId: ws } })).items,
    enabled,
  });

export const useTeamSettings = (ws: string) =>
  useQuery({
    queryKey: teamKeys.settings(ws),
    queryFn: () => api('GET /workspaces/:workspaceId/team-settings', { params: { workspaceId: ws } }),
  });

/** A mutation that refreshes everything on the Users screen when it succeeds. */
function useTeamMutation<TArgs, TResult>(ws: string, call: (args: TArgs) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all(ws) }),
  });
}

export const useInvite = (ws: string) =>
  useTeamMutation(ws, (body: InviteBody) =>
    api('POST /workspaces/:workspaceId/invites', { params: { workspaceId: ws }, body }),
  );
export const useResendInvite = (ws: string) =>
  useTeamMutation(ws, (id: string) =>
    api('POST /workspaces/:workspaceId/invites/:inviteId/resend', { params: { workspaceId: ws, inviteId: id } }),
  );
/** A new link for a pending invite, for the inviter to hand over; the link e-mailed before stops working. */
export const useInviteLink = (ws: string) =>
  useTeamMutation(ws, (id: string) =>
    api('POST /workspaces/:workspaceId/invites/:inviteId/link', { params: { workspaceId: ws, inviteId: id } }),
  );
export const useRevokeInvite = (ws: string) =>
  useTeamMutation(ws, (id: string) =>
    api('DELETE /workspaces/:workspaceId/invites/:inviteId', { params: { workspaceId: ws, inviteId: id } }),
  );

export const useUpdateMember = (ws: string) =>
  useTeamMutation(ws, ({ userId, ...body }: MemberUpdateBody & { userId: string }) =>
    api('PATCH /workspaces/:workspaceId/members/:userId', { params: { workspaceId: ws, userId }, body }),
  );
export const useRemoveMember = (ws: string) =>
  useTeamMutation(ws, (userId: string) =>
    api('DELETE /workspaces/:workspaceId/members/:userId', { params: { workspaceId: ws, userId } }),
  );
export const useBulkEdit = (ws: string) =>
  useTeamMutation(ws, (body: BulkMembersBody) =>
    api('POST /workspaces/:workspaceId/members/bulk', { params: { workspaceId: ws }, body }),
  );

export function useTransferOwnership(ws: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api('POST /workspaces/:workspaceId/owner', { params: { workspaceId: ws }, body: { userId } }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: teamKeys.all(ws) });
      queryClient.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
}

export const useSaveTeamSettings = (ws: string) =>
  useTeamMutation(ws, (body: { hideDisabledUsers: boolean }) =>
    api('PATCH /workspaces/:workspaceId/team-settings', { params: { workspaceId: ws }, body }),
  );

export const useCreateGroup = (ws: string) =>
  useTeamMutation(ws, (body: { name: string; parentId?: string | null }) =>
    api('POST /workspaces/:workspaceId/groups', { params: { workspaceId: ws }, body }),
  );
export const useUpdateGroup = (ws: string) =>
  useTeamMutation(ws, ({ id, ...body }: { id: string; name?: string; parentId?: string | null }) =>
    api('PATCH /workspaces/:workspaceId/groups/:groupId', { params: { workspaceId: ws, groupId: id }, body }),
  );
export const useDeleteGroup = (ws: string) =>
  useTeamMutation(ws, (id: string) =>
    api('DELETE /workspaces/:workspaceId/groups/:groupId', { params: { workspaceId: ws, groupId: id } }),
  );
export const useGroupMembership = (ws: string) =>
  useTeamMutation(ws, ({ groupId, userId, add }: { groupId: string; userId: string; add: boolean }) =>
    api(`${add ? 'PUT' : 'DELETE'} /workspaces/:workspaceId/groups/:groupId/members/:userId`, {
      params: { workspaceId: ws, groupId, userId },
    }),
  );

export const fetchInvitePreview = (token: string) => api('GET /invites/:token', { params: { token } });
export const acceptInvite = (token: string, body: { password?: string; name?: string }) =>
  api('POST /invites/:token/accept', { params: { token }, body });

/** An owner or admin turns a member's 2FA off (a lost phone); the member's sessions end. */
export const useResetMemberTwoFactor = (ws: string) =>
  useMutation({
    mutationFn: (userId: string) =>
      api('POST /workspaces/:workspaceId/members/:userId/two-factor/reset', { params: { workspaceId: ws, userId } }),
  });
