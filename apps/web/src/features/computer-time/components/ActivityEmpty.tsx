import { Button, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDeviceDesktopAnalytics } from '@tabler/icons-react';
import { Link } from 'react-router';
import { t } from '../texts';

/** No activity: where it comes from (the desktop app) and the way to it (the Dashboard's panel). */
export function ActivityEmpty({ title = t.emptyTitle }: { title?: string }) {
  return (
    <Paper withBorder radius="md" p="xl" data-testid="activity-empty">
      <Stack align="center" gap="xs">
        <ThemeIcon size="xl" radius="xl" variant="light">
          <IconDeviceDesktopAnalytics aria-hidden />
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        <Text c="dimmed" size="sm" ta="center" maw={520}>
          {t.emptyHint}
        </Text>
        <Button component={Link} to="/homepage/dashboard" variant="light" mt="xs">
          {t.toDashboard}
        </Button>
      </Stack>
    </Paper>
  );
}
