import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type ApprovalPeriod,
  type ApprovalSettings,
  type ApproverRule,
  DEFAULT_APPROVAL_SETTINGS,
} from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useSaveApprovalSettings } from '../api';
import { texts } from '../texts';

const s = texts.settings;

/** The approval period, who approves, and the workspace lock date (owners and admins). */
export function ApprovalSettingsModal({
  workspaceId,
  settings,
  onClose,
}: {
  workspaceId: string;
  settings: ApprovalSettings | undefined;
  onClose: () => void;
}) {
  const [value, setValue] = useState<ApprovalSettings>(settings ?? DEFAULT_APPROVAL_SETTINGS);
  const save = useSaveApprovalSettings(workspaceId);
  const error = save.error ? parseApiError(save.error) : null;
  return (
    <Modal opened onClose={onClose} title={s.title}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(value, {
            onSuccess: () => {
              notifications.show({ message: s.saved });
              onClose();
            },
          });
        }}
      >
        <Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="approval-period">
              {s.period}
            </Text>
            <SegmentedControl
              aria-labelledby="approval-period"
              value={value.period}
              onChange={(period) => setValue({ ...value, period: period as ApprovalPeriod })}
              data={(['week', 'month'] as const).map((p) => ({ value: p, label: s.periods[p] }))}
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="approval-approvers">
              {s.approver}
            </Text>
            <SegmentedControl
              aria-labelledby="approval-approvers"
              value={value.approverRule}
              onChange={(rule) => setValue({ ...value, approverRule: rule as ApproverRule })}
              data={(['managers_and_admins', 'admins_only'] as const).map((r) => ({ value: r, label: s.approvers[r] }))}
            />
          </Stack>
          <TextInput
            type="date"
            label={s.lockDate}
            description={s.lockDateHint}
            value={value.lockDate ?? ''}
            error={error?.fields?.lockDate}
            onChange={(event) => setValue({ ...value, lockDate: event.currentTarget.value || null })}
          />
          {error && !error.fields.lockDate && <Alert color="red">{error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {texts.cancel}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {s.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
