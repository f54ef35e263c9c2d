import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Menu,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ASSIGNABLE_ROLES, type AssignableRole, can, type MemberStatus, ROLE_LABELS, type Role } from '@sundial/core';
import {
  IconChevronDown,
  IconChevronRight,
  IconDots,
  IconFolder,
  IconSearch,
  IconUser,
  IconUserPlus,
} from '@tabler/icons-react';
import { Fragment, useMemo, useState } from 'react';
import { Link, useOutletContext } from 'react-router';
import { parseApiError } from '../../../api/client';
import { type Me, useCurrentWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import {
  type GroupView,
  groupOptions,
  type MemberView,
  useBulkEdit,
  useDeleteGroup,
  useGroupMembership,
  useGroups,
  useInvites,
  useMembers,
  useRemoveMember,
  useResendInvite,
  useRevokeInvite,
  useSaveTeamSettings,
  useTeamSettings,
  useTransferOwnership,
  useUpdateMember,
} from '../api';
import { GroupModal } from '../components/GroupModal';
import { InviteModal } from '../components/InviteModal';
import { useConfirm } from '../components/useConfirm';
import { roleOptions, texts } from '../texts';

const failed = (error: unknown) => notifications.show({ color: 'red', message: parseApiError(error).message });
const done = (message: string) => notifications.show({ color: 'green', message });

function matches(member: MemberView, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [member.name, member.email, member.externalId ?? ''].some((v) => v.toLowerCase().includes(q));
}

const displayName = (m: MemberView) => m.name || m.email;

/** Groups whose people the viewer may change: all for owners and admins; a manager's own groups and below. */
function managedGroupIds(groups: GroupView[], userId: string, role: Role): Set<string> {
  if (can(role, 'groups:manage')) return new Set(groups.map((g) => g.id));
  if (!can(role, 'groups:manage_own')) return new Set();
  const ids = new Set(groups.filter((g) => g.memberIds.includes(userId)).map((g) => g.id));
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of groups) {
      if (g.parentId && ids.has(g.parentId) && !ids.has(g.id)) {
        ids.add(g.id);
        grew = true;
      }
    }
  }
  return ids;
}

export default function UsersPage() {
  const me = useOutletContext<Me>();
  const workspace = useCurrentWorkspace(me);
  if (!workspace) return <ErrorPanel />;
  if (!can(workspace.role, 'members:view')) {
    return (
      <Alert color="blue" maw={640}>
        {texts.guestsCannotSee}
      </Alert>
    );
  }
  return <Users workspaceId={workspace.id} me={me} role={workspace.role} />;
}

