import { Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { done, failed } from '../../../components/notify';
import { type InviteView, useResendInvite, useRevokeInvite } from '../api';
import { texts } from '../texts';

/** Pending invitations with Resend (a new link and expiry) and Revoke. */
export function PendingInvites({ workspaceId, invites }: { workspaceId: string; invites: InviteView[] }) {
  const resend = useResendInvite(workspaceId);
  const revoke = useRevokeInvite(workspaceId);
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h5" mb="xs">
        {texts.pendingInvites(invites.length)}
      </Title>
      <Table verticalSpacing={4} aria-label="Pending invitations">
        <Table.Tbody>
          {invites.map((invite) => (
            <Table.Tr key={invite.id}>
              <Table.Td>{invite.email}</Table.Td>
              <Table.Td>{invite.roleLabel}</Table.Td>
              <Table.Td>
                {invite.status === 'expired' ? (
                  <Badge color="red" variant="light">
                    Expired
                  </Badge>
                ) : (
                  <Text size="sm" c="dimmed">
                    Sent {new Date(invite.sentAt).toLocaleDateString()}, valid until{' '}
                    {new Date(invite.expiresAt).toLocaleDateString()}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">
                <Group gap="xs" justify="flex-end">
                  <Button
                    size="xs"
                    variant="subtle"
                    aria-label={`Resend invitation to ${invite.email}`}
                    onClick={() =>
                      resend.mutate(invite.id, {
                        onSuccess: () => done(`Invitation sent again to ${invite.email}.`),
                        onError: failed,
                      })
                    }
                  >
                    Resend
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Revoke invitation to ${invite.email}`}
                    onClick={() =>
                      revoke.mutate(invite.id, {
                        onSuccess: () => done(`Invitation to ${invite.email} withdrawn.`),
                        onError: failed,
                      })
                    }
                  >
                    Revoke
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
