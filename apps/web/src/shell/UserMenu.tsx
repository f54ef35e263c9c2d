import { Avatar, type MantineColorScheme, Menu, Text, UnstyledButton, useMantineColorScheme } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCheck,
  IconCreditCard,
  IconDeviceDesktop,
  IconLogout,
  IconMoon,
  IconSettings,
  IconSun,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, parseApiError } from '../api/client';
import { currentWorkspace, type Me, managesBilling, sessionKeys, useLogout } from '../api/session';
import { initialsOf } from './initials';

/** The Theme choices: the system's scheme (the default), or always light, or always dark. */
const SCHEMES: { value: MantineColorScheme; label: string; icon: typeof IconSun }[] = [
  { value: 'auto', label: 'System', icon: IconDeviceDesktop },
  { value: 'light', label: 'Light', icon: IconSun },
  { value: 'dark', label: 'Dark', icon: IconMoon },
];

export function UserMenu({ me }: { me: Me }) {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const switchWorkspace = useMutation({
    mutationFn: (workspaceId: string) => api('PATCH /me', { body: { currentWorkspaceId: workspaceId } }),
    onSuccess: (data) => {
      queryClient.setQueryData(sessionKeys.me, data);
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKeys.me[0] });
    },
    onError: (error) => notifications.show({ color: 'red', message: parseApiError(error).message }),
  });
  const initials = initialsOf(me.user.name, me.user.email);
  const workspace = currentWorkspace(me);

  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>
        {/* The name starts with the initials it shows, so speech input can say them (WCAG 2.5.3). */}
        <UnstyledButton aria-label={`${initials} User menu`}>
          <Avatar color="yellow" radius="xl">
            {initials}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} truncate>
            {me.user.name || me.user.email}
          </Text>
          {me.user.name && (
            <Text size="xs" c="dimmed" truncate>
              {me.user.email}
            </Text>
          )}
        </Menu.Label>
        <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => navigate('/homepage/profile')}>
          Profile settings
        </Menu.Item>
        {/* Always here for who buys: the trial banner and Subscribe button go once a plan is paid. */}
        {workspace && managesBilling(workspace) && (
          <Menu.Item leftSection={<IconCreditCard size={16} />} onClick={() => navigate('/homepage/billing')}>
            Billing
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Label>Theme</Menu.Label>
        {/* Radio items: a screen reader hears which theme is on, the check mark shows it. */}
        <Menu.RadioGroup value={colorScheme} onChange={(value) => setColorScheme(value as MantineColorScheme)}>
          {SCHEMES.map(({ value, label, icon: Icon }) => (
            <Menu.RadioItem key={value} value={value} rightSection={<Icon size={16} aria-hidden="true" />}>
              {label}
            </Menu.RadioItem>
          ))}
        </Menu.RadioGroup>
        <Menu.Divider />
        <Menu.Label>Workspaces</Menu.Label>
        {me.workspaces.map((workspace) => (
          <Menu.Item
            key={workspace.id}
            onClick={() => workspace.id !== me.currentWorkspaceId && switchWorkspace.mutate(workspace.id)}
            rightSection={workspace.id === me.currentWorkspaceId ? <IconCheck size={16} aria-label="current" /> : null}
          >
            {workspace.name}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          color="red"
          c="var(--mantine-color-red-text)"
          leftSection={<IconLogout size={16} />}
          onClick={() => logout.mutate()}
        >
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
