import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBrandApple, IconBrandUbuntu, IconBrandWindows } from '@tabler/icons-react';
import { t } from '../texts';

/**
 * The spec's desktop-app panel, told as it is: the activity agent does not exist yet, so there is
 * no download; the panel says what it will do and where to track time meanwhile.
 */
export function DesktopAppPanel() {
  const d = t.desktop;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="desktop-app-title">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4" id="desktop-app-title">
          {d.title}
        </Title>
        <Badge color="gray" variant="light">
          {d.notYet}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Stack gap={4}>
          <Text fw={600}>{d.usageTitle}</Text>
          <Text size="sm" c="dimmed">
            {d.usage}
          </Text>
        </Stack>
        <Stack gap={4}>
          <Text fw={600}>{d.simpleTitle}</Text>
          <Text size="sm" c="dimmed">
            {d.simple}
          </Text>
        </Stack>
      </SimpleGrid>
      <Text size="sm" mt="md">
        {d.honest}
      </Text>
      <Group mt="md" gap="md" wrap="wrap">
        <Button disabled variant="default">
          {d.download}
        </Button>
        <Group gap="xs" aria-label="Windows, macOS and Ubuntu" role="img">
          <IconBrandWindows size={22} aria-hidden />
          <IconBrandApple size={22} aria-hidden />
          <IconBrandUbuntu size={22} aria-hidden />
        </Group>
      </Group>
      <Text size="xs" c="dimmed" mt="sm">
        {d.privacy}
      </Text>
    </Paper>
  );
}
