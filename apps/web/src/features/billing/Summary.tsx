import { Divider, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { formatMoney, PLANS, type SubscriptionTermsBody } from '@sundial/core';
import { parseApiError } from '../../api/client';
import { useWorkspace } from '../../api/session';
import { useQuote } from './api';
import { bt, cycleName } from './texts';

function Line({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 500}>
        {value}
      </Text>
    </Group>
  );
}

/** What the choice costs now by the saved billing details: net, VAT (or the reverse-charge note) and gross. */
export function Summary({ choice }: { choice: SubscriptionTermsBody }) {
  const { workspaceId } = useWorkspace();
  const quote = useQuote(workspaceId, choice);
  const q = quote.data;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={bt.summary}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {bt.summary}
        </Title>
        <Text size="sm">
          {PLANS[choice.plan].name}, {cycleName(choice.cycle)}, {choice.licenses}{' '}
          {choice.licenses === 1 ? 'license' : 'licenses'}
        </Text>
        {quote.isPending && <Loader size="sm" aria-label="Loading the price" />}
        {quote.isError && (
          <Text size="sm" c="red" role="alert">
            {parseApiError(quote.error).message}
          </Text>
        )}
        {q && (
          <>
            <Divider />
            <Line label={bt.net} value={formatMoney(q.netCents)} />
            {/* Reverse charged, the VAT line says 0% (the note below says why). */}
            {(q.tax?.kind === 'standard' || q.tax?.kind === 'reverse_charge') && (
              <Line label={bt.vat(q.tax.rateBasisPoints)} value={formatMoney(q.vatCents)} />
            )}
            {q.tax && q.tax.kind !== 'standard' && q.tax.note && (
              <Text size="xs" c="dimmed" data-testid="tax-note">
                {q.tax.note}
              </Text>
            )}
            <Divider />
            <Line label={bt.gross} value={formatMoney(q.grossCents)} strong />
          </>
        )}
      </Stack>
    </Paper>
  );
}
