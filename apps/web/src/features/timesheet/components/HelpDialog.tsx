import { Group, Kbd, Modal, Stack, Text } from '@mantine/core';
import { t } from '../texts';

export function HelpDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={t.help}>
      <Stack gap="xs">
        {t.shortcuts.map(([keys, what]) => (
          <Group key={keys} justify="space-between">
            <Group gap={4}>
              {keys.split('  ').map((k) => (
                <Kbd key={k}>{k}</Kbd>
              ))}
            </Group>
            <Text size="sm">{what}</Text>
          </Group>
        ))}
      </Stack>
    </Modal>
  );
}
