import { Alert, Anchor, Button, Checkbox, Group, Modal, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { type CreatedCalendarFeedView, formatDateTime } from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { CopyField } from '../../../components/CopyField';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import {
  useCalendarFeed,
  useIssueCalendarFeed,
  useRemoveCalendarFeed,
  useUpdateCalendarFeed,
} from '../calendar-feed-api';

/** What the section says, in one place. */
const TEXT = {
  title: 'Calendar feed',
  intro:
    'See your time entries in Google Calendar, Outlook or Apple Calendar: subscribe to your private address ' +
    '(“From URL” or “Subscribe to calendar”). It holds the last 90 days and the next 30, and calendars read it about hourly.',
  none: 'You have no calendar feed in this workspace yet.',
  create: 'Create calendar address',
  includeTeam: 'Include the time of the people I manage',
  shownOnce: 'Copy this address now: it is shown only once. Anyone who has it sees the entries in the feed.',
  address: 'Your calendar address',
  copy: 'Copy address',
  copied: 'Copied',
  openApp: 'Open in your calendar app',
  hide: 'Hide the address',
  reset: 'Reset address',
  remove: 'Remove feed',
  resetConfirm: 'Reset the address? Calendars subscribed to the old one stop updating; subscribe them to the new one.',
  removeConfirm: 'Remove the feed? Calendars subscribed to it stop updating at once.',
} as const;

/**
 * The person's private iCalendar feed of their time in the current workspace: made here, its
 * address shown once (copy it then), reset (a new address, the old one stops) or removed.
 */
export function CalendarFeedSection() {
  const { workspaceId } = useWorkspace();
  const clock = useClockFormat();
  const feed = useCalendarFeed(workspaceId);
  const issue = useIssueCalendarFeed(workspaceId);
  const update = useUpdateCalendarFeed(workspaceId);
  const [created, setCreated] = useState<CreatedCalendarFeedView | null>(null);
  const [includeTeam, setIncludeTeam] = useState(false);
  const [confirming, setConfirming] = useState<'reset' | 'remove' | null>(null);
  const state = feed.data;

  const handleIssue = (team: boolean) =>
    issue.mutate({ includeTeam: team }, { onSuccess: (answer) => setCreated(answer), onError: failed });

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="calendar-feed-title" id="calendar-feed">
      <Title order={2} size="h4" id="calendar-feed-title" mb={4}>
        {TEXT.title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {TEXT.intro}
      </Text>
      {feed.error ? (
        <ErrorPanel message={parseApiError(feed.error).message} onRetry={() => feed.refetch()} />
      ) : !state ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : (
        <Stack gap="sm">
          {created && (
            <Alert
              color="blue"
              title={TEXT.shownOnce}
              withCloseButton
              closeButtonLabel={TEXT.hide}
              onClose={() => setCreated(null)}
            >
              <Stack gap="xs">
                <CopyField label={TEXT.address} value={created.url} copy={TEXT.copy} copied={TEXT.copied} />
                <Anchor href={created.webcalUrl} size="sm">
                  {TEXT.openApp}
                </Anchor>
              </Stack>
            </Alert>
          )}
          {!state.exists ? (
            <>
              <Text size="sm">{TEXT.none}</Text>
              {state.canIncludeTeam && (
                <Checkbox
                  label={TEXT.includeTeam}
                  checked={includeTeam}
                  onChange={(e) => setIncludeTeam(e.currentTarget.checked)}
                />
              )}
              <Group>
                <Button variant="light" loading={issue.isPending} onClick={() => handleIssue(includeTeam)}>
                  {TEXT.create}
                </Button>
              </Group>
            </>
          ) : (
            <>
              <Text size="sm">
                Made {state.createdAt ? formatDateTime(state.createdAt, clock) : ''}
                {' · '}
                {state.lastUsedAt
                  ? `last read by a calendar ${formatDateTime(state.lastUsedAt, clock)}`
                  : 'not read by a calendar yet'}
              </Text>
              {state.canIncludeTeam && (
                <Switch
                  label={TEXT.includeTeam}
                  checked={state.includeTeam}
                  disabled={update.isPending}
                  onChange={(e) =>
                    update.mutate(
                      { includeTeam: e.currentTarget.checked },
                      { onSuccess: () => done('Calendar feed updated.'), onError: failed },
                    )
                  }
                />
              )}
              <Group>
                <Button variant="light" onClick={() => setConfirming('reset')}>
                  {TEXT.reset}
                </Button>
                <Button variant="subtle" color="red" onClick={() => setConfirming('remove')}>
                  {TEXT.remove}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      )}
      <ConfirmFeedChange
        what={confirming}
        onClose={() => setConfirming(null)}
        onReset={() => handleIssue(state?.includeTeam ?? false)}
        onRemoved={() => setCreated(null)}
      />
    </Paper>
  );
}

function ConfirmFeedChange({
  what,
  onClose,
  onReset,
  onRemoved,
}: {
  what: 'reset' | 'remove' | null;
  onClose: () => void;
  onReset: () => void;
  onRemoved: () => void;
}) {
  const { workspaceId } = useWorkspace();
  const remove = useRemoveCalendarFeed(workspaceId);
  const confirm = () => {
    if (what === 'reset') {
      onReset();
      onClose();
      return;
    }
    remove.mutate(undefined, {
      onSuccess: () => {
        done('Calendar feed removed.');
        onRemoved();
        onClose();
      },
      onError: failed,
    });
  };
  return (
    <Modal opened={what !== null} onClose={onClose} title={what === 'remove' ? TEXT.remove : TEXT.reset}>
      <Text size="sm">{what === 'remove' ? TEXT.removeConfirm : TEXT.resetConfirm}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color={what === 'remove' ? 'red' : undefined} loading={remove.isPending} onClick={confirm}>
          {what === 'remove' ? TEXT.remove : TEXT.reset}
        </Button>
      </Group>
    </Modal>
  );
}
