import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPuzzle } from '@tabler/icons-react';

const REVIEW_SITES = [
  { name: 'Capterra', href: 'https://www.capterra.com/' },
  { name: 'G2', href: 'https://www.g2.com/' },
  { name: 'GetApp', href: 'https://www.getapp.com/' },
];

/** The log-in page's side panel: the browser plugin, and where to review us. */
export function PluginPanel() {
  return (
    <Stack gap="md" data-testid="plugin-panel">
      <Paper radius="md" p="xl" bg="dark.7" c="white">
        <Group gap="sm" mb="sm">
          <IconPuzzle size={28} aria-hidden="true" />
          <Title order={2} size="h3">
            Track time where you work
          </Title>
        </Group>
        <Text>
          The Sundial browser plugin, now in the works, will put a timer button into more than 70 online apps: issue
          trackers, docs, mail and chat. Until then, the timer in Sundial keeps running across tabs and devices.
        </Text>
      </Paper>
      <Paper withBorder radius="md" p="md" data-testid="review-badges">
        <Text fw={600} mb="xs">
          Using Sundial? Tell others what you think:
        </Text>
        <Group gap="xs">
          {REVIEW_SITES.map((site) => (
            <Anchor key={site.name} href={site.href} target="_blank" rel="noopener noreferrer">
              <Badge size="lg" variant="light" color="yellow">
                Review us on {site.name}
              </Badge>
            </Anchor>
          ))}
        </Group>
      </Paper>
    </Stack>
  );
}
