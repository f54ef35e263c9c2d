import { Button, Group, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import type { WebhookView } from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { EventsField } from './EventsField';

export interface WebhookFields {
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
}

/** The server's field errors, by the field's first path segment (`events.0` is `events`). */
export const fieldErrors = (fields: Record<string, string>): Record<string, string> => {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = key.split('.')[0] ?? key;
    errors[field] ??= message;
  }
  return errors;
};

/**
 * A webhook's URL, description and events (and, when editing, whether it is on). The server checks
 * it all and says what is wrong per field (422 `fields`); no second set of rules here.
 */
export function WebhookForm({
  webhook,
  submitLabel,
  pending,
  errors,
  onErrorsChange,
  onSubmit,
  onCancel,
}: {
  webhook?: WebhookView | undefined;
  submitLabel: string;
  pending: boolean;
  errors: Record<string, string>;
  onErrorsChange: (errors: Record<string, string>) => void;
  onSubmit: (fields: WebhookFields) => void;
  onCancel: () => void;
}) {
  const [fields, setFields] = useState<WebhookFields>({
    url: webhook?.url ?? '',
    description: webhook?.description ?? '',
    events: webhook?.events ?? [],
    enabled: webhook?.enabled ?? true,
  });
  const set = <K extends keyof WebhookFields>(key: K, value: WebhookFields[K]) => {
    setFields((all) => ({ ...all, [key]: value }));
    if (errors[key]) onErrorsChange(Object.fromEntries(Object.entries(errors).filter(([k]) => k !== key)));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(fields);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="URL"
          description="Sundial POSTs each event here, as JSON. It must answer the challenge to be validated."
          placeholder="https://example.com/hooks/sundial"
          type="url"
          value={fields.url}
          onChange={(e) => set('url', e.currentTarget.value)}
          error={errors.url}
          maxLength={2000}
          required
          data-autofocus
        />
        <Textarea
          label="Description"
          description="What receives the events, for whoever reads this list later"
          value={fields.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={errors.description}
          maxLength={500}
          autosize
          minRows={1}
          maxRows={4}
        />
        <EventsField value={fields.events} onChange={(events) => set('events', events)} error={errors.events} />
        {webhook && (
          <Switch
            label="Enabled"
            description="Off, nothing is delivered to it."
            checked={fields.enabled}
            onChange={(e) => set('enabled', e.currentTarget.checked)}
            error={errors.enabled}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
