import { Badge, Button, Center, Code, Drawer, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { formatDateTime, type WebhookDeliveryView, type WebhookView } from '@sundial/core';
import { useRef } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import { useDeliveries, useRedeliver } from '../api';
import { texts } from '../texts';

const STATE: Record<WebhookDeliveryView['state'], { color: string; label: string }> = {
  queued: { color: 'blue', label: 'Queued' },
  succeeded: { color: 'green', label: 'Succeeded' },
  failed: { color: 'red', label: 'Failed' },
};

/** A webhook's deliveries of the last 7 days, newest first, each with its attempts and "Redeliver". */
export function DeliveriesDrawer({
  workspaceId,
  webhook,
  onClose,
}: {
  workspaceId: string;
  webhook: WebhookView | null;
  onClose: () => void;
}) {
  const last = useRef(webhook);
  if (webhook) last.current = webhook;
  const shown = last.current;
  return (
    <Drawer opened={webhook !== null} onClose={onClose} position="right" size="xl" title="Deliveries">
      {shown && <Deliveries key={shown.id} workspaceId={workspaceId} webhook={shown} />}
    </Drawer>
  );
}

function Deliveries({ workspaceId, webhook }: { workspaceId: string; webhook: WebhookView }) {
  const deliveries = useDeliveries(workspaceId, webhook.id);
  const redeliver = useRedeliver(workspaceId, webhook.id);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          To {webhook.url}, the last 7 days, newest first.
        </Text>
        <Button size="xs" variant="default" onClick={() => deliveries.refetch()} loading={deliveries.isRefetching}>
          Refresh
        </Button>
      </Group>
      {deliveries.error ? (
        <ErrorPanel message={parseApiError(deliveries.error).message} onRetry={() => deliveries.refetch()} />
      ) : deliveries.isPending ? (
        <Center py="xl">
          <Loader aria-label="Loading the deliveries" />
        </Center>
      ) : deliveries.items.length === 0 ? (
        <Text size="sm">{texts.deliveriesEmpty}</Text>
      ) : (
        <Stack gap="sm" data-testid="webhook-deliveries">
          {deliveries.items.map((delivery) => (
            <Delivery
              key={delivery.id}
              delivery={delivery}
              redelivering={redeliver.isPending && redeliver.variables === delivery.id}
              onRedeliver={() =>
                redeliver.mutate(delivery.id, {
                  onSuccess: () => done('Sent again, as a new delivery.'),
                  onError: failed,
                })
              }
            />
          ))}
          {deliveries.hasNextPage && (
            <Button
              variant="default"
              onClick={() => deliveries.fetchNextPage()}
              loading={deliveries.isFetchingNextPage}
              style={{ alignSelf: 'center' }}
            >
              Load more
            </Button>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function Delivery({
  delivery,
  redelivering,
  onRedeliver,
}: {
  delivery: WebhookDeliveryView;
  redelivering: boolean;
  onRedeliver: () => void;
}) {
  const clock = useClockFormat();
  const state = STATE[delivery.state];
  const latest = delivery.attempts[delivery.attempts.length - 1];
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="webhook-delivery"
      aria-label={`${delivery.eventType} delivery`}
      component="article"
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Code>{delivery.eventType}</Code>
          <Badge color={state.color} variant="light">
            {state.label}
          </Badge>
          <Text size="xs" c="dimmed">
            {formatDateTime(delivery.createdAt, clock)}
          </Text>
        </Group>
        <Button
          size="xs"
          variant="light"
          loading={redelivering}
          onClick={onRedeliver}
          aria-label={`Redeliver ${delivery.eventType} of ${formatDateTime(delivery.createdAt, clock)}`}
        >
          Redeliver
        </Button>
      </Group>
      {delivery.attempts.length > 0 && (
        <Table mt="xs" verticalSpacing={4} fz="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Attempt</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>When</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {delivery.attempts.map((attempt) => (
              <Table.Tr key={attempt.attempt}>
                <Table.Td>{attempt.attempt}</Table.Td>
                <Table.Td>
                  <Text size="xs" c={attempt.ok ? undefined : 'red'} style={{ overflowWrap: 'anywhere' }}>
                    {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : 'No answer'}
                    {attempt.error ? ` · ${attempt.error}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{attempt.durationMs} ms</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(attempt.at, clock)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {latest?.responseBody && (
        <Stack gap={2} mt="xs">
          <Text size="xs" c="dimmed">
            Response of attempt {latest.attempt}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 160, overflow: 'auto' }}>
            {latest.responseBody}
          </Code>
        </Stack>
      )}
    </Paper>
  );
}
