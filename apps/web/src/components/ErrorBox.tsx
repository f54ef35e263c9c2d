import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red box that says what went wrong; absent when nothing did. */
export function ErrorBox({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="filled" icon={<IconAlertCircle aria-hidden="true" />} role="alert" mb="md">
      {message}
    </Alert>
  );
}