function Users({ workspaceId, me, role }: { workspaceId: string; me: Me; role: Me['workspaces'][number]['role'] }) {
  const canManage = can(role, 'members:manage');
  const canInvite = can(role, 'members:invite');
  const canGroups = can(role, 'groups:manage');
  const members = useMembers(workspaceId);
  const groups = useGroups(workspaceId);
  const settings = useTeamSettings(workspaceId);
  const invites = useInvites(workspaceId, canInvite);

  const [search, setSearch] = useState('');
  const [inviteRole, setInviteRole] = useState<AssignableRole | null>(null);
  const [groupModal, setGroupModal] = useState<{ group?: GroupView; parentId?: string | null } | null>(null);
  const [bulk, setBulk] = useState(false);

  if (members.isError || groups.isError || settings.isError) {
    return <ErrorPanel onRetry={() => Promise.all([members.refetch(), groups.refetch(), settings.refetch()])} />;
  }
  if (!members.data || !groups.data || !settings.data) return <Loader aria-label="Loading users" />;

  const seats = settings.data.seats;
  const visible = members.data.filter((m) => matches(m, search));

  return (
    <Stack gap="md">
      <Alert color="teal" variant="light">
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{texts.guestBanner}</Text>
          {canInvite && (
            <Button size="xs" variant="white" color="teal" onClick={() => setInviteRole('guest')}>
              {texts.inviteGuest}
            </Button>
          )}
        </Group>
      </Alert>

      <Group justify="space-between">
        <Group gap="sm">
          {canInvite && (
            <Button leftSection={<IconUserPlus size={16} aria-hidden="true" />} onClick={() => setInviteRole('member')}>
              {texts.invitePeople.replace('+', '')}
            </Button>
          )}
          {canGroups && (
            <Button variant="default" onClick={() => setGroupModal({})}>
              {texts.createGroup}
            </Button>
          )}
        </Group>
        <Group gap="sm">
          <Text fw={600} data-testid="seat-count">
            {texts.seats(seats.used, seats.limit)}
          </Text>
          {seats.pendingInvites > 0 && (
            <Text size="sm" c="dimmed">
              {texts.invitedSeats(seats.pendingInvites)}
            </Text>
          )}
          <Anchor component={Link} to="/homepage/billing" size="sm">
            {texts.changeSeats}
          </Anchor>
        </Group>
      </Group>

      <TextInput
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        placeholder={texts.search}
        aria-label="Search"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={420}
      />

      {canInvite && invites.data && invites.data.length > 0 && (
        <PendingInvites workspaceId={workspaceId} invites={invites.data} />
      )}

      <TeamTable
        workspaceId={workspaceId}
        me={me}
        members={visible}
        allMembers={members.data}
        groups={groups.data}
        canManage={canManage}
        canGroups={canGroups}
        managedGroups={managedGroupIds(groups.data, me.user.id, role)}
        bulk={bulk}
        onBulkDone={() => setBulk(false)}
        onEditGroup={(group, parentId) => setGroupModal({ group, parentId })}
        searching={search.trim().length > 0}
      />

      <Group justify="space-between">
        {canManage ? (
          <Button variant={bulk ? 'filled' : 'default'} onClick={() => setBulk((b) => !b)}>
            {bulk ? texts.cancel : texts.bulkEdit}
          </Button>
        ) : (
          <span />
        )}
        <HideDisabledSetting
          workspaceId={workspaceId}
          saved={settings.data.hideDisabledUsers}
          editable={can(role, 'workspace:update')}
        />
      </Group>

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

/** Saved per workspace at once; shows the new state while the server confirms it. */
function HideDisabledSetting({
  workspaceId,
  saved,
  editable,
}: {
  workspaceId: string;
  saved: boolean;
  editable: boolean;
}) {
  const save = useSaveTeamSettings(workspaceId);
  const [checked, setChecked] = useState(saved);
  return (
    <Checkbox
      label={texts.hideDisabled}
      checked={checked}
      disabled={!editable}
      onChange={(e) => {
        const next = e.currentTarget.checked;
        setChecked(next);
        save.mutate(
          { hideDisabledUsers: next },
          {
            onSuccess: () => done('Setting saved.'),
            onError: (error) => {
              setChecked(!next);
              failed(error);
            },
          },
        );
      }}
    />
  );
}

function PendingInvites({
  workspaceId,
  invites,
}: {
  workspaceId: string;
  invites: NonNullable<ReturnType<typeof useInvites>['data']>;
}) {
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

interface TableProps {
  workspaceId: string;
  me: Me;
  members: MemberView[];
  allMembers: MemberView[];
  groups: GroupView[];
  canManage: boolean;
  canGroups: boolean;
  managedGroups: Set<string>;
  bulk: boolean;
  onBulkDone: () => void;
  onEditGroup: (group?: GroupView, parentId?: string | null) => void;
  searching: boolean;
}

function TeamTable(props: TableProps) {
  const { workspaceId, members, allMembers, groups, bulk, searching } = props;
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const byId = useMemo(() => new Map(allMembers.map((m) => [m.userId, m])), [allMembers]);
  const children = useMemo(() => {
    const map = new Map<string | null, GroupView[]>();
    for (const g of groups) map.set(g.parentId, [...(map.get(g.parentId) ?? []), g]);
    return map;
  }, [groups]);
  const visibleIds = new Set(members.map((m) => m.userId));
  const allExpanded = groups.length > 0 && groups.every((g) => expanded.has(g.id));

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleSelected = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const renderGroup = (group: GroupView, depth: number): React.ReactNode => {
    const open = expanded.has(group.id) || searching;
    const groupMembers = group.memberIds.flatMap((id) => {
      const m = byId.get(id);
      return m && visibleIds.has(id) ? [m] : [];
    });
    const subgroups = children.get(group.id) ?? [];
    return (
      <Fragment key={group.id}>
        <Table.Tr bg="var(--mantine-color-gray-0)">
          {bulk && <Table.Td />}
          <Table.Td style={{ paddingLeft: 12 + depth * 20 }}>
            <Group gap={6} wrap="nowrap">
              <UnstyledButton
                onClick={() => toggle(group.id)}
                aria-expanded={open}
                aria-label={`${open ? 'Collapse' : 'Expand'} group ${group.name}`}
              >
                {open ? (
                  <IconChevronDown size={16} aria-hidden="true" />
                ) : (
                  <IconChevronRight size={16} aria-hidden="true" />
                )}
              </UnstyledButton>
              <IconFolder size={16} aria-hidden="true" />
              <Text fw={600} size="sm">
                {group.name}
              </Text>
              <Text size="xs" c="dimmed">
                ({group.memberIds.length})
              </Text>
            </Group>
          </Table.Td>
          <Table.Td />
          <Table.Td />
          <Table.Td ta="right">
            {props.managedGroups.has(group.id) && (
              <GroupMenu
                workspaceId={workspaceId}
                group={group}
                members={allMembers}
                onEdit={props.onEditGroup}
                full={props.canGroups}
              />
            )}
          </Table.Td>
        </Table.Tr>
        {open &&
          groupMembers.map((m) => (
            <MemberRow
              key={`${group.id}-${m.userId}`}
              {...props}
              member={m}
              depth={depth + 1}
              inGroup={group}
              checked={selected.has(m.userId)}
              onCheck={() => toggleSelected(m.userId)}
            />
          ))}
        {open && subgroups.map((g) => renderGroup(g, depth + 1))}
      </Fragment>
    );
  };

  return (
    <Paper withBorder radius="md">
      <Table highlightOnHover aria-label="Groups and users">
        <Table.Thead>
          <Table.Tr>
            {bulk && (
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select all users"
                  checked={members.length > 0 && members.every((m) => selected.has(m.userId))}
                  onChange={(e) =>
                    setSelected(e.currentTarget.checked ? new Set(members.map((m) => m.userId)) : new Set())
                  }
                />
              </Table.Th>
            )}
            <Table.Th>
              <Group gap="xs">
                <span>{texts.groupsUsers}</span>
                {groups.length > 0 && (
                  <Anchor
                    component="button"
                    type="button"
                    size="xs"
                    onClick={() => setExpanded(allExpanded ? new Set() : new Set(groups.map((g) => g.id)))}
                  >
                    {allExpanded ? texts.collapseAll : texts.expandAll}
                  </Anchor>
                )}
              </Group>
            </Table.Th>
            <Table.Th>{texts.externalId}</Table.Th>
            <Table.Th>{texts.involvedIn}</Table.Th>
            <Table.Th>{texts.role}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(children.get(null) ?? []).map((g) => renderGroup(g, 0))}
          {groups.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={bulk ? 5 : 4}>
                <Text size="sm" c="dimmed">
                  {texts.noGroups}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Td colSpan={bulk ? 5 : 4}>
              <Title order={2} size="h5" mt="sm">
                {texts.people(members.length)}
              </Title>
            </Table.Td>
          </Table.Tr>
          {members.map((m) => (
            <MemberRow
              key={m.userId}
              {...props}
              member={m}
              depth={0}
              checked={selected.has(m.userId)}
              onCheck={() => toggleSelected(m.userId)}
            />
          ))}
        </Table.Tbody>
      </Table>
      {bulk && (
        <BulkEditBar
          workspaceId={workspaceId}
          groups={groups}
          selected={[...selected]}
          protectedIds={
            new Set(allMembers.filter((m) => m.role === 'owner' || m.userId === props.me.user.id).map((m) => m.userId))
          }
          onDone={() => {
            setSelected(new Set());
            props.onBulkDone();
          }}
        />
      )}
    </Paper>
  );
}

function MemberRow(
  props: TableProps & {
    member: MemberView;
    depth: number;
    inGroup?: GroupView;
    checked: boolean;
    onCheck: () => void;
  },
) {
  const { member, workspaceId, canManage, me, bulk, depth } = props;
  const [showProjects, setShowProjects] = useState(false);
  const update = useUpdateMember(workspaceId);
  const isOwner = member.role === 'owner';
  const isMe = member.userId === me.user.id;
  const editable = canManage && !isOwner && !isMe;

  return (
    <Table.Tr opacity={member.status === 'disabled' ? 0.55 : 1} data-testid={`member-${member.email}`}>
      {bulk && (
        <Table.Td>
          <Checkbox aria-label={`Select ${member.email}`} checked={props.checked} onChange={props.onCheck} />
        </Table.Td>
      )}
      <Table.Td style={{ paddingLeft: 12 + depth * 20 }}>
        <Group gap={8} wrap="nowrap">
          <IconUser size={16} aria-hidden="true" />
          <div>
            <Text size="sm" fw={500}>
              {displayName(member)}
            </Text>
            {member.name && (
              <Text size="xs" c="dimmed">
                {member.email}
              </Text>
            )}
          </div>
          {isOwner && (
            <Badge variant="light" size="sm">
              {texts.accountOwner}
            </Badge>
          )}
          {member.status === 'disabled' && (
            <Badge color="gray" size="sm">
              {texts.disabled}
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        {canManage && !props.inGroup ? (
          <ExternalIdInput
            key={member.externalId ?? ''}
            value={member.externalId ?? ''}
            label={`External id of ${member.email}`}
            onSave={(externalId) =>
              update.mutate(
                { userId: member.userId, externalId },
                { onSuccess: () => done('External id saved.'), onError: failed },
              )
            }
          />
        ) : (
          <Text size="sm">{member.externalId ?? ''}</Text>
        )}
      </Table.Td>
      <Table.Td>
        {member.projects.length > 0 ? (
          <>
            <Anchor component="button" type="button" size="sm" onClick={() => setShowProjects((s) => !s)}>
              {texts.projects(member.projects.length)}
            </Anchor>
            {showProjects && (
              <Stack gap={0} mt={4}>
                {member.projects.map((p) => (
                  <Text key={p.id} size="xs">
                    {p.name}
                  </Text>
                ))}
              </Stack>
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {texts.projects(0)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" justify="space-between">
          {editable && !props.inGroup ? (
            <Select
              size="xs"
              aria-label={`Role of ${member.email}`}
              data={roleOptions(ASSIGNABLE_ROLES)}
              value={member.role}
              allowDeselect={false}
              onChange={(v) =>
                v &&
                update.mutate(
                  { userId: member.userId, role: v as AssignableRole },
                  {
                    onSuccess: () => done(`${member.email} is now ${ROLE_LABELS[v as AssignableRole]}.`),
                    onError: failed,
                  },
                )
              }
              w={150}
            />
          ) : (
            <Text size="sm">{isOwner ? ROLE_LABELS.admin : member.roleLabel}</Text>
          )}
          <MemberMenu {...props} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function ExternalIdInput({
  value,
  label,
  onSave,
}: {
  value: string;
  label: string;
  onSave: (v: string | null) => void;
}) {
  const [draft, setDraft] = useState(value);
  const commit = () => {
    if (draft.trim() !== value) onSave(draft.trim() || null);
  };
  return (
    <TextInput
      size="xs"
      aria-label={label}
      placeholder="—"
      value={draft}
      maxLength={100}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
      w={130}
    />
  );
}

function MemberMenu(props: TableProps & { member: MemberView; inGroup?: GroupView }) {
  const { member, workspaceId, canManage, managedGroups, me, groups, inGroup } = props;
  const update = useUpdateMember(workspaceId);
  const remove = useRemoveMember(workspaceId);
  const transfer = useTransferOwnership(workspaceId);
  const membership = useGroupMembership(workspaceId);
  const { confirm, dialog } = useConfirm();
  const workspace = useCurrentWorkspace(me);
  const isMe = member.userId === me.user.id;
  const isOwner = member.role === 'owner';
  const editable = canManage && !isOwner && !isMe;
  const canTransfer = workspace?.role === 'owner' && !isMe && member.role !== 'guest' && member.status === 'active';
  const addable = groups.filter((g) => managedGroups.has(g.id) && !g.memberIds.includes(member.userId));
  const canGroups = inGroup ? managedGroups.has(inGroup.id) : addable.length > 0;
  if (!editable && !canGroups && !canTransfer) return null;

  const setStatus = (status: MemberStatus) =>
    update.mutate(
      { userId: member.userId, status },
      {
        onSuccess: () => done(status === 'disabled' ? `${member.email} is disabled.` : `${member.email} is enabled.`),
        onError: failed,
      },
    );

  return (
    <>
      {dialog}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${member.email}`}>
            <IconDots size={16} aria-hidden="true" />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {inGroup && canGroups && (
            <Menu.Item
              onClick={() =>
                membership.mutate(
                  { groupId: inGroup.id, userId: member.userId, add: false },
                  { onSuccess: () => done(`Removed from ${inGroup.name}.`), onError: failed },
                )
              }
            >
              Remove from {inGroup.name}
            </Menu.Item>
          )}
          {!inGroup && canGroups && addable.length > 0 && (
            <>
              <Menu.Label>Add to group</Menu.Label>
              {addable.map((g) => (
                <Menu.Item
                  key={g.id}
                  onClick={() =>
                    membership.mutate(
                      { groupId: g.id, userId: member.userId, add: true },
                      { onSuccess: () => done(`${member.email} added to ${g.name}.`), onError: failed },
                    )
                  }
                >
                  {g.name}
                </Menu.Item>
              ))}
              <Menu.Divider />
            </>
          )}
          {editable &&
            (member.status === 'active' ? (
              <Menu.Item onClick={() => setStatus('disabled')}>Disable</Menu.Item>
            ) : (
              <Menu.Item onClick={() => setStatus('active')}>Enable</Menu.Item>
            ))}
          {canTransfer && !inGroup && (
            <Menu.Item
              onClick={() =>
                confirm({
                  title: 'Transfer ownership',
                  message: `Make ${member.email} the account owner? You will become an administrator, and only the new owner can transfer it back.`,
                  confirmLabel: 'Transfer',
                  onConfirm: () =>
                    transfer.mutate(member.userId, {
                      onSuccess: () => done(`${member.email} is now the account owner.`),
                      onError: failed,
                    }),
                })
              }
            >
              Transfer ownership
            </Menu.Item>
          )}
          {editable && !inGroup && (
            <Menu.Item
              color="red"
              onClick={() =>
                confirm({
                  title: 'Remove from workspace',
                  message: `Remove ${member.email} from this workspace? Their account and the time they tracked stay, still attributed to them.`,
                  confirmLabel: 'Remove',
                  danger: true,
                  onConfirm: () =>
                    remove.mutate(member.userId, {
                      onSuccess: () => done(`${member.email} removed.`),
                      onError: failed,
                    }),
                })
              }
            >
              Remove from workspace
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

function GroupMenu({
  workspaceId,
  group,
  members,
  onEdit,
  full,
}: {
  workspaceId: string;
  group: GroupView;
  members: MemberView[];
  onEdit: (group?: GroupView, parentId?: string | null) => void;
  /** Rename, move, subgroups and delete too; otherwise only who is in it (a manager's own group). */
  full: boolean;
}) {
  const remove = useDeleteGroup(workspaceId);
  const membership = useGroupMembership(workspaceId);
  const { confirm, dialog } = useConfirm();
  const addable = members.filter((m) => !group.memberIds.includes(m.userId));
  return (
    <>
      {dialog}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for group ${group.name}`}>
            <IconDots size={16} aria-hidden="true" />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }}>
          {full && (
            <>
              <Menu.Item onClick={() => onEdit(group)}>Rename or move</Menu.Item>
              <Menu.Item onClick={() => onEdit(undefined, group.id)}>Add subgroup</Menu.Item>
              <Menu.Item
                color="red"
                onClick={() =>
                  confirm({
                    title: 'Delete group',
                    message: `Delete ${group.name}? Its subgroups move up one level; its people stay in the workspace.`,
                    confirmLabel: 'Delete',
                    danger: true,
                    onConfirm: () =>
                      remove.mutate(group.id, {
                        onSuccess: () => done(`Group ${group.name} deleted.`),
                        onError: failed,
                      }),
                  })
                }
              >
                Delete group
              </Menu.Item>
            </>
          )}
          {addable.length > 0 && (
            <>
              {full && <Menu.Divider />}
              <Menu.Label>Add people</Menu.Label>
              {addable.map((m) => (
                <Menu.Item
                  key={m.userId}
                  onClick={() =>
                    membership.mutate(
                      { groupId: group.id, userId: m.userId, add: true },
                      { onSuccess: () => done(`${m.email} added to ${group.name}.`), onError: failed },
                    )
                  }
                >
                  {displayName(m)}
                </Menu.Item>
              ))}
            </>
          )}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}

function BulkEditBar({
  workspaceId,
  groups,
  selected,
  protectedIds,
  onDone,
}: {
  workspaceId: string;
  groups: GroupView[];
  selected: string[];
  /** The account owner and oneself: their role and status do not change in bulk. */
  protectedIds: Set<string>;
  onDone: () => void;
}) {
  const bulk = useBulkEdit(workspaceId);
  const [role, setRole] = useState<string | null>(null);
  const [groupId, setGroupId] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const nothing = !role && !groupId && !status;

  const handleSave = async () => {
    const access = role || status;
    const skipped = access ? selected.filter((id) => protectedIds.has(id)) : [];
    const changed = selected.filter((id) => !skipped.includes(id));
    try {
      let count = 0;
      if (changed.length > 0) {
        const result = await bulk.mutateAsync({
          userIds: changed,
          role: (role ?? undefined) as AssignableRole | undefined,
          status: (status ?? undefined) as MemberStatus | undefined,
          addToGroupId: groupId ?? undefined,
        });
        count = result.items.length;
      }
      if (groupId && skipped.length > 0) {
        await bulk.mutateAsync({ userIds: skipped, addToGroupId: groupId });
        count += skipped.length;
      }
      const note =
        access && skipped.length > 0 ? ' The role and status of the account owner and your own stay as they are.' : '';
      done(`${count} ${count === 1 ? 'user' : 'users'} updated.${note}`);
      onDone();
    } catch (error) {
      failed(error);
    }
  };

  return (
    <Group p="md" gap="sm" align="flex-end" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Text size="sm" fw={500}>
        {selected.length} selected
      </Text>
      <Select
        size="xs"
        label="Change role"
        placeholder="Keep"
        data={roleOptions(ASSIGNABLE_ROLES)}
        value={role}
        onChange={setRole}
        clearable
        w={160}
      />
      <Select
        size="xs"
        label="Add to group"
        placeholder="Keep"
        data={groupOptions(groups)}
        value={groupId}
        onChange={setGroupId}
        clearable
        w={160}
      />
      <Select
        size="xs"
        label="Status"
        placeholder="Keep"
        data={[
          { value: 'active', label: 'Active' },
          { value: 'disabled', label: 'Disabled' },
        ]}
        value={status}
        onChange={setStatus}
        clearable
        w={130}
      />
      <Button size="xs" onClick={handleSave} disabled={selected.length === 0 || nothing} loading={bulk.isPending}>
        {texts.save}
      </Button>
    </Group>
  );
}
