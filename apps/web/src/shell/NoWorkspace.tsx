import { Button, Center, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { InactiveWorkspaceView } from '@sundial/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, parseApiError } from '../api/client';
import { type Me, sessionKeys, useLogout } from '../api/session';
import { ErrorBox } from '../components/ErrorBox';

const listNames = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

function reason(workspaces: InactiveWorkspaceView[]): string {
  const [w] = workspaces;
  if (w && workspaces.length === 1) {
    return w.status === 'disabled'
      ? `An administrator of ${w.name} disabled your account in that workspace.`
      : `An administrator of ${w.name} removed you from that workspace.`;
  }
  return 'Administrators of these workspaces disabled your account or removed you.';
}

/**
 * Shown instead of the app when the signed-in user belongs to no workspace any more (their only
 * workspace disabled or removed them): says so, and offers a workspace of their own or logging out.
 */
export function NoWorkspace({ me }: { me: Me }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const inactive = me.inactiveWorkspaces;
  const title =
    inactive.length > 0
      ? `You no longer have access to ${listNames(inactive.map((w) => w.name))}`
      : 'You are not a member of any workspace';
  const [name, setName] = useState(`${me.user.name || me.user.email.split('@')[0]}'s workspace`);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'No workspace · Sundial';
  }, []);

  const create = useMutation({
    mutationFn: async (workspaceName: string) => {
      const workspace = await api('POST /workspaces', { body: { name: workspaceName } });
      return api('PATCH /me', { body: { currentWorkspaceId: workspace.id } });
    },
    onSuccess: (data) => {
      queryClient.setQueryData(sessionKeys.me, data);
      navigate('/homepage/timesheet', { replace: true });
    },
    onError: (err) => setError(parseApiError(err).message),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) {
      setError('Enter a name for the workspace.');
      return;
    }
    create.mutate(name.trim());
  };

  return (
    <Center mih="100vh" bg="var(--sundial-color-page)" p="md">
      <Paper
        component="main"
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'xl' }}
        maw={520}
        w="100%"
        // Long workspace names and addresses wrap instead of running out of the card.
        style={{ overflowWrap: 'anywhere' }}
      >
        <Stack gap="md">
          <Title order={1} size="h2">
            {title}
          </Title>
          {inactive.length > 0 && (
            <Text>
              {reason(inactive)} The time you tracked there stays with the workspace. Ask its owner or an administrator
              if you need access again.
            </Text>
          )}
          <Text>
            You are signed in as <strong>{me.user.email}</strong>. You can start a workspace of your own, with a free
            trial of every Pro feature, or log out.
          </Text>
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <ErrorBox message={error} />
              <TextInput
                label="Workspace name"
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                maxLength={100}
                required
              />
              <Group justify="space-between">
                <Button variant="default" onClick={() => logout.mutate()} loading={logout.isPending}>
                  Log out
                </Button>
                <Button type="submit" loading={create.isPending}>
                  Create a workspace
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Paper>
    </Center>
  );
}
