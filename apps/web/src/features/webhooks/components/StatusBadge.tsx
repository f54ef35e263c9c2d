import { Badge, Stack, Text } from '@mantine/core';
import type { WebhookView } from '@sundial/core';
import { statusOf } from '../texts';

/** A webhook's status (Active, Pending validation, Disabled) with why, below it. */
export function StatusBadge({ webhook }: { webhook: WebhookView }) {
  const { color, label, detail } = statusOf(webhook);
  return (
    <Stack gap={2} align="flex-start">
      <Badge color={color} variant="light" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Badge>
      {detail && (
        <Text size="xs" c={webhook.status === 'active' ? 'red' : 'dimmed'} maw={280}>
          {detail}
        </Text>
      )}
    </Stack>
  );
}
