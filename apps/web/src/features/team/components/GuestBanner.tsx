import { Alert, Button, Group, Text } from '@mantine/core';
import { texts } from '../texts';

/** The banner about inviting guests free of charge, with "Invite guest" for those who may invite. */
export function GuestBanner({ onInviteGuest }: { onInviteGuest?: () => void }) {
  return (
    <Alert color="teal" variant="light">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{texts.guestBanner}</Text>
        {onInviteGuest && (
          <Button size="xs" variant="white" color="teal" onClick={onInviteGuest} style={{ flexShrink: 0 }}>
            {texts.inviteGuest}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
