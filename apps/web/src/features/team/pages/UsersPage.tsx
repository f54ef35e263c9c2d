import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type AssignableRole, can, type Role } from '@sundial/core';
import { useState } from 'react';
import { type Me, useWorkspace } from '../../../api/session';
import { useGroups, useMembers } from '../../../api/team';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { WorkspaceRatesModal } from '../../../components/rates/WorkspaceRatesModal';
import { type GroupView, useInvites, useTeamSettings } from '../api';
import { GroupModal } from '../components/GroupModal';
import { GuestBanner } from '../components/GuestBanner';
import { HideDisabledSetting } from '../components/HideDisabledSetting';
import { InviteModal } from '../components/InviteModal';
import { PendingInvites } from '../components/PendingInvites';
import { PeopleTable } from '../components/PeopleTable';
import { managedGroupIds, matches } from '../components/people';
import { TeamToolbar } from '../components/TeamToolbar';
import { texts } from '../texts';
import classes from './UsersPage.module.css';

export default function UsersPage() {
  // The sidebar's own test: the permissions in force (a custom role may lend "See members" to a guest).
  const { me, workspaceId, role, can: mayNow } = useWorkspace();
  if (!mayNow('members:view')) {
    return (
      <Alert color="blue" maw={640}>
        {texts.guestsCannotSee}
      </Alert>
    );
  }
  return <Users workspaceId={workspaceId} me={me} role={role} />;
}

function Users({ workspaceId, me, role }: { workspaceId: string; me: Me; role: Role }) {
  const canManage = can(role, 'members:manage');
  const canInvite = can(role, 'members:invite');
  const canGroups = can(role, 'groups:manage');
  // With BILLING=off there are no seats to buy.
  const { workspace } = useWorkspace();
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search, 300);
  const members = useMembers(workspaceId, searched);
  const groups = useGroups(workspaceId);
  const settings = useTeamSettings(workspaceId);
  const invites = useInvites(workspaceId, canInvite);

  const [inviteRole, setInviteRole] = useState<AssignableRole | null>(null);
  const [groupModal, setGroupModal] = useState<{ group?: GroupView; parentId?: string | null } | null>(null);
  const [bulk, setBulk] = useState(false);
  const [rates, setRates] = useState(false);

  if (members.isError || groups.isError || settings.isError) {
    return <ErrorPanel onRetry={() => Promise.all([members.refetch(), groups.refetch(), settings.refetch()])} />;
  }
  if (!members.data || !groups.data || !settings.data) return <Loader aria-label="Loading users" />;

  // The server searches; filtering the loaded people too answers at once while the next search loads.
  const visible = members.items.filter((m) => matches(m, search));
  const complete = !members.hasNextPage;

  return (
    <Stack gap="md">
      <GuestBanner onInviteGuest={canInvite ? () => setInviteRole('guest') : undefined} />
      <TeamToolbar
        seats={settings.data.seats}
        onInvite={canInvite ? () => setInviteRole('member') : undefined}
        onCreateGroup={canGroups ? () => setGroupModal({}) : undefined}
        search={search}
        onSearch={setSearch}
        canChangeSeats={workspace.billing && can(role, 'billing:manage')}
      />

      {canInvite && invites.data && invites.data.length > 0 && (
        <div className={classes.invites}>
          <PendingInvites workspaceId={workspaceId} invites={invites.data} />
        </div>
      )}

      <PeopleTable
        workspaceId={workspaceId}
        me={me}
        members={visible}
        total={complete ? visible.length : members.total}
        allMembers={members.items}
        groups={groups.data}
        canManage={canManage}
        canGroups={canGroups}
        managedGroups={managedGroupIds(groups.data, me.user.id, role)}
        bulk={bulk}
        onBulkDone={() => setBulk(false)}
        onEditGroup={(group, parentId) => setGroupModal({ group, parentId })}
        searching={search.trim().length > 0}
        onLoadMore={complete ? undefined : () => members.fetchNextPage()}
      />

      {!complete && (
        <Group gap="sm" justify="center">
          <Text size="sm" c="dimmed" data-testid="people-shown">
            {texts.shown(members.items.length, members.total)}
          </Text>
          <Button
            variant="default"
            size="xs"
            onClick={() => members.fetchNextPage()}
            loading={members.isFetchingNextPage}
          >
            {texts.showMore}
          </Button>
        </Group>
      )}

      <Group justify="space-between">
        <Group gap="xs">
          {canManage && (
            <Button variant="default" onClick={() => setBulk((b) => !b)}>
              {bulk ? texts.cancel : texts.bulkEdit}
            </Button>
          )}
          {can(role, 'rates:manage') && (
            <Button variant="default" onClick={() => setRates(true)}>
              Rates and currency
            </Button>
          )}
        </Group>
        <HideDisabledSetting
          workspaceId={workspaceId}
          saved={settings.data.hideDisabledUsers}
          editable={can(role, 'workspace:update')}
        />
      </Group>

      {rates && <WorkspaceRatesModal workspaceId={workspaceId} onClose={() => setRates(false)} />}
      <InviteModal
        workspaceId={workspaceId}
        opened={inviteRole !== null}
        onClose={() => setInviteRole(null)}
        initialRole={inviteRole ?? 'member'}
        groups={groups.data}
      />
      <GroupModal
        workspaceId={workspaceId}
        groups={groups.data}
        group={groupModal?.group}
        parentId={groupModal?.parentId}
        opened={groupModal !== null}
        onClose={() => setGroupModal(null)}
      />
    </Stack>
  );
}
