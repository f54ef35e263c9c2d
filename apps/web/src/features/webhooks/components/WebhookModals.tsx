import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { WebhookView, WebhookWithSecretView } from '@sundial/core';
import { useEffect, useRef, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { CopyField } from '../../../components/CopyField';
import { done, failed } from '../../../components/notify';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRevealSecret,
  useRotateSecret,
  useUpdateWebhook,
  useValidateWebhook,
} from '../api';
import { texts } from '../texts';
import { SignatureNote } from './SignatureNote';
import { StatusBadge } from './StatusBadge';
import { fieldErrors, type WebhookFields, WebhookForm } from './WebhookForm';

/** Keeps the last non-null value, so a dialog still names its webhook while it fades out. */
function useLast<T>(value: T | null): T | null {
  const last = useRef(value);
  if (value) last.current = value;
  return last.current;
}

/** Splits an API error into field errors (shown on the fields) or a notification. */
const onFormError = (setErrors: (errors: Record<string, string>) => void) => (error: unknown) => {
  const fields = fieldErrors(parseApiError(error).fields);
  setErrors(fields);
  if (Object.keys(fields).length === 0) failed(error);
};

/**
 * "Add webhook": the form, then the new webhook's signing secret (this once), its status (with
 * "Validate again" while it is pending) and how to verify a delivery, until "Done".
 */
export function AddWebhookModal({
  workspaceId,
  opened,
  onClose,
}: {
  workspaceId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const create = useCreateWebhook(workspaceId);
  const validate = useValidateWebhook(workspaceId);
  const [created, setCreated] = useState<WebhookWithSecretView | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = ({ url, description, events }: WebhookFields) => {
    setErrors({});
    create.mutate({ url, description, events }, { onSuccess: setCreated, onError: onFormError(setErrors) });
  };
  const validateAgain = () => {
    if (!created) return;
    validate.mutate(created.id, {
      onSuccess: (webhook) => setCreated({ ...webhook, secret: created.secret }),
      onError: failed,
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={() => {
        setCreated(null);
        setErrors({});
      }}
      title={created ? 'Webhook added' : texts.add}
      size="xl"
      // A stray click must not lose the secret shown after adding.
      closeOnClickOutside={!created}
    >
      {created ? (
        <Stack gap="md">
          <Group gap="sm" align="flex-start" wrap="nowrap">
            <Text size="sm" fw={500}>
              Status
            </Text>
            <StatusBadge webhook={created} />
            {created.status === 'pending' && (
              <Button size="xs" variant="light" ml="auto" loading={validate.isPending} onClick={validateAgain}>
                Validate again
              </Button>
            )}
          </Group>
          <Alert color="yellow">{texts.secretOnce}</Alert>
          <CopyField label="Signing secret" value={created.secret} copy="Copy" copied="Copied" />
          <SignatureNote />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <WebhookForm
          submitLabel={texts.add}
          pending={create.isPending}
          errors={errors}
          onErrorsChange={setErrors}
          onSubmit={submit}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}

/** "Edit webhook": URL (challenged again when changed), description, events, on or off. */
export function EditWebhookModal({
  workspaceId,
  webhook,
  onClose,
}: {
  workspaceId: string;
  webhook: WebhookView | null;
  onClose: () => void;
}) {
  const update = useUpdateWebhook(workspaceId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (fields: WebhookFields) => {
    if (!webhook) return;
    setErrors({});
    update.mutate(
      { webhookId: webhook.id, body: fields },
      {
        onSuccess: (saved) => {
          done(saved.status === 'pending' ? 'Webhook saved; it is pending validation.' : 'Webhook saved.');
          onClose();
        },
        onError: onFormError(setErrors),
      },
    );
  };
  return (
    <Modal
      opened={webhook !== null}
      onClose={onClose}
      onExitTransitionEnd={() => setErrors({})}
      title="Edit webhook"
      size="xl"
    >
      {webhook && (
        <WebhookForm
          key={webhook.id}
          webhook={webhook}
          submitLabel="Save"
          pending={update.isPending}
          errors={errors}
          onErrorsChange={setErrors}
          onSubmit={submit}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}

/** The signing secret: revealed at once, or a new one after "Rotate secret" is confirmed. */
export function SecretModal({
  workspaceId,
  target,
  onClose,
}: {
  workspaceId: string;
  target: { webhook: WebhookView; mode: 'reveal' | 'rotate' } | null;
  onClose: () => void;
}) {
  const reveal = useRevealSecret(workspaceId);
  const rotate = useRotateSecret(workspaceId);
  const shown = useLast(target);
  const secret = target?.mode === 'reveal' ? reveal.data?.secret : rotate.data?.secret;
  const { mutate: revealMutate } = reveal;
  const revealId = target?.mode === 'reveal' ? target.webhook.id : null;
  useEffect(() => {
    if (revealId) revealMutate(revealId, { onError: failed });
  }, [revealId, revealMutate]);

  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      onExitTransitionEnd={() => {
        reveal.reset();
        rotate.reset();
      }}
      title={shown?.mode === 'rotate' ? 'Rotate signing secret' : 'Signing secret'}
      size="lg"
    >
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {shown?.webhook.url}
        </Text>
        {secret ? (
          <>
            {shown?.mode === 'rotate' && (
              <Alert color="yellow">
                Deliveries from now on are signed with this new secret. Update your receiver.
              </Alert>
            )}
            <CopyField label="Signing secret" value={secret} copy="Copy" copied="Copied" />
          </>
        ) : shown?.mode === 'rotate' ? (
          <Text size="sm">
            A new secret signs every delivery from now on; your receiver refuses them until it has the new one.
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Loading…
          </Text>
        )}
        <Group justify="flex-end">
          {shown?.mode === 'rotate' && !secret ? (
            <>
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button
                color="red"
                loading={rotate.isPending}
                onClick={() => target && rotate.mutate(target.webhook.id, { onError: failed })}
              >
                Rotate secret
              </Button>
            </>
          ) : (
            <Button onClick={onClose}>Done</Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** "Delete this webhook?": its delivery log goes with it. */
export function DeleteWebhookModal({
  workspaceId,
  webhook,
  onClose,
}: {
  workspaceId: string;
  webhook: WebhookView | null;
  onClose: () => void;
}) {
  const remove = useDeleteWebhook(workspaceId);
  const shown = useLast(webhook);
  const confirm = () =>
    webhook &&
    remove.mutate(webhook.id, {
      onSuccess: () => {
        done('Webhook deleted.');
        onClose();
      },
      onError: failed,
    });
  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Delete webhook">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Delete the webhook to {shown?.url}? Nothing more is sent to it, and its delivery log is deleted too.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button color="red" loading={remove.isPending} onClick={confirm}>
          Delete
        </Button>
      </Group>
    </Modal>
  );
}
