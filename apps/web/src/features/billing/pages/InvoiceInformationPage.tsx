import { Alert, Anchor, Grid, Loader, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useWorkspace } from '../../../api/session';
import { useBilling, useSaveDetails } from '../api';
import { choiceFromSearch, choiceSearch } from '../choice';
import { BillingGuard } from '../components/BillingGuard';
import { DetailsForm } from '../components/DetailsForm';
import { type DraftAddress, Summary } from '../components/Summary';
import { bt } from '../texts';

/**
 * /homepage/subscription, "Invoice information": who the invoice is for, and beside it the price
 * with the VAT of the address as it is typed (the payment step charges that), Subscribe now.
 */
function InvoiceInformationPageBody() {
  const { workspaceId } = useWorkspace();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const choice = choiceFromSearch(search);
  const billing = useBilling(workspaceId);
  const save = useSaveDetails(workspaceId);
  // The summary prices the VAT of the address being typed; a VAT id is asked for once typing pauses.
  const [address, setAddress] = useState<DraftAddress | null>(null);
  const [settled] = useDebouncedValue(address, 300);
  const back = (
    <Anchor component={Link} to="/homepage/billing" size="sm">
      {bt.backToBilling}
    </Anchor>
  );
  if (!choice)
    return (
      <Stack>
        <Alert color="yellow">{bt.noChoice}</Alert>
        {back}
      </Stack>
    );
  if (billing.isPending) return <Loader aria-label="Loading" />;
  return (
    <Stack>
      {back}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <DetailsForm
            initial={billing.data?.details ?? null}
            submitLabel={bt.subscribeNow}
            onAddressChange={setAddress}
            save={async (body) => {
              await save.mutateAsync(body);
              navigate(`/homepage/payment?${choiceSearch(choice)}`);
            }}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Summary choice={choice} address={settled} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export default function InvoiceInformationPage() {
  return (
    <BillingGuard>
      <InvoiceInformationPageBody />
    </BillingGuard>
  );
}
