import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The profile's lists of what signs in to the account (sessions, linked identities): a heading per
 * column, a row per item with its cells and, last, what may be done to it.
 */
export function AccountTable<T extends { id: string }>({
  headers,
  items,
  cells,
  action,
}: {
  headers: string[];
  items: T[];
  cells: (item: T) => ReactNode[];
  action: (item: T) => ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {headers.map((header) => (
              <Table.Th key={header}>{header}</Table.Th>
            ))}
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              {cells(item).map((cell, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed, in order
                <Table.Td key={i}>{cell}</Table.Td>
              ))}
              <Table.Td ta="right">{action(item)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A cell's text, dimmed for what is secondary. */
export const Cell = ({ children, dimmed }: { children: ReactNode; dimmed?: boolean }) => (
  <Text size="sm" c={dimmed ? 'dimmed' : undefined}>
    {children}
  </Text>
);
