import { Box, Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { parseApiError } from '../../../api/client';
import type { WorkspaceView } from '../../../api/session';
import { failed } from '../../../components/notify';
import { useRemoveWorkspaceLogo, useSetWorkspaceLogo, useWorkspaceLogo } from '../api';

const MAX_BYTES = 256 * 1024;

/**
 * The workspace's logo, shown beside its name on PDF exports: owners and admins upload a PNG or
 * JPEG (at most 256 KB) or remove it; others see it. The server checks the file's bytes; a file
 * plainly too large or of another type is refused here first, with the same words.
 */
export function WorkspaceLogo({
  workspace,
  canEdit,
}: {
  workspace: Pick<WorkspaceView, 'id' | 'hasLogo'>;
  canEdit: boolean;
}) {
  const workspaceId = workspace.id;
  const logo = useWorkspaceLogo(workspace);
  const set = useSetWorkspaceLogo(workspaceId);
  const remove = useRemoveWorkspaceLogo(workspaceId);
  const [error, setError] = useState<string | null>(null);

  const choose = (file: File | null) => {
    setError(null);
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type)) return setError('The logo must be a PNG or JPEG image.');
    if (file.size > MAX_BYTES)
      return setError(`The logo is ${Math.ceil(file.size / 1024)} KB; it can be at most 256 KB.`);
    set.mutate(file, {
      onSuccess: () => notifications.show({ color: 'green', message: 'Logo saved. PDF exports show it.' }),
      onError: (e) => setError(parseApiError(e).message),
    });
  };

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="workspace-logo-label">
        Logo
      </Text>
      <Group align="center" gap="md">
        <Box
          w={160}
          h={56}
          style={{
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-sm)',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            padding: 4,
          }}
        >
          {logo.data ? (
            <Image src={logo.data} alt="Workspace logo" mah={46} maw={150} fit="contain" />
          ) : (
            <Text size="xs" c="dimmed">
              {logo.isLoading ? 'Loading…' : 'No logo'}
            </Text>
          )}
        </Box>
        {canEdit && (
          <Group gap="xs">
            <FileButton onChange={choose} accept="image/png,image/jpeg">
              {(props) => (
                <Button {...props} variant="light" loading={set.isPending} aria-describedby="workspace-logo-hint">
                  {logo.data ? 'Replace logo' : 'Upload logo'}
                </Button>
              )}
            </FileButton>
            {logo.data && (
              <Button
                variant="subtle"
                color="red"
                loading={remove.isPending}
                onClick={() =>
                  remove.mutate(undefined, {
                    onSuccess: () => notifications.show({ color: 'green', message: 'Logo removed.' }),
                    onError: failed,
                  })
                }
              >
                Remove
              </Button>
            )}
          </Group>
        )}
      </Group>
      <Text size="xs" c="dimmed" id="workspace-logo-hint">
        PNG or JPEG, at most 256 KB and 2048 pixels a side. PDF exports show it beside the workspace name.
      </Text>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
