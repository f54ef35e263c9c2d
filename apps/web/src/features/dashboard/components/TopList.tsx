import { Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Swatch } from '../../../components/Swatch';

export interface TopItem {
  key: string;
  label: string;
  seconds: number;
  color?: string | null;
  hint?: ReactNode;
}

/** A titled list of names with their time and a bar of their share of the largest. */
export function TopList({
  title,
  items,
  empty,
  format,
  limit = 5,
  footer,
  testId,
}: {
  title: string;
  items: TopItem[];
  empty: string;
  format: (seconds: number) => string;
  limit?: number;
  footer?: ReactNode;
  testId?: string;
}) {
  const shown = [...items].sort((a, b) => b.seconds - a.seconds).slice(0, limit);
  const most = Math.max(1, ...shown.map((i) => i.seconds));
  const id = `top-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id} data-testid={testId}>
      <Title order={3} size="h5" mb="sm" id={id}>
        {title}
      </Title>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {shown.map((item) => (
            <li key={item.key}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
                  {item.color !== undefined && <Swatch color={item.color} />}
                  {item.label}
                </Text>
                <Group gap={6} wrap="nowrap">
                  {item.hint}
                  <Text size="sm" ff="monospace">
                    {format(item.seconds)}
                  </Text>
                </Group>
              </Group>
              <Progress value={(item.seconds / most) * 100} size="xs" mt={4} aria-hidden />
            </li>
          ))}
        </Stack>
      )}
      {footer}
    </Paper>
  );
}
