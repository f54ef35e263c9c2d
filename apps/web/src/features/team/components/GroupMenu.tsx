import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { HistoryMenuItem } from '../../../components/History';
import { done, failed } from '../../../components/notify';
import { type GroupView, type MemberView, useDeleteGroup, useGroupMembership } from '../api';
import { displayName } from './people';
import { useConfirm } from './useConfirm';

/** A group's menu: rename or move, add subgroup, delete, add people. */
export function GroupMenu({
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
              <HistoryMenuItem subjectId={group.id} />
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
