import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ASSIGNABLE_ROLES, type AssignableRole, splitEmails } from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { groupOptions } from '../../../api/team';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { type GroupView, useInvite } from '../api';
import { roleOptions } from '../texts';

interface Props {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
  /** Guest when opened from "Invite guest". */
  initialRole: AssignableRole;
  groups: GroupView[];
}

/** Invites one or many people by e-mail with a role and an optional group. */
export function InviteModal({ workspaceId, opened, onClose, initialRole, groups }: Props) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={initialRole === 'guest' ? 'Invite guest' : 'Invite people'}
      size="lg"
    >
      {opened && <InviteForm workspaceId={workspaceId} onClose={onClose} initialRole={initialRole} groups={groups} />}
    </Modal>
  );
}

function InviteForm({ workspaceId, onClose, initialRole, groups }: Omit<Props, 'opened'>) {
  const invite = useInvite(workspaceId);
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<AssignableRole>(initialRole);
  const managersLocked = !useWorkspace().hasFeature('management_roles');
  const [groupId, setGroupId] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; code: string } | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const list = splitEmails(emails);
    if (list.length === 0) {
      setError({ message: 'Enter at least one e-mail address.', code: 'validation_failed' });
      return;
    }
    invite.mutate(
      { emails: list, role, groupId },
      {
        onSuccess: (result) => {
          notifications.show({
            color: 'green',
            message:
              result.items.length === 1
                ? `Invitation sent to ${result.items[0]?.email}.`
                : `${result.items.length} invitations sent.`,
          });
          onClose();
        },
        onError: (err) => {
          const parsed = parseApiError(err);
          const fieldMessages = Object.values(parsed.fields);
          setError({ message: fieldMessages.length > 1 ? fieldMessages.join(' ') : parsed.message, code: parsed.code });
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        {error && (
          <Alert color="red" role="alert">
            {error.code === 'seat_limit_reached' ? error.message.replace(' (/homepage/billing)', '') : error.message}
            {error.code === 'seat_limit_reached' && (
              <>
                {' '}
                <Anchor component={Link} to="/homepage/billing" onClick={onClose}>
                  Change number of seats
                </Anchor>
              </>
            )}
          </Alert>
        )}
        <Textarea
          label="Email addresses"
          description="One or many, separated by commas, spaces or new lines."
          placeholder="ann@example.com, bob@example.com"
          autosize
          minRows={3}
          value={emails}
          onChange={(e) => setEmails(e.currentTarget.value)}
          required
          data-autofocus
        />
        <Group grow>
          <Select
            label="Role"
            data={roleOptions(ASSIGNABLE_ROLES, managersLocked)}
            value={role}
            onChange={(v) => v && setRole(v as AssignableRole)}
            allowDeselect={false}
          />
          <Select
            label="Group"
            placeholder="No group"
            data={groupOptions(groups)}
            value={groupId}
            onChange={setGroupId}
            clearable
          />
        </Group>
        {managersLocked && <UpgradePrompt feature="management_roles" compact />}
        <Text size="sm" c="dimmed">
          Each person gets an e-mail with a link that works once, for 7 days. Guests see only the projects shared with
          them and do not use a license.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Send invitations
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
