import { ActionIcon, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { formatDateTime } from '@sundial/core';
import { IconBell, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { parseApiError } from '../../api/client';
import { useClockFormat } from '../../api/session';
import { useMarkAllRead, useMarkRead, useNotifications } from './api';
import { NotificationSettingsModal } from './NotificationSettingsModal';

const texts = {
  label: (unread: number) => (unread ? `Notifications, ${unread} unread` : 'Notifications'),
  title: 'Notifications',
  empty: 'Nothing new. Budget alerts and approvals show here.',
  markAll: 'Mark all read',
  settings: 'Notification settings',
};

/** The bell in the top bar: my notifications (budget alerts, approvals), newest first, unread in bold; and my settings. */
export function NotificationsBell({ workspaceId }: { workspaceId: string }) {
  const clock = useClockFormat();
  const list = useNotifications(workspaceId);
  const markRead = useMarkRead(workspaceId);
  const markAll = useMarkAllRead(workspaceId);
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const unread = list.data?.unread ?? 0;
  return (
    <>
      <Indicator disabled={unread === 0} label={unread} size={16} offset={4} color="red">
        <Popover position="bottom-end" width={360} shadow="md" withinPortal opened={opened} onChange={setOpened}>
          <Popover.Target>
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label={texts.label(unread)}
              onClick={() => setOpened((o) => !o)}
            >
              <IconBell size={20} aria-hidden="true" />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown aria-label={texts.title} role="dialog">
            <Group justify="space-between" mb="xs">
              <Text fw={600}>{texts.title}</Text>
              <Group gap={4}>
                {unread > 0 && (
                  <Button size="compact-xs" variant="subtle" onClick={() => markAll.mutate(undefined)}>
                    {texts.markAll}
                  </Button>
                )}
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={texts.settings}
                  onClick={() => {
                    setOpened(false);
                    setSettingsOpen(true);
                  }}
                >
                  <IconSettings size={16} aria-hidden="true" />
                </ActionIcon>
              </Group>
            </Group>
            {list.isError ? (
              <Text c="red" size="sm">
                {parseApiError(list.error).message}
              </Text>
            ) : (list.data?.items.length ?? 0) === 0 ? (
              <Text c="dimmed" size="sm">
                {texts.empty}
              </Text>
            ) : (
              <ScrollArea.Autosize mah={400}>
                <Stack gap={4}>
                  {list.data?.items.map((n) => (
                    <UnstyledButton
                      key={n.id}
                      p="xs"
                      style={{ borderRadius: 4, background: n.read ? undefined : 'var(--mantine-color-blue-light)' }}
                      onClick={() => {
                        if (!n.read) markRead.mutate(n.id);
                        if (n.link) {
                          setOpened(false);
                          navigate(n.link);
                        }
                      }}
                    >
                      <Text size="sm" fw={n.read ? 400 : 600}>
                        {n.title}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {n.body} · {formatDateTime(n.createdAt, clock)}
                      </Text>
                    </UnstyledButton>
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            )}
          </Popover.Dropdown>
        </Popover>
      </Indicator>
      <NotificationSettingsModal
        workspaceId={workspaceId}
        opened={settingsOpen}
        onClose={() => setSettingsOpen(false)}
      />
    </>
  );
}
