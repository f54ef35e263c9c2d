import { Alert, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatDayRange } from '@sundial/core';
import { IconLock } from '@tabler/icons-react';
import { useApprovalAction, usePeriodState } from '../api/approvals';
import { useWorkspace } from '../api/session';
import { approvalTexts as texts } from './approval-texts';
import { failed } from './notify';

const COLOR = { submitted: 'yellow', approved: 'green', rejected: 'red', withdrawn: 'gray' } as const;

/**
 * The timesheet's line about the shown period: its approval state, a lock when the viewer may not
 * change it (and why), and Submit or Withdraw for one's own time. Nothing when approvals are not
 * in the plan and the period has no approval.
 */
export function PeriodBar({ workspaceId, userId, day }: { workspaceId: string; userId: string; day: string }) {
  const { me, hasFeature } = useWorkspace();
  const state = usePeriodState(workspaceId, userId, day);
  const action = useApprovalAction(workspaceId);
  const period = state.data;
  if (!period) return null;
  const approval = period.approval;
  if (!hasFeature('approvals') && !approval && !period.locked) return null;
  const own = userId === me.user.id;
  const live = approval && (approval.status === 'submitted' || approval.status === 'approved');
  return (
    <Group gap="sm" wrap="wrap" data-testid="period-bar">
      <Text size="sm" c="dimmed">
        {formatDayRange(period.periodStart, period.periodEnd, me.user)}
      </Text>
      <Badge variant="light" color={approval ? COLOR[approval.status] : 'gray'} data-testid="period-status">
        {approval ? texts.status[approval.status] : texts.notSubmitted}
      </Badge>
      {period.locked && (
        <Tooltip label={period.lockReason} multiline w={320}>
          <Group gap={4} wrap="nowrap" aria-label={period.lockReason ?? undefined} data-testid="period-lock">
            <IconLock size={16} aria-hidden />
            <Text size="sm">Locked</Text>
          </Group>
        </Tooltip>
      )}
      {own && hasFeature('approvals') && !live && (
        <Button
          size="xs"
          loading={action.isPending}
          onClick={() =>
            action.mutate(
              { action: 'submit', day },
              { onSuccess: () => notifications.show({ message: texts.submittedToast }), onError: failed },
            )
          }
        >
          {texts.submit}
        </Button>
      )}
      {own && approval?.status === 'submitted' && (
        <Button
          size="xs"
          variant="default"
          loading={action.isPending}
          onClick={() =>
            action.mutate(
              { action: 'withdraw', id: approval.id },
              { onSuccess: () => notifications.show({ message: texts.withdrawnToast }), onError: failed },
            )
          }
        >
          {texts.withdraw}
        </Button>
      )}
      {approval?.status === 'rejected' && approval.comment && (
        <Alert color="red" variant="light" py={4} px="sm" data-testid="period-rejection">
          {texts.rejectedWith(approval.comment)}
        </Alert>
      )}
    </Group>
  );
}
