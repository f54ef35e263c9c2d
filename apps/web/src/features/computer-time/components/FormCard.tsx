import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { done, failed } from '../../../components/notify';

/**
 * Saving a form as a whole: the API's field errors kept by field for the inputs to show, a
 * refusal without fields in a notification, and `saved` said on success.
 */
export function useFormSave(saved: string) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = async (work: () => Promise<unknown>) => {
    setErrors({});
    try {
      await work();
      done(saved);
    } catch (error) {
      const parsed = parseApiError(error);
      if (Object.keys(parsed.fields).length > 0) setErrors(parsed.fields);
      else failed(error);
    }
  };
  return { errors, save };
}

/** A card that is one form: its title, its fields, then a button adding a row (if any) and Save. */
export function FormCard(props: {
  id: string;
  title: string;
  onSubmit: () => void;
  children: ReactNode;
  add?: { label: string; onClick: () => void; disabled?: boolean; title?: string | undefined };
  saveLabel: string;
  saving: boolean;
}) {
  const { add } = props;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={props.id}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          props.onSubmit();
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h5" id={props.id}>
            {props.title}
          </Title>
          {props.children}
          <Group justify="space-between">
            {add ? (
              <Button
                variant="subtle"
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                onClick={add.onClick}
                disabled={add.disabled}
                title={add.title}
              >
                {add.label}
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" loading={props.saving}>
              {props.saveLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
