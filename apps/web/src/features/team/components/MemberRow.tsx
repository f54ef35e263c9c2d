import { Anchor, Badge, Checkbox, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { ASSIGNABLE_ROLES, type AssignableRole, ROLE_LABELS } from '@sundial/core';
import { IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { useWorkspace } from '../../../api/session';
import { done, failed } from '../../../components/notify';
import { type GroupView, type MemberView, useUpdateMember } from '../api';
import { roleLabel, roleOptions, texts } from '../texts';
import { MemberMenu } from './MemberMenu';
import type { PeopleTableProps } from './PeopleTable';
import { displayName } from './people';

/** One person in the table: name, external id (edited inline), INVOLVED IN, role and menu. */
export function MemberRow(
  props: PeopleTableProps & {
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
  const managersLocked = !useWorkspace().hasFeature('management_roles');

  return (
    // A disabled member reads dimmed (still AA), not faded by opacity, which would drop below AA.
    <Table.Tr c={member.status === 'disabled' ? 'dimmed' : undefined} data-testid={`member-${member.email}`}>
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
              data={roleOptions(ASSIGNABLE_ROLES, managersLocked)}
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
            <Text size="sm">
              {isOwner
                ? ROLE_LABELS.admin
                : member.role === 'manager'
                  ? roleLabel(member.role, managersLocked)
                  : member.roleLabel}
            </Text>
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
