import { Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { failed } from '../../../components/notify';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../security-api';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The browsers signed in to the account, with "sign out this one" and "sign out everywhere else". */
export function SessionsSection() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const items = sessions.data?.items ?? [];
  const others = items.filter((s) => !s.current).length;

  return (
    <Paper withBorder p="lg" radius="md">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          Active sessions
        </Title>
        <Button
          variant="light"
          color="red"
          disabled={others === 0}
          loading={revokeOthers.isPending}
          onClick={() => revokeOthers.mutate(undefined, { onError: failed })}
        >
          Sign out everywhere else
        </Button>
      </Group>
      {sessions.isLoading ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Device</Table.Th>
                <Table.Th>IP address</Table.Th>
                <Table.Th>Last seen</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((session) => (
                <Table.Tr key={session.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Text size="sm">{session.device}</Text>
                      {session.current && (
                        <Badge size="sm" variant="light">
                          This device
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {session.ip ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{when(session.lastSeenAt)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {!session.current && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => revoke.mutate(session.id, { onError: failed })}
                      >
                        Sign out
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
