import { Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';

const nowrap = { whiteSpace: 'nowrap' } as const;

/** A table's column header that sorts by its field: a click sorts descending, a second ascending. */
export function SortHeader<F extends string>({
  label,
  field,
  sort,
  order,
  onSort,
  align,
}: {
  label: string;
  field: F;
  sort: F;
  order: 'asc' | 'desc';
  onSort: (field: F, order: 'asc' | 'desc') => void;
  align?: 'right';
}) {
  const active = sort === field;
  const Icon = active ? (order === 'asc' ? IconArrowUp : IconArrowDown) : IconSelector;
  return (
    <Table.Th
      scope="col"
      ta={align}
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
      style={nowrap}
    >
      <UnstyledButton
        onClick={() => onSort(field, active && order === 'desc' ? 'asc' : 'desc')}
        fw={600}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {label}
        <Icon size={14} aria-hidden="true" />
      </UnstyledButton>
    </Table.Th>
  );
}
