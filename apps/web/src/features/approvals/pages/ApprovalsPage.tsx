import { ActionIcon, Alert, Badge, Button, Group, Stack, Table, Tabs, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ApprovalStatus, formatDate, formatDayRange, formatDuration } from '@sundial/core';
import { IconChecklist, IconLock, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { useApprovalAction } from '../../../api/approvals';
import { useClockFormat, useDurationFormat, useWorkspace } from '../../../api/session';
import { ListState } from '../../../components/ListState';
import { failed } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { type ApprovalView, useApprovalSettings, useApprovals } from '../api';
import { ApprovalSettingsModal } from '../components/ApprovalSettingsModal';
import { RejectModal } from '../components/RejectModal';
import { texts } from '../texts';

type Tab = Exclude<ApprovalStatus, 'withdrawn'>;
const TABS: Tab[] = ['submitted', 'approved', 'rejected'];

/** TEAM > Approvals: the periods people submitted, pending, approved and rejected (issue 17). */
export default function ApprovalsPage() {
  const { workspaceId, can, hasFeature } = useWorkspace();
  const [tab, setTab] = useState<Tab>('submitted');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const settings = useApprovalSettings(workspaceId);
  if (!can('approvals:review')) {
    return (
      <Alert color="blue" maw={640}>
        {texts.notApprover}
      </Alert>
    );
  }
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)}>
          <Tabs.List>
            {TABS.map((status) => (
              <Tabs.Tab key={status} value={status}>
                {texts.tabs[status]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <Group gap="xs">
          {settings.data?.lockDate && (
            <Badge variant="light" color="gray" leftSection={<IconLock size={12} aria-hidden />}>
              {`${texts.settings.lockDate} ${settings.data.lockDate}`}
            </Badge>
          )}
          {can('approvals:settings') && hasFeature('approvals') && (
            <Tooltip label={texts.settings.open}>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={texts.settings.open}
                onClick={() => setSettingsOpen(true)}
              >
                <IconSettings size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      {!hasFeature('approvals') && <UpgradePrompt feature="approvals" />}
      <ApprovalList workspaceId={workspaceId} status={tab} canDecide={hasFeature('approvals')} />
      {settingsOpen && (
        <ApprovalSettingsModal
          workspaceId={workspaceId}
          settings={settings.data}
          onClose={() => setSettingsOpen(false)}
        />
      )}
    </Stack>
  );
}

function ApprovalList({ workspaceId, status, canDecide }: { workspaceId: string; status: Tab; canDecide: boolean }) {
  const clock = useClockFormat();
  const query = useApprovals(workspaceId, status);
  const action = useApprovalAction(workspaceId);
  const durationFormat = useDurationFormat();
  const [rejecting, setRejecting] = useState<ApprovalView | null>(null);
  const done = (message: string) => () => notifications.show({ message });
  return (
    <>
      <ListState
        query={query}
        label="Loading approvals"
        empty={{ icon: <IconChecklist size={28} />, ...texts.empty[status] }}
      >
        {(items) => (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{texts.person}</Table.Th>
                  <Table.Th>{texts.period}</Table.Th>
                  <Table.Th ta="right">{texts.tracked}</Table.Th>
                  <Table.Th>{status === 'submitted' ? texts.submitted : texts.decision}</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((a) => (
                  <Table.Tr key={a.id} data-testid="approval-row">
                    <Table.Td>
                      <Text fw={500}>{a.userName}</Text>
                    </Table.Td>
                    <Table.Td>{formatDayRange(a.periodStart, a.periodEnd, clock)}</Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {formatDuration(a.trackedSeconds, durationFormat)}
                    </Table.Td>
                    <Table.Td>
                      {status === 'submitted' ? (
                        <Text size="sm">{formatDate(a.submittedAt, clock)}</Text>
                      ) : (
                        <Stack gap={2}>
                          <Text size="sm">
                            {texts.status[a.status]} {texts.lockedBy(a.decidedByName)}
                          </Text>
                          {a.comment && (
                            <Text size="sm" c="dimmed" lineClamp={2}>
                              {a.comment}
                            </Text>
                          )}
                        </Stack>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        {status === 'submitted' && canDecide && (
                          <>
                            <Button
                              size="xs"
                              color="green"
                              loading={action.isPending && action.variables?.action === 'approve'}
                              onClick={() =>
                                action.mutate(
                                  { action: 'approve', id: a.id },
                                  { onSuccess: done(texts.approvedToast), onError: failed },
                                )
                              }
                            >
                              {texts.approve}
                            </Button>
                            <Button size="xs" variant="default" onClick={() => setRejecting(a)}>
                              {texts.reject}
                            </Button>
                          </>
                        )}
                        {status === 'approved' && (
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() =>
                              action.mutate(
                                { action: 'withdraw', id: a.id },
                                { onSuccess: done(texts.withdrawnToast), onError: failed },
                              )
                            }
                          >
                            {texts.withdrawApproval}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ListState>
      {rejecting && (
        <RejectModal
          busy={action.isPending}
          onClose={() => setRejecting(null)}
          onReject={(comment) =>
            action.mutate(
              { action: 'reject', id: rejecting.id, comment },
              {
                onSuccess: () => {
                  setRejecting(null);
                  notifications.show({ message: texts.rejectedToast });
                },
                onError: failed,
              },
            )
          }
        />
      )}
    </>
  );
}
