import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglassHigh } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { titleForPath } from '../routes';

/** An honest placeholder for a page a later release fills: no fake data. */
export function ComingSoon({ what }: { what?: string }) {
  const { pathname } = useLocation();
  const title = titleForPath(pathname);
  return (
    <Paper withBorder radius="md" p="xl" maw={640}>
      <Stack gap="sm" align="flex-start">
        <ThemeIcon size="xl" radius="xl" color="yellow" variant="light">
          <IconHourglassHigh aria-hidden="true" />
        </ThemeIcon>
        <Title order={2} size="h3">
          {title}: coming soon
        </Title>
        <Text c="dimmed">
          {what ?? 'This page is being built.'} It will appear here in a coming release of Sundial; nothing on this page
          is made up in the meantime.
        </Text>
      </Stack>
    </Paper>
  );
}
