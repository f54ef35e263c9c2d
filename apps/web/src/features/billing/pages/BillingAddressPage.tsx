import { Button, Loader, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done } from '../../../components/notify';
import { useBilling, useSaveDetails } from '../api';
import { BillingGuard } from '../components/BillingGuard';
import { BillingTabs } from '../components/BillingTabs';
import { DetailsForm } from '../components/DetailsForm';
import { bt } from '../texts';

/** /homepage/billingaddress: the invoice information and billing address alone, for future invoices. */
function BillingAddressPageBody() {
  const { workspaceId } = useWorkspace();
  const navigate = useNavigate();
  const billing = useBilling(workspaceId);
  const save = useSaveDetails(workspaceId);
  let body: ReactNode;
  if (billing.isPending) body = <Loader aria-label="Loading" />;
  else if (billing.isError)
    body = <ErrorPanel message={parseApiError(billing.error).message} onRetry={() => billing.refetch()} />;
  else
    body = (
      <Paper withBorder radius="md" p="lg" maw={820}>
        <DetailsForm
          key={billing.dataUpdatedAt}
          initial={billing.data.details}
          submitLabel={bt.update}
          save={async (details) => {
            await save.mutateAsync(details);
            done(bt.saved);
          }}
          actions={
            <Button variant="default" onClick={() => navigate('/homepage/billing')}>
              {bt.cancelEdit}
            </Button>
          }
        />
      </Paper>
    );
  return (
    <Stack gap={0}>
      <BillingTabs />
      {body}
    </Stack>
  );
}

export default function BillingAddressPage() {
  return (
    <BillingGuard>
      <BillingAddressPageBody />
    </BillingGuard>
  );
}
