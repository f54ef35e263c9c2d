import { Box, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled block of the edit panel, named for assistive technology. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Text fw={600} size="sm" mb={6}>
        {title}
      </Text>
      {children}
    </Box>
  );
}
