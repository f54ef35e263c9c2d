import { Anchor, Button, Group, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { TeamSettings } from '../api';
import { texts } from '../texts';

/** "Invite people", "Create group", the seat figure with "Change number of seats", and the search box. */
export function TeamToolbar({
  seats,
  onInvite,
  onCreateGroup,
  search,
  onSearch,
  canChangeSeats,
}: {
  seats: TeamSettings['seats'];
  /** Absent when the viewer may not invite (or create groups). */
  onInvite?: () => void;
  onCreateGroup?: () => void;
  search: string;
  onSearch: (value: string) => void;
  /** Buying seats is for those who may manage billing (owners and admins). */
  canChangeSeats: boolean;
}) {
  return (
    <>
      <Group justify="space-between">
        <Group gap="sm">
          {onInvite && (
            <Button leftSection={<IconUserPlus size={16} aria-hidden="true" />} onClick={onInvite}>
              {texts.invitePeople.replace('+', '')}
            </Button>
          )}
          {onCreateGroup && (
            <Button variant="default" onClick={onCreateGroup}>
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
          {canChangeSeats && (
            <Anchor component={Link} to="/homepage/billing" size="sm">
              {texts.changeSeats}
            </Anchor>
          )}
        </Group>
      </Group>

      <TextInput
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        placeholder={texts.search}
        aria-label="Search"
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
        maw={420}
      />
    </>
  );
}
