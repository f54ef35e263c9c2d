import { Button, Group, Select, Text } from '@mantine/core';
import { ASSIGNABLE_ROLES, type AssignableRole, type MemberStatus } from '@sundial/core';
import { useState } from 'react';
import { useWorkspace } from '../../../api/session';
import { groupOptions } from '../../../api/team';
import { done, failed } from '../../../components/notify';
import { type GroupView, useBulkEdit } from '../api';
import { roleOptions, texts } from '../texts';

/** Bulk edit of the selected people: role, a group to add them to, status; then Save. */
export function BulkEditBar({
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
  const managersLocked = !useWorkspace().hasFeature('management_roles');
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
    <Group p="md" gap="sm" align="flex-end" style={{ borderTop: '1px solid var(--sundial-color-border)' }}>
      <Text size="sm" fw={500}>
        {selected.length} selected
      </Text>
      <KeepSelect
        label="Change role"
        data={roleOptions(ASSIGNABLE_ROLES, managersLocked)}
        value={role}
        onChange={setRole}
        w={160}
      />
      <KeepSelect label="Add to group" data={groupOptions(groups)} value={groupId} onChange={setGroupId} w={160} />
      <KeepSelect label="Status" data={STATUS_OPTIONS} value={status} onChange={setStatus} w={130} />
      <Button size="xs" onClick={handleSave} disabled={selected.length === 0 || nothing} loading={bulk.isPending}>
        {texts.save}
      </Button>
    </Group>
  );
}

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
];

/** A bulk-edit choice: empty ("Keep") leaves that property of the selected people as it is. */
function KeepSelect(props: {
  label: string;
  data: { value: string; label: string }[];
  value: string | null;
  onChange: (value: string | null) => void;
  w: number;
}) {
  return <Select size="xs" placeholder="Keep" clearable {...props} />;
}
