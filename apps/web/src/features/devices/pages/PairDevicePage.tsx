import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { AGENT_PLATFORM_LABELS, normalizeUserCode } from '@sundial/core';
import { IconCircleCheck, IconDeviceDesktop } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorBox } from '../../../components/ErrorBox';
import { useApproveDevice, useDenyDevice, useDeviceCode } from '../api';

/**
 * Pairing a computer (issue 35): the desktop agent shows a code and this page's address; the
 * signed-in person checks the computer named under the code, picks the workspace it tracks for,
 * and approves or refuses. The agent then receives its device token by itself.
 */
export function PairDevicePage() {
  const { me, workspaceId } = useWorkspace();
  const [params] = useSearchParams();
  const [typed, setTyped] = useState(params.get('code') ?? '');
  const [code, setCode] = useState(params.get('code') ?? '');
  const [chosen, setChosen] = useState(workspaceId);
  const [outcome, setOutcome] = useState<'approved' | 'denied' | null>(null);
  const device = useDeviceCode(code);
  const approve = useApproveDevice();
  const deny = useDenyDevice();
  const workspaces = me.workspaces.map((w) => ({ value: w.id, label: w.name }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCode(typed.trim());
  };
  const codeProblem = code && normalizeUserCode(code) === undefined ? 'Enter the eight letters the agent shows.' : null;
  const mutationError = approve.error ?? deny.error;

  if (outcome) {
    const workspace = workspaces.find((w) => w.value === chosen)?.label ?? '';
    return (
      <Paper withBorder p="xl" radius="md" maw={560}>
        <Group gap="sm" mb="sm">
          <IconCircleCheck aria-hidden="true" color="var(--mantine-color-green-6)" />
          <Title order={2} size="h3">
            {outcome === 'approved' ? 'Computer paired' : 'Pairing refused'}
          </Title>
        </Group>
        <Text>
          {outcome === 'approved'
            ? `${device.data?.name ?? 'The computer'} now tracks your computer time in ${workspace}. The agent carries on by itself; you may close this page.`
            : 'The agent was told no. Nothing from that computer will reach Sundial.'}
        </Text>
      </Paper>
    );
  }

  return (
    <Stack maw={560} gap="lg">
      <Text c="dimmed">
        The Sundial desktop agent shows a code of eight letters. Check it matches, choose the workspace the computer
        tracks for, and approve: no password ever reaches the agent.
      </Text>
      <form onSubmit={submit}>
        <Group align="flex-end">
          <TextInput
            label="Code shown by the agent"
            placeholder="ABCD-EFGH"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            style={{ flex: 1 }}
            error={codeProblem}
          />
          <Button type="submit" variant="light">
            Look up
          </Button>
        </Group>
      </form>
      {device.isError && (
        <Alert color="red" role="alert">
          {parseApiError(device.error).message}
        </Alert>
      )}
      {device.data && (
        <Paper withBorder p="lg" radius="md">
          <Group gap="sm" mb="md" wrap="nowrap">
            <IconDeviceDesktop aria-hidden="true" />
            <div>
              <Text fw={600}>{device.data.name}</Text>
              <Text size="sm" c="dimmed">
                {AGENT_PLATFORM_LABELS[device.data.platform]} · agent {device.data.agentVersion} · code{' '}
                {device.data.userCode}
              </Text>
            </div>
          </Group>
          <ErrorBox message={mutationError && parseApiError(mutationError).message} />
          {workspaces.length > 1 && (
            <Select
              label="Workspace"
              description="The computer's activity goes to this workspace only."
              data={workspaces}
              value={chosen}
              onChange={(value) => value && setChosen(value)}
              allowDeselect={false}
              mb="md"
            />
          )}
          <Group>
            <Button
              loading={approve.isPending}
              onClick={() =>
                approve.mutate(
                  { userCode: device.data.userCode, workspaceId: chosen },
                  { onSuccess: () => setOutcome('approved') },
                )
              }
            >
              Approve
            </Button>
            <Button
              variant="default"
              loading={deny.isPending}
              onClick={() => deny.mutate(device.data.userCode, { onSuccess: () => setOutcome('denied') })}
            >
              Deny
            </Button>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
