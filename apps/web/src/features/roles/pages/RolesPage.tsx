import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  CUSTOM_ROLE_BASES,
  type CustomRoleBase,
  formatDateTime,
  NOT_IN_CUSTOM_ROLES,
  PERMISSION_LABELS,
  type Permission,
  permissionsByArea,
  permissionsOfRole,
  ROLE_LABELS,
} from '@sundial/core';
import { type ReactNode, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { useGroups, useMembers } from '../../../api/team';
import { CopyField } from '../../../components/CopyField';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import {
  type CustomRoleView,
  useAssignRole,
  useCustomRoles,
  useDeleteRole,
  useIssueScimToken,
  useRevokeScimToken,
  useSaveRole,
  useScimToken,
} from '../api';

const AREAS = permissionsByArea()
  .map((area) => ({ ...area, permissions: area.permissions.filter((p) => !NOT_IN_CUSTOM_ROLES.includes(p)) }))
  .filter((area) => area.permissions.length > 0);

/** Roles and access (TEAM): custom roles from the permission matrix, and the SCIM token. Owners and admins. */
export default function RolesPage() {
  const { workspaceId, can, hasFeature } = useWorkspace();
  if (!can('roles:manage')) {
    return (
      <Alert color="blue" maw={640}>
        Only owners and administrators manage roles.
      </Alert>
    );
  }
  return (
    <Stack gap="xl" maw={1100}>
      <Roles workspaceId={workspaceId} enabled={hasFeature('custom_roles')} />
      {can('scim:manage') && <Scim workspaceId={workspaceId} enabled={hasFeature('sso')} />}
    </Stack>
  );
}

function Roles({ workspaceId, enabled }: { workspaceId: string; enabled: boolean }) {
  const roles = useCustomRoles(workspaceId, true);
  const members = useMembers(workspaceId, '');
  const groups = useGroups(workspaceId);
  const assign = useAssignRole(workspaceId);
  const remove = useDeleteRole(workspaceId);
  const [editing, setEditing] = useState<CustomRoleView | 'new' | null>(null);
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  const roleOf = (kind: 'memberIds' | 'groupIds', id: string) =>
    roles.data?.find((r) => r[kind].includes(id))?.id ?? null;
  const onAssign = (kind: 'members' | 'groups', id: string, customRoleId: string | null) =>
    assign.mutate({ kind, id, customRoleId }, { onSuccess: () => done('Role updated.'), onError: failed });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Roles</Title>
        {enabled ? (
          <Button onClick={() => setEditing('new')}>New role</Button>
        ) : (
          <UpgradePrompt feature="custom_roles" compact />
        )}
      </Group>
      <Text c="dimmed" size="sm">
        A custom role replaces the permissions of a member's built-in role; a group's role is added to those of its
        members. Without the Pro plan, roles act as their base role and are kept.
      </Text>
      {roles.isError ? (
        <ErrorPanel onRetry={() => void roles.refetch()} />
      ) : roles.data && roles.data.length === 0 ? (
        <Paper withBorder p="lg" data-testid="roles-empty">
          <Text>No custom roles yet. Start one from a built-in role and tick what it may do.</Text>
        </Paper>
      ) : (
        <Table withTableBorder data-testid="roles-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Role</Table.Th>
              <Table.Th>Based on</Table.Th>
              <Table.Th>Permissions</Table.Th>
              <Table.Th>Held by</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(roles.data ?? []).map((role) => (
              <Table.Tr key={role.id}>
                <Table.Td fw={600}>{role.name}</Table.Td>
                <Table.Td>{ROLE_LABELS[role.baseRole]}</Table.Td>
                <Table.Td>{role.permissions.length}</Table.Td>
                <Table.Td>
                  {role.memberIds.length} people, {role.groupIds.length} groups
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end">
                    <Button size="xs" variant="default" disabled={!enabled} onClick={() => setEditing(role)}>
                      Edit
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() =>
                        remove.mutate(role.id, { onSuccess: () => done('Role deleted.'), onError: failed })
                      }
                    >
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      {roleOptions.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              People
            </Title>
            <Stack gap="xs">
              {members.items
                .filter((m) => m.role !== 'owner' && m.status === 'active')
                .map((m) => (
                  <Holder
                    key={m.userId}
                    name={
                      <>
                        {m.name || m.email} <Badge variant="light">{m.roleLabel}</Badge>
                      </>
                    }
                    label={`Custom role of ${m.name || m.email}`}
                    placeholder="Built-in role"
                    options={roleOptions}
                    value={roleOf('memberIds', m.userId)}
                    disabled={!enabled}
                    onChange={(value) => onAssign('members', m.userId, value)}
                  />
                ))}
            </Stack>
          </Paper>
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              Groups
            </Title>
            <Stack gap="xs">
              {(groups.data ?? []).length === 0 && <Text c="dimmed">No groups.</Text>}
              {(groups.data ?? []).map((g) => (
                <Holder
                  key={g.id}
                  name={g.name}
                  label={`Custom role of group ${g.name}`}
                  placeholder="None"
                  options={roleOptions}
                  value={roleOf('groupIds', g.id)}
                  disabled={!enabled}
                  onChange={(value) => onAssign('groups', g.id, value)}
                />
              ))}
            </Stack>
          </Paper>
        </SimpleGrid>
      )}
      {editing && (
        <RoleModal
          workspaceId={workspaceId}
          role={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

/** One person or group and the custom role they hold (none: their built-in role alone). */
function Holder(props: {
  name: ReactNode;
  label: string;
  placeholder: string;
  options: { value: string; label: string }[];
  value: string | null;
  disabled: boolean;
  onChange: (value: string | null) => void;
}) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" truncate>
        {props.name}
      </Text>
      <Select
        aria-label={props.label}
        w={200}
        size="xs"
        clearable
        placeholder={props.placeholder}
        data={props.options}
        value={props.value}
        disabled={props.disabled}
        onChange={props.onChange}
      />
    </Group>
  );
}

/** The checkbox matrix, grouped by area; a built-in role fills it in as a template. */
function RoleModal({
  workspaceId,
  role,
  onClose,
}: {
  workspaceId: string;
  role: CustomRoleView | null;
  onClose: () => void;
}) {
  const save = useSaveRole(workspaceId);
  const [name, setName] = useState(role?.name ?? '');
  const [baseRole, setBaseRole] = useState<CustomRoleBase>(role?.baseRole ?? 'member');
  const [checked, setChecked] = useState<Set<Permission>>(new Set(role?.permissions ?? permissionsOfRole('member')));
  const [error, setError] = useState<string | null>(null);
  const toggle = (p: Permission, on: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (on) next.add(p);
      else next.delete(p);
      return next;
    });
  const applyTemplate = (value: CustomRoleBase) => {
    setBaseRole(value);
    setChecked(new Set(permissionsOfRole(value).filter((p) => !NOT_IN_CUSTOM_ROLES.includes(p))));
  };
  const submit = () =>
    save.mutate(
      { id: role?.id, body: { name, baseRole, permissions: [...checked] } },
      {
        onSuccess: () => {
          done(role ? 'Role saved.' : 'Role created.');
          onClose();
        },
        onError: (e) => setError(parseApiError(e).message),
      },
    );
  return (
    <Modal opened onClose={onClose} title={role ? `Edit ${role.name}` : 'New role'} size="xl">
      <Stack>
        <Group grow align="flex-end">
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
          <Select
            label="Start from (and fall back to)"
            data={CUSTOM_ROLE_BASES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
            value={baseRole}
            allowDeselect={false}
            onChange={(value) => value && applyTemplate(value as CustomRoleBase)}
          />
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {AREAS.map((area) => (
            <Paper key={area.area} withBorder p="sm">
              <Text fw={600} mb={6}>
                {area.label}
              </Text>
              <Stack gap={6}>
                {area.permissions.map((p) => (
                  <Checkbox
                    key={p}
                    label={PERMISSION_LABELS[p]}
                    checked={p === 'workspace:view' || checked.has(p)}
                    disabled={p === 'workspace:view'}
                    onChange={(e) => toggle(p, e.currentTarget.checked)}
                  />
                ))}
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
        {error && (
          <Alert color="red" data-testid="role-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            Save role
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The workspace's SCIM token for Okta or Entra: made (shown once), replaced, revoked. */
function Scim({ workspaceId, enabled }: { workspaceId: string; enabled: boolean }) {
  const clock = useClockFormat();
  const status = useScimToken(workspaceId, true);
  const issue = useIssueScimToken(workspaceId);
  const revoke = useRevokeScimToken(workspaceId);
  const [shown, setShown] = useState<string | null>(null);
  return (
    <Stack gap="sm" data-testid="scim-section">
      <Title order={2}>Provisioning (SCIM)</Title>
      <Text c="dimmed" size="sm">
        Let Okta or Microsoft Entra create, update and deactivate members and groups. Someone who already has a Sundial
        account is sent an invitation and joins when they accept it. The token is shown once; a new one replaces it.
      </Text>
      {!enabled ? (
        <UpgradePrompt feature="sso" />
      ) : (
        <Paper withBorder p="md">
          <Stack>
            {status.data && <CopyField label="SCIM base URL" value={status.data.baseUrl} copy="Copy" copied="Copied" />}
            {shown && (
              <>
                <CopyField label="Token (shown once)" value={shown} copy="Copy token" copied="Copied" />
                <Alert color="yellow">Copy it now: Sundial keeps only a fingerprint and cannot show it again.</Alert>
              </>
            )}
            <Text size="sm">
              {status.data?.active
                ? `A token is set${status.data.lastUsedAt ? `, last used ${formatDateTime(status.data.lastUsedAt, clock)}` : ', not used yet'}.`
                : 'No token yet.'}
            </Text>
            <Group>
              <Button
                onClick={() => issue.mutate(undefined, { onSuccess: (r) => setShown(r.token), onError: failed })}
                loading={issue.isPending}
              >
                {status.data?.active ? 'Replace token' : 'Generate token'}
              </Button>
              {status.data?.active && (
                <Button
                  variant="default"
                  color="red"
                  onClick={() =>
                    revoke.mutate(undefined, {
                      onSuccess: () => {
                        setShown(null);
                        done('Token revoked.');
                      },
                      onError: failed,
                    })
                  }
                >
                  Revoke
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
