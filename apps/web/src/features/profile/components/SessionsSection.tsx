import { Badge, Button, Group, Paper, Text, Title } from '@mantine/core';
import { formatDateTime } from '@sundial/core';
import { useClockFormat } from '../../../api/session';
import { AccountTable, Cell } from '../../../components/AccountTable';
import { failed } from '../../../components/notify';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../security-api';

/** The browsers signed in to the account, with "sign out this one" and "sign out everywhere else". */
export function SessionsSection() {
  const clock = useClockFormat();
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
        <AccountTable
          headers={['Device', 'IP address', 'Last seen']}
          items={items}
          cells={(session) => [
            <Group gap="xs" key="device">
              <Text size="sm">{session.device}</Text>
              {session.current && (
                <Badge size="sm" variant="light">
                  This device
                </Badge>
              )}
            </Group>,
            <Cell dimmed key="ip">
              {session.ip ?? '—'}
            </Cell>,
            <Cell key="seen">{formatDateTime(session.lastSeenAt, clock)}</Cell>,
          ]}
          action={(session) =>
            !session.current && (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                onClick={() => revoke.mutate(session.id, { onError: failed })}
              >
                Sign out
              </Button>
            )
          }
        />
      )}
    </Paper>
  );
}
