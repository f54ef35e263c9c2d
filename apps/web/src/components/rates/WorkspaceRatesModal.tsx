import { Button, Checkbox, Divider, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { parseApiError } from '../../api/client';
import { useRateSettings, useUpdateRateSettings } from '../../api/rates';
import { useWorkspace } from '../../api/session';
import { done, failed } from '../notify';
import { UpgradePrompt } from '../UpgradePrompt';
import { RatesPanel } from './RatesPanel';

/** Workspace settings for money: the currency, who beside owners and admins sees it, and the workspace's rates. */
export function WorkspaceRatesModal({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  if (!useWorkspace().hasFeature('billing_rates'))
    return (
      <Modal opened onClose={onClose} title="Rates and currency" size="lg">
        <UpgradePrompt feature="billing_rates" />
      </Modal>
    );
  return <RatesAndCurrency workspaceId={workspaceId} onClose={onClose} />;
}

function RatesAndCurrency({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const settings = useRateSettings(workspaceId);
  const save = useUpdateRateSettings(workspaceId);
  const [currency, setCurrency] = useState(settings.data?.currency ?? 'USD');
  const saved = settings.data?.currency;
  useEffect(() => {
    if (saved) setCurrency(saved);
  }, [saved]);
  const toggle = (field: 'managersSeeCosts' | 'membersSeeOwnBillable', value: boolean) =>
    save.mutate({ [field]: value }, { onSuccess: () => done('Setting saved.'), onError: failed });
  const currencyError = save.error ? parseApiError(save.error).fields.currency : undefined;

  return (
    <Modal opened onClose={onClose} title="Rates and currency" size="lg">
      <Stack gap="md">
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Currency (ISO 4217 code)"
            value={currency}
            maxLength={3}
            onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())}
            error={currencyError}
            w={200}
          />
          <Button
            type="button"
            variant="light"
            disabled={currency === saved}
            loading={save.isPending && save.variables?.currency !== undefined}
            onClick={() => save.mutate({ currency }, { onSuccess: () => done('Currency saved.') })}
          >
            Save currency
          </Button>
        </Group>
        <Stack gap={6}>
          <Text size="sm" fw={600}>
            Who sees money
          </Text>
          <Text size="xs" c="dimmed">
            Owners and admins see every rate, cost and margin; managers see the billable rates and amounts of their
            people.
          </Text>
          <Checkbox
            label="Managers also see the cost rates and costs of their people"
            checked={settings.data?.managersSeeCosts ?? false}
            disabled={settings.isPlaceholderData}
            onChange={(e) => toggle('managersSeeCosts', e.currentTarget.checked)}
          />
          <Checkbox
            label="Each member sees the billable rates and amounts of their own time"
            checked={settings.data?.membersSeeOwnBillable ?? false}
            disabled={settings.isPlaceholderData}
            onChange={(e) => toggle('membersSeeOwnBillable', e.currentTarget.checked)}
          />
        </Stack>
        <Divider />
        <Title order={3} size="h5">
          Workspace rates
        </Title>
        <Text size="xs" c="dimmed">
          The default for everyone; a member’s, project’s, project member’s or task’s own rate takes precedence.
        </Text>
        <RatesPanel workspaceId={workspaceId} target={{ level: 'workspace' }} label="Workspace" />
      </Stack>
    </Modal>
  );
}
