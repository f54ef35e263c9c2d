import { ActionIcon, Menu, Modal } from '@mantine/core';
import { can, type MemberStatus } from '@sundial/core';
import { IconDots } from '@tabler/icons-react';
import { useState } from 'react';
import { useRateSettings } from '../../../api/rates';
import { useWorkspace } from '../../../api/session';
import { HistoryMenuItem } from '../../../components/History';
import { done, failed } from '../../../components/notify';
import { RatesPanel } from '../../../components/rates/RatesPanel';
import {
  type GroupView,
  type MemberView,
  useGroupMembership,
  useRemoveMember,
  useResetMemberTwoFactor,
  useTransferOwnership,
  useUpdateMember,
} from '../api';
import type { PeopleTableProps } from './PeopleTable';
import { useConfirm } from './useConfirm';

/** A person's menu: groups, their rates, disable or enable, transfer ownership, remove from the workspace. */
export function MemberMenu(props: PeopleTableProps & { member: MemberView; inGroup?: GroupView }) {
  const { member, workspaceId, canManage, managedGroups, me, groups, inGroup } = props;
  const update = useUpdateMember(workspaceId);
  const remove = useRemoveMember(workspaceId);
  const transfer = useTransferOwnership(workspaceId);
  const membership = useGroupMembership(workspaceId);
  const resetTwoFactor = useResetMemberTwoFactor(workspaceId);
  const { confirm, dialog } = useConfirm();
  const { role } = useWorkspace();
  const isMe = member.userId === me.user.id;
  const isOwner = member.role === 'owner';
  const editable = canManage && !isOwner && !isMe;
  const canTransfer = role === 'owner' && !isMe && member.role !== 'guest' && member.status === 'active';
  const addable = groups.filter((g) => managedGroups.has(g.id) && !g.memberIds.includes(member.userId));
  const canGroups = inGroup ? managedGroups.has(inGroup.id) : addable.length > 0;
  const ownBillable = useRateSettings(workspaceId).data?.membersSeeOwnBillable ?? false;
  // Who may read this person's rates (the API decides; this only hides what it would refuse):
  // owners and admins; a manager for themselves and the people of the groups they manage; a member
  // their own when the workspace lets members see their own billable rates.
  const managesThem =
    role === 'manager' && (isMe || groups.some((g) => managedGroups.has(g.id) && g.memberIds.includes(member.userId)));
  const canRates = !inGroup && (can(role, 'rates:manage') || managesThem || (isMe && ownBillable));
  const [rates, setRates] = useState(false);
  if (!editable && !canGroups && !canTransfer && !canRates) return null;

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
      {rates && (
        <Modal opened onClose={() => setRates(false)} title={`Rates of ${member.name || member.email}`} size="lg">
          <RatesPanel
            workspaceId={workspaceId}
            target={{ level: 'member', userId: member.userId }}
            label={member.name || member.email}
          />
        </Modal>
      )}
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
          {canRates && <Menu.Item onClick={() => setRates(true)}>Rates</Menu.Item>}
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
              onClick={() =>
                confirm({
                  title: 'Reset two-factor authentication',
                  message: `Turn off two-factor authentication for ${member.email} (a lost phone)? They are signed out everywhere and told by e-mail.`,
                  confirmLabel: 'Reset',
                  danger: true,
                  onConfirm: () =>
                    resetTwoFactor.mutate(member.userId, {
                      onSuccess: () => done(`Two-factor authentication of ${member.email} is reset.`),
                      onError: failed,
                    }),
                })
              }
            >
              Reset two-factor authentication
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
          <HistoryMenuItem subjectId={member.userId} />
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
