import { ActionIcon, Group, Select, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { ct } from '../categories-texts';

/**
 * A list of pattern rules, each a field and a pattern with a Remove button: a category's rules and
 * the exclusions of the settings. `label(n)` names row n for screen readers ("Rules 1").
 */
export function PatternRows<F extends string>({
  rows,
  fields,
  label,
  removeLabel,
  errorOf,
  onChange,
}: {
  rows: readonly { field: F; pattern: string }[];
  fields: readonly { value: F; label: string }[];
  label: (n: number) => string;
  removeLabel: (n: number) => string;
  errorOf: (i: number) => string | undefined;
  onChange: (rows: { field: F; pattern: string }[]) => void;
}) {
  const set = (i: number, change: Partial<{ field: F; pattern: string }>) =>
    onChange(rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  return rows.map((row, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a rule has no id; it is its place in the list
    <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
      <Select
        aria-label={`${label(i + 1)}: field`}
        data={fields.map((f) => ({ value: f.value, label: f.label }))}
        value={row.field}
        onChange={(value) => value && set(i, { field: value as F })}
        allowDeselect={false}
        w={160}
      />
      <TextInput
        aria-label={`${label(i + 1)}: ${ct.pattern}`}
        placeholder={ct.pattern}
        value={row.pattern}
        onChange={(e) => set(i, { pattern: e.currentTarget.value })}
        error={errorOf(i)}
        style={{ flex: 1 }}
      />
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={removeLabel(i + 1)}
        onClick={() => onChange(rows.filter((_, j) => j !== i))}
      >
        <IconTrash size={16} aria-hidden="true" />
      </ActionIcon>
    </Group>
  ));
}
