import { normalizeUserCode } from '@sundial/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { securityKeys } from '../../api/two-factor';

/** The computer waiting under a code the person typed (or the agent's link carried). */
export const useDeviceCode = (userCode: string) =>
  useQuery({
    queryKey: ['device-code', normalizeUserCode(userCode) ?? ''],
    queryFn: () => api('GET /agent/device-codes/:userCode', { params: { userCode } }),
    enabled: normalizeUserCode(userCode) !== undefined,
    retry: false,
  });

export function useApproveDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { userCode: string; workspaceId: string }) => api('POST /agent/device-codes/approve', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: securityKeys.devices }),
  });
}

export const useDenyDevice = () =>
  useMutation({ mutationFn: (userCode: string) => api('POST /agent/device-codes/deny', { body: { userCode } }) });
