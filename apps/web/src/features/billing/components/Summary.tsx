import { Divider, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { findCountryName, formatMoney, PLANS, type QuoteBody, type SubscriptionTermsBody } from '@sundial/core';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { useQuote } from '../api';
import { bt, cycleName } from '../texts';

function Line({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start">
      <Text size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 500}>
        {value}
      </Text>
    </Group>
  );
}

/** The billing address as typed so far: what the VAT depends on. */
export type DraftAddress = NonNullable<QuoteBody['billingAddress']>;

/**
 * What the choice costs now: the invoice's lines (an upgrade's credit for unused time as the
 * invoice shows it), net, VAT with its rate and country (or the reverse-charge note) and total,
 * by `address` while it is being typed, else by the saved billing details. The checkout charges
 * exactly this total once the address is saved.
 */
export function Summary({ choice, address }: { choice: SubscriptionTermsBody; address?: DraftAddress | null }) {
  const { workspaceId } = useWorkspace();
  const quote = useQuote(workspaceId, address ? { ...choice, billingAddress: address } : choice);
  const q = quote.data;
  const showLines = q && (q.lines.length > 1 || q.lines.some((line) => line.kind === 'credit'));
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
            {showLines && (
              <Stack gap={4} data-testid="quote-lines">
                {q.lines.map((line) => (
                  <Line
                    key={`${line.kind}-${line.description}`}
                    label={line.description}
                    value={formatMoney(line.amountCents)}
                  />
                ))}
              </Stack>
            )}
            <Line label={bt.net} value={formatMoney(q.netCents)} />
            {q.tax?.kind === 'standard' && (
              <Line
                label={bt.vatIn(q.tax.rateBasisPoints, findCountryName(q.taxCountry ?? '') ?? q.taxCountry ?? '')}
                value={formatMoney(q.vatCents)}
              />
            )}
            {/* Reverse charged, the VAT line says 0% (the note below says why). */}
            {q.tax?.kind === 'reverse_charge' && (
              <Line label={bt.vat(q.tax.rateBasisPoints)} value={formatMoney(q.vatCents)} />
            )}
            {q.tax && q.tax.kind !== 'standard' && q.tax.note && (
              <Text size="xs" c="dimmed" data-testid="tax-note">
                {q.tax.note}
              </Text>
            )}
            {!q.tax && (
              <Text size="xs" c="dimmed" data-testid="tax-note">
                {bt.vatUnknown}
              </Text>
            )}
            <Divider />
            <Line label={q.tax ? bt.gross : bt.grossBeforeVat} value={formatMoney(q.grossCents)} strong />
          </>
        )}
      </Stack>
    </Paper>
  );
}
