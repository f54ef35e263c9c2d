import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconBrandApple,
  IconBrandUbuntu,
  IconBrandWindows,
  IconCheck,
  IconCopy,
  IconDownload,
} from '@tabler/icons-react';
import { useAgentRelease } from '../api';
import { t } from '../texts';

const megabytes = (bytes: number) =>
  `${(bytes / 1_000_000).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;

/** A terminal command with a Copy button. */
function Command({ text }: { text: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="center">
      <Code block style={{ flex: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {text}
      </Code>
      <CopyButton value={text}>
        {({ copied, copy }) => (
          <Button
            size="xs"
            variant="default"
            onClick={copy}
            leftSection={
              copied ? <IconCheck size={14} aria-hidden="true" /> : <IconCopy size={14} aria-hidden="true" />
            }
          >
            {copied ? t.desktop.copied : t.desktop.copy}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * The desktop app (issue 35): the agent this server offers, its version and size, the commands that
 * install, pair and start it, and what it records.
 */
export function DesktopAppPanel() {
  const d = t.desktop;
  const release = useAgentRelease();
  const origin = window.location.origin;
  const data = release.data;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="desktop-app-title">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4" id="desktop-app-title">
          {d.title}
        </Title>
        {data && (
          <Badge color={data.available ? 'teal' : 'gray'} variant="light">
            {data.available && data.version ? d.version(data.version) : d.notBuilt}
          </Badge>
        )}
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
      {release.isPending && <Skeleton h={120} mt="md" />}
      {release.isError && (
        <Alert color="red" mt="md" title={d.error}>
          <Button size="xs" variant="default" onClick={() => void release.refetch()}>
            {d.retry}
          </Button>
        </Alert>
      )}
      {data && !data.available && (
        <Text size="sm" mt="md">
          {d.unavailable}
        </Text>
      )}
      {data?.available && (
        <Stack gap="sm" mt="md">
          <Title order={4} size="h5">
            {d.install}
          </Title>
          <List type="ordered" spacing="sm" styles={{ itemWrapper: { width: '100%' }, itemLabel: { width: '100%' } }}>
            <List.Item>
              <Stack gap={6}>
                <Text size="sm">{d.steps[0]}</Text>
                <Group gap="md" wrap="wrap">
                  <Button
                    component="a"
                    href={data.downloadPath}
                    download={data.fileName}
                    leftSection={<IconDownload size={16} aria-hidden="true" />}
                  >
                    {d.download(megabytes(data.sizeBytes ?? 0))}
                  </Button>
                  <Group gap="xs" aria-label="Windows, macOS and Ubuntu" role="img">
                    <IconBrandWindows size={22} aria-hidden />
                    <IconBrandApple size={22} aria-hidden />
                    <IconBrandUbuntu size={22} aria-hidden />
                  </Group>
                </Group>
                <Command text={`curl -fsSLo sundial-agent.mjs ${origin}${data.downloadPath}`} />
              </Stack>
            </List.Item>
            <List.Item>
              <Stack gap={6}>
                <Text size="sm">{d.steps[1]}</Text>
                <Command text={`node sundial-agent.mjs pair --server ${origin}`} />
              </Stack>
            </List.Item>
            <List.Item>
              <Stack gap={6}>
                <Text size="sm">{d.steps[2]}</Text>
                <Command text="node sundial-agent.mjs run" />
              </Stack>
            </List.Item>
          </List>
          <Text size="xs" c="dimmed">
            {d.needs(data.node)} {d.platforms}
          </Text>
          {data.sha256 && (
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {d.checksum}:{' '}
              <Text component="span" size="xs" ff="monospace">
                {data.sha256}
              </Text>
            </Text>
          )}
        </Stack>
      )}
      <Text size="xs" c="dimmed" mt="sm">
        {d.privacy}
      </Text>
    </Paper>
  );
}
