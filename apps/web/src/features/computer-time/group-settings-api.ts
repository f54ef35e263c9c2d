import type { ComputerTimeGroupSettingsBody } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

/** The query key of the groups' own computer time settings (issue 35). */
const groupSettingsKey = (workspaceId: string) => ['computer-time', workspaceId, 'group-settings'] as const;

/** The groups whose people's activity is kept, or shown to managers, otherwise than the workspace says. */
export const useGroupSettings = (workspaceId: string) =>
  useQuery({
    queryKey: groupSettingsKey(workspaceId),
    queryFn: () => api('GET /workspaces/:workspaceId/computer-time/group-settings', { params: { workspaceId } }),
  });

/** Sets a group's choices; both null returns it to the workspace's settings. */
export function useSaveGroupSettings(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ groupId, body }: { groupId: string; body: ComputerTimeGroupSettingsBody }) =>
      api('PUT /workspaces/:workspaceId/computer-time/group-settings/:groupId', {
        params: { workspaceId, groupId },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupSettingsKey(workspaceId) }),
  });
}
