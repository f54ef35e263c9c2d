import { Button, Center, Stack, Text } from '@mantine/core';

/** "Something Went Wrong..." with a way to try again. */
export function ErrorPanel({ onRetry, message }: { onRetry?: () => void; message?: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" role="alert">
        <Text fw={700} size="lg">
          Something Went Wrong...
        </Text>
        {message && <Text c="dimmed">{message}</Text>}
        {onRetry && (
          <Button variant="light" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Center>
  );
}
