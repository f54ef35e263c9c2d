import { Tooltip } from '@mantine/core';
import type { TimeLockView } from '@sundial/core';
import { IconLock } from '@tabler/icons-react';

/** A lock that a cell or a day shows: the entry's own, or its period's (an empty cell of a locked week). */
export type ShownLock = Pick<TimeLockView, 'label' | 'reason'>;

/**
 * The lock icon beside time that cannot be changed: its tooltip says why ("Approved week", and the
 * sentence the API would answer a write with); screen readers hear the short reason.
 */
export function LockMark({ lock }: { lock: ShownLock }) {
  return (
    <Tooltip label={`${lock.label}. ${lock.reason}`} multiline w={300} withArrow>
      <span
        role="img"
        aria-label={lock.label}
        data-testid="time-lock"
        style={{ display: 'inline-flex', flexShrink: 0, color: 'var(--mantine-color-dimmed)' }}
      >
        <IconLock size={14} aria-hidden />
      </span>
    </Tooltip>
  );
}

/** Whether the lock closes the whole entry (an invoiced one keeps its note and tags editable). */
export const closesAll = (lock: TimeLockView | null) => lock !== null && lock.kind !== 'invoiced';
