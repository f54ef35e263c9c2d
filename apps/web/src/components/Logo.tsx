import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

export function Logo({ to = '/', compact = false }: { to?: string; compact?: boolean }) {
  return (
    <Anchor component={Link} to={to} underline="never" c="inherit" aria-label="Sundial home">
      <Group gap={8} wrap="nowrap">
        <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
          <circle cx="16" cy="16" r="15" fill="#f59f00" />
          <path d="M16 6v10l7 4" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
        </svg>
        {!compact && (
          <Text fw={800} size="lg">
            Sundial
          </Text>
        )}
      </Group>
    </Anchor>
  );
}
