import { Badge, Button, Group, Modal, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { formatDate } from '@sundial/core';
import { useState } from 'react';
import { useClockFormat } from '../../../api/session';
import { done, failed } from '../../../components/notify';
import { type InviteView, useInviteLink, useResendInvite, useRevokeInvite } from '../api';
import { texts } from '../texts';

/** Puts text on the clipboard; false where the browser refuses (no secure context, no permission). */
async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Pending invitations with Copy link (a new link for the inviter to hand over, for teams without
 * e-mail), Resend (a new link and expiry, e-mailed) and Revoke.
 */
export function PendingInvites({ workspaceId, invites }: { workspaceId: string; invites: InviteView[] }) {
  const clock = useClockFormat();
  const resend = useResendInvite(workspaceId);
  const revoke = useRevokeInvite(workspaceId);
  const issueLink = useInviteLink(workspaceId);
  // Shown when the clipboard is out of reach (plain http on a LAN address, say): copy by hand.
  const [shownLink, setShownLink] = useState<{ email: string; url: string } | null>(null);

  const handleCopyLink = (invite: InviteView) =>
    issueLink.mutate(invite.id, {
      onSuccess: async ({ url }) => {
        if (await copyToClipboard(url)) done(texts.linkCopied(invite.email));
        else setShownLink({ email: invite.email, url });
      },
      onError: failed,
    });

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
                    Sent {formatDate(invite.sentAt, clock)}, valid until {formatDate(invite.expiresAt, clock)}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">
                <Group gap="xs" justify="flex-end">
                  <Button
                    size="xs"
                    variant="subtle"
                    aria-label={texts.copyLinkLabel(invite.email)}
                    loading={issueLink.isPending && issueLink.variables === invite.id}
                    onClick={() => handleCopyLink(invite)}
                  >
                    {texts.copyLink}
                  </Button>
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
      <Modal opened={shownLink !== null} onClose={() => setShownLink(null)} title={texts.linkDialogTitle}>
        {shownLink && (
          <Stack>
            <Text size="sm">{texts.linkDialogHelp(shownLink.email)}</Text>
            <TextInput
              label={texts.linkField(shownLink.email)}
              value={shownLink.url}
              readOnly
              data-autofocus
              onFocus={(event) => event.currentTarget.select()}
            />
            <Group justify="flex-end">
              <Button onClick={() => setShownLink(null)}>{texts.close}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
