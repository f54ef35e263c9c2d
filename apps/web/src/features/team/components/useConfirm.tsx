import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
}

/** A confirmation dialog: `confirm(options)` opens it; render `dialog` once in the component. */
export function useConfirm() {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const close = () => setOptions(null);
  const dialog = (
    <Modal opened={options !== null} onClose={close} title={options?.title}>
      <Text size="sm">{options?.message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button
          color={options?.danger ? 'red' : undefined}
          onClick={() => {
            options?.onConfirm();
            close();
          }}
        >
          {options?.confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
  return { confirm: setOptions, dialog };
}
