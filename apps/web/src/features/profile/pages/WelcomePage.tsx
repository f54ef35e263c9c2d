import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorBox } from '../../../components/ErrorBox';
import { useRenameWorkspace, useUpdateProfile } from '../api';

const texts = {
  title: 'Welcome to Sundial',
  intro: 'Tell your team who you are. Until you do, the part of your e-mail address before the @ stands for your name.',
  name: 'Your name',
  workspace: 'Workspace name',
  workspaceHint: 'What your team sees; a company or team name works well.',
  save: 'Continue',
  skip: 'Skip for now',
};

const NEXT = '/homepage/timesheet';

/**
 * The first screen after sign-up: a name for the person and for their workspace, both prefilled
 * with what sign-up gave them (the e-mail's local part). Skipping keeps those; both can be changed
 * later in Profile settings.
 */
export function WelcomePage() {
  const { me, workspace, can } = useWorkspace();
  const navigate = useNavigate();
  const updateProfile = useUpdateProfile();
  const renameWorkspace = useRenameWorkspace();
  const [name, setName] = useState(me.user.name);
  const [workspaceName, setWorkspaceName] = useState(workspace.name);
  const [error, setError] = useState<string | null>(null);
  const [wrongField, setWrongField] = useState<'name' | 'workspace' | null>(null);
  const canRename = can('workspace:update');

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setWrongField(null);
    let step: 'name' | 'workspace' = 'name';
    try {
      if (name.trim() !== me.user.name) await updateProfile.mutateAsync({ name: name.trim() });
      step = 'workspace';
      if (canRename && workspaceName.trim() !== workspace.name)
        await renameWorkspace.mutateAsync({ id: workspace.id, name: workspaceName.trim() });
      navigate(NEXT, { replace: true });
    } catch (err) {
      setError(parseApiError(err).message);
      setWrongField(step);
    }
  };

  return (
    <Paper withBorder p="xl" maw={520} mx="auto" mt="xl">
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={2} size="h2">
              {texts.title}
            </Title>
            <Text c="dimmed" mt={4}>
              {texts.intro}
            </Text>
          </div>
          <ErrorBox message={error} />
          <TextInput
            label={texts.name}
            autoComplete="name"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={wrongField === 'name' || undefined}
          />
          {canRename && (
            <TextInput
              label={texts.workspace}
              description={texts.workspaceHint}
              autoComplete="organization"
              maxLength={100}
              value={workspaceName}
              onChange={(e) => setWorkspaceName(e.currentTarget.value)}
              error={wrongField === 'workspace' || undefined}
            />
          )}
          <Group justify="flex-end">
            <Button variant="subtle" onClick={() => navigate(NEXT, { replace: true })}>
              {texts.skip}
            </Button>
            <Button type="submit" loading={updateProfile.isPending || renameWorkspace.isPending}>
              {texts.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
