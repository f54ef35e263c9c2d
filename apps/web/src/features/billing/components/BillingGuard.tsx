import { Alert, Anchor, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { managesBilling, useWorkspace } from '../../../api/session';
import { bt } from '../texts';

/**
 * The checkout, invoice and address pages are for owners and admins (billing:manage) of a Sundial
 * that sells plans: others are told why and sent to Your subscription, instead of a refusal.
 */
export function BillingGuard({ children }: { children: ReactNode }) {
  const { workspace } = useWorkspace();
  if (managesBilling(workspace)) return children;
  return (
    <Stack align="flex-start">
      <Alert icon={<IconInfoCircle aria-hidden="true" />}>
        {workspace.billing ? bt.askOwnerNobody : bt.billingOff}
      </Alert>
      <Anchor component={Link} to="/homepage/billing" size="sm">
        {bt.backToBilling}
      </Anchor>
    </Stack>
  );
}
