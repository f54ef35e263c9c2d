import { Anchor, Checkbox, Group, Paper, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconFolder } from '@tabler/icons-react';
import { Fragment, type ReactNode, useMemo, useState } from 'react';
import type { Me } from '../../../api/session';
import type { GroupView, MemberView } from '../api';
import { texts } from '../texts';
import { BulkEditBar } from './BulkEditBar';
import { GroupMenu } from './GroupMenu';
import { MemberRow } from './MemberRow';
import { toggled } from './people';

export interface PeopleTableProps {
  workspaceId: string;
  me: Me;
  /** The people shown (loaded and matching the search). */
  members: MemberView[];
  /** How many people the heading counts: all that match, loaded or not. */
  total: number;
  /** Every person loaded so far, to list under their groups. */
  allMembers: MemberView[];
  groups: GroupView[];
  canManage: boolean;
  canGroups: boolean;
  managedGroups: Set<string>;
  bulk: boolean;
  onBulkDone: () => void;
  onEditGroup: (group?: GroupView, parentId?: string | null) => void;
  searching: boolean;
  /** Loads the next page of people; absent when every person is loaded. */
  onLoadMore?: () => void;
}

/** The table Groups/users: the group tree (EXPAND ALL), then the people, with bulk edit. */
export function PeopleTable(props: PeopleTableProps) {
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

  const toggle = (id: string) => setExpanded((prev) => toggled(prev, id));
  const toggleSelected = (id: string) => setSelected((prev) => toggled(prev, id));

  const renderGroup = (group: GroupView, depth: number): ReactNode => {
    const open = expanded.has(group.id) || searching;
    const groupMembers = group.memberIds.flatMap((id) => {
      const m = byId.get(id);
      return m && visibleIds.has(id) ? [m] : [];
    });
    // People of the group on pages not loaded yet (the list loads a page at a time).
    const notLoaded = group.memberIds.filter((id) => !byId.has(id)).length;
    const subgroups = children.get(group.id) ?? [];
    return (
      <Fragment key={group.id}>
        <Table.Tr bg="var(--sundial-color-subtle)">
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
        {open && !searching && notLoaded > 0 && (
          <Table.Tr>
            <Table.Td colSpan={bulk ? 5 : 4} style={{ paddingLeft: 12 + (depth + 1) * 20 }}>
              <Group gap="xs">
                <Text size="sm" c="dimmed">
                  {texts.notLoaded(notLoaded)}
                </Text>
                {props.onLoadMore && (
                  <Anchor component="button" type="button" size="sm" onClick={props.onLoadMore}>
                    {texts.showMore}
                  </Anchor>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
        {open && subgroups.map((g) => renderGroup(g, depth + 1))}
      </Fragment>
    );
  };

  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={640} type="native">
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
                  {texts.people(props.total)}
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
      </Table.ScrollContainer>
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
