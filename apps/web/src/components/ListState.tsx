import { Button, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { parseApiError } from '../api/client';
import { ErrorPanel } from './ErrorPanel';

/** What a list page's query gives its body. */
interface ListQuery<T> {
  error: unknown;
  isPending: boolean;
  data?: { items: T[] } | undefined;
  refetch: () => unknown;
}

/**
 * A list page's body in each of its states: what went wrong (with Retry), a loader named after
 * the list, the empty state (an icon, what is missing, a hint and one way on), or the list.
 */
export function ListState<T>({
  query,
  label,
  empty,
  children,
}: {
  query: ListQuery<T>;
  /** The list's name, for the loader. */
  label: string;
  empty: { icon: ReactNode; title: string; hint: string; action?: { label: string; to: string } };
  children: (items: T[]) => ReactNode;
}) {
  if (query.error) return <ErrorPanel message={parseApiError(query.error).message} onRetry={() => query.refetch()} />;
  if (query.isPending || !query.data)
    return (
      <Center py="xl">
        <Loader aria-label={label} />
      </Center>
    );
  if (query.data.items.length > 0) return <>{children(query.data.items)}</>;
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="xs">
        {empty.icon}
        <Text fw={600}>{empty.title}</Text>
        <Text c="dimmed" size="sm" ta="center" maw={480}>
          {empty.hint}
        </Text>
        {empty.action && (
          <Button component={Link} to={empty.action.to} variant="light" mt="xs">
            {empty.action.label}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
