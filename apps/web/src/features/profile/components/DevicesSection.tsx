import { Button, Paper, Text, Title } from '@mantine/core';
import { AGENT_PLATFORM_LABELS, formatDateTime } from '@sundial/core';
import { useClockFormat } from '../../../api/session';
import { AccountTable, Cell } from '../../../components/AccountTable';
import { failed } from '../../../components/notify';
import { useDevices, useRevokeDevice } from '../security-api';

/** The computers paired with the desktop agent: where each tracks, when it was last seen, and Revoke. */
export function DevicesSection() {
  const clock = useClockFormat();
  const devices = useDevices();
  const revoke = useRevokeDevice();
  const items = devices.data?.items ?? [];

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="computers-title" id="computers">
      <Title order={2} size="h4" mb="xs" id="computers-title">
        Computers
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Computers running the Sundial desktop agent upload their activity to Computer time. Revoking one stops its
        uploads at once.
      </Text>
      {devices.isLoading ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm">
          No computer is paired yet. Start the desktop agent on a computer: it shows a code to approve in Sundial.
        </Text>
      ) : (
        <AccountTable
          headers={['Computer', 'Workspace', 'Paired', 'Last seen']}
          items={items}
          cells={(device) => [
            <div key="name">
              <Text size="sm">{device.name}</Text>
              <Text size="xs" c="dimmed">
                {AGENT_PLATFORM_LABELS[device.platform]} · agent {device.agentVersion}
              </Text>
            </div>,
            <Cell key="workspace">{device.workspace.name}</Cell>,
            <Cell dimmed key="paired">
              {formatDateTime(device.createdAt, clock)}
            </Cell>,
            <Cell key="seen">{device.lastSeenAt ? formatDateTime(device.lastSeenAt, clock) : 'Not yet'}</Cell>,
          ]}
          action={(device) => (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Revoke ${device.name}`}
              loading={revoke.isPending && revoke.variables === device.id}
              onClick={() => revoke.mutate(device.id, { onError: failed })}
            >
              Revoke
            </Button>
          )}
        />
      )}
    </Paper>
  );
}
