import { Button, CloseButton, ColorSwatch, Group, Loader, TextInput, type TextInputProps, Title } from '@mantine/core';
import { PROJECT_COLORS } from '@sundial/core';
import { type FormEvent, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { failed } from '../../../components/notify';

/** The edit panel's title with its close button. */
export function PaneHeader({ title, onClose }: { title: string; onClose: () => void }) {
  return (
    <Group justify="space-between">
      <Title order={2} size="h4">
        {title}
      </Title>
      <CloseButton aria-label="Close" onClick={onClose} />
    </Group>
  );
}

/** A required name of at most 255 characters. */
export function NameInput({
  onValue,
  ...props
}: Omit<TextInputProps, 'onChange'> & { onValue: (value: string) => void }) {
  return <TextInput maxLength={255} required onChange={(e) => onValue(e.currentTarget.value)} {...props} />;
}

/** Cancel and Save (submits the form). */
export function FormFooter({ saving, onCancel }: { saving: boolean; onCancel: () => void }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={saving}>
        Save
      </Button>
    </Group>
  );
}

/** Cancel and a red Delete, closing a confirm dialog. */
export function ConfirmDelete({
  deleting,
  onCancel,
  onDelete,
  mt,
}: {
  deleting: boolean;
  onCancel: () => void;
  onDelete: () => void;
  mt?: string;
}) {
  return (
    <Group justify="flex-end" mt={mt}>
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button color="red" loading={deleting} onClick={onDelete}>
        Delete
      </Button>
    </Group>
  );
}

/** The project colours as buttons; the chosen one is outlined. */
export function ColourPalette({
  value,
  onPick,
  size,
  disabled = false,
}: {
  value: string | undefined;
  onPick: (color: string) => void;
  size?: number;
  disabled?: boolean;
}) {
  return (
    <Group gap={size ? 'xs' : 6}>
      {PROJECT_COLORS.map((c) => (
        <ColorSwatch
          key={c}
          component="button"
          type="button"
          color={c}
          size={size}
          aria-label={`Colour ${c}`}
          aria-pressed={c === value}
          onClick={() => !disabled && onPick(c)}
          style={{
            cursor: disabled ? 'default' : 'pointer',
            outline: c === value ? '2px solid var(--mantine-color-text)' : 'none',
          }}
        />
      ))}
    </Group>
  );
}

export function Loading() {
  return (
    <Group justify="center" py="xl">
      <Loader aria-label="Loading" />
    </Group>
  );
}

/** A form's submit: field errors go under their inputs, the message into a notification. */
export function useSubmit(run: () => Promise<void>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      await run();
    } catch (error) {
      setErrors(parseApiError(error).fields);
      failed(error);
    }
  };
  return { errors, onSubmit };
}

/** Saves only the description of a project or task (an empty one is cleared); errors are shown and rethrown. */
export async function saveDescription(
  update: (body: { id: string; description: string | null }) => Promise<unknown>,
  id: string,
  description: string,
): Promise<void> {
  try {
    await update({ id, description: description.trim() ? description : null });
  } catch (error) {
    failed(error);
    throw error;
  }
}
