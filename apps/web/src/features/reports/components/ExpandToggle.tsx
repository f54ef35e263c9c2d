import { ActionIcon } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { t } from '../texts';

/** The chevron that opens and closes a row's breakdown (a matrix row's, a Summary group's subgroups). */
export function ExpandToggle({ open, name, onToggle }: { open: boolean; name: string; onToggle: () => void }) {
  return (
    <ActionIcon
      variant="subtle"
      size="sm"
      mr={4}
      aria-expanded={open}
      aria-label={open ? t.matrix.collapse(name) : t.matrix.expand(name)}
      onClick={onToggle}
    >
      {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
    </ActionIcon>
  );
}
