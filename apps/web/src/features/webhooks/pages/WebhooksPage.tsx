import { ActionIcon, Alert, Button, Group, Menu, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { WebhookView } from '@sundial/core';
import { IconDots, IconPlus, IconWebhook } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useWorkspace } from '../../../api/session';
import { ApiKeysSection } from '../../../components/api-keys/ApiKeysSection';
import { ListState } from '../../../components/ListState';
import { done, failed } from '../../../components/notify';
import { useValidateWebhook, useWebhooks } from '../api';
import { DeliveriesDrawer } from '../components/DeliveriesDrawer';
import { StatusBadge } from '../components/StatusBadge';
import { AddWebhookModal, DeleteWebhookModal, EditWebhookModal, SecretModal } from '../components/WebhookModals';
import { eventsSummary, statusOf, texts } from '../texts';

/** The address that opens "Add webhook" (the empty state's way on is a link). */
const ADD_PARAM = 'add';

/**
 * TEAM > API & webhooks (issue 34): the URLs the workspace's events are POSTed to, signed; each with
 * its status, its signing secret, and a log of its deliveries with "Redeliver"; and the workspace's
 * own API keys for integrations.
 */
export default function WebhooksPage() {
  const { workspaceId, can } = useWorkspace();
  const allowed = can('webhooks:manage');
  if (!allowed) {
    return (
      <Alert color="blue" maw={640}>
        {texts.notAllowed}
      </Alert>
    );
  }
  return (
    <Stack gap="xl">
      <Webhooks workspaceId={workspaceId} />
      {/* The workspace's own API keys, for the integrations that call back (issue 34). */}
      {can('api_keys:manage') && <ApiKeysSection workspaceId={workspaceId} />}
    </Stack>
  );
}

function Webhooks({ workspaceId }: { workspaceId: string }) {
  const webhooks = useWebhooks(workspaceId);
  const validate = useValidateWebhook(workspaceId);
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<WebhookView | null>(null);
  const [deleting, setDeleting] = useState<WebhookView | null>(null);
  const [secret, setSecret] = useState<{ webhook: WebhookView; mode: 'reveal' | 'rotate' } | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<WebhookView | null>(null);

  useEffect(() => {
    if (params.has(ADD_PARAM)) {
      setAdding(true);
      setParams({}, { replace: true });
    }
  }, [params, setParams]);

  const validateNow = (webhook: WebhookView) =>
    validate.mutate(webhook.id, {
      onSuccess: (answer) =>
        answer.status === 'active'
          ? done('Validated: the webhook is active.')
          : notifications.show({ color: 'yellow', title: 'Not validated', message: statusOf(answer).detail }),
      onError: failed,
    });

  const hasItems = (webhooks.data?.items.length ?? 0) > 0;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {texts.intro}
        </Text>
        {hasItems && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            {texts.add}
          </Button>
        )}
      </Group>
      <ListState
        query={webhooks}
        label="Loading the webhooks"
        empty={{
          icon: <IconWebhook size={32} aria-hidden />,
          title: texts.empty.title,
          hint: texts.empty.hint,
          action: { label: texts.add, to: `?${ADD_PARAM}` },
        }}
      >
        {(items) => (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" highlightOnHover data-testid="webhooks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Endpoint</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((webhook) => (
                  <Table.Tr key={webhook.id} data-testid="webhook-row">
                    <Table.Td maw={360}>
                      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                        {webhook.url}
                      </Text>
                      {webhook.description && (
                        <Text size="xs" c="dimmed">
                          {webhook.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td maw={280}>
                      <Text size="sm">{eventsSummary(webhook.events)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge webhook={webhook} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => setDeliveriesOf(webhook)}
                          aria-label={`Deliveries to ${webhook.url}`}
                        >
                          Deliveries
                        </Button>
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${webhook.url}`}>
                              <IconDots size={18} aria-hidden />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => setEditing(webhook)}>Edit</Menu.Item>
                            <Menu.Item onClick={() => validateNow(webhook)}>Validate</Menu.Item>
                            <Menu.Item onClick={() => setSecret({ webhook, mode: 'reveal' })}>Reveal secret</Menu.Item>
                            <Menu.Item onClick={() => setSecret({ webhook, mode: 'rotate' })}>Rotate secret</Menu.Item>
                            <Menu.Divider />
                            <Menu.Item color="red" onClick={() => setDeleting(webhook)}>
                              Delete
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ListState>
      <AddWebhookModal workspaceId={workspaceId} opened={adding} onClose={() => setAdding(false)} />
      <EditWebhookModal workspaceId={workspaceId} webhook={editing} onClose={() => setEditing(null)} />
      <DeleteWebhookModal workspaceId={workspaceId} webhook={deleting} onClose={() => setDeleting(null)} />
      <SecretModal workspaceId={workspaceId} target={secret} onClose={() => setSecret(null)} />
      <DeliveriesDrawer workspaceId={workspaceId} webhook={deliveriesOf} onClose={() => setDeliveriesOf(null)} />
    </Stack>
  );
}
