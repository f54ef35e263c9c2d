import { Alert } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';

/** A green box for good news (a link was sent, a password was changed). */
export function Notice({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <Alert color="green" icon={<IconCircleCheck aria-hidden="true" />} role="status" mb="md">
      {message}
    </Alert>
  );
}
