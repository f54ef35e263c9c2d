import { Button, CopyButton, Group, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A read-only value (a link, a formula) with a Copy button beside it; focusing the field selects it all. */
export function CopyField({
  label,
  value,
  copy,
  copied,
}: {
  label: string;
  value: string;
  /** The button's text, e.g. "Copy link"; `copied` replaces it for a moment after a copy. */
  copy: string;
  copied: string;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <TextInput
        label={label}
        value={value}
        readOnly
        style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton value={value}>
        {({ copied: done, copy: handleCopy }) => (
          <Button
            variant="default"
            onClick={handleCopy}
            leftSection={done ? <IconCheck size={16} aria-hidden="true" /> : <IconCopy size={16} aria-hidden="true" />}
          >
            {done ? copied : copy}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
