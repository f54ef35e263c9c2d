import { Button, Checkbox, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { formatHundredths, formatMoney, INVOICE_GROUPINGS, type InvoiceGrouping } from '@sundial/core';
import { useState } from 'react';
import { useClients } from '../../../api/catalog';
import { parseApiError } from '../../../api/client';
import { useRateSettings } from '../../../api/rates';
import { useWorkspace } from '../../../api/session';
import { useCreateInvoice, usePreviewInvoice } from '../api';
import { iv } from '../texts';

const monthOf = (offset: number) => {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
};

/** New invoice: a client, its days and how lines group; the preview shows the lines before the draft is made. */
export function CreateInvoiceModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const { workspaceId } = useWorkspace();
  const [error, setError] = useState<unknown>(null);
  const clients = useClients(workspaceId, opened);
  const preview = usePreviewInvoice(workspaceId);
  const create = useCreateInvoice(workspaceId);
  const [clientId, setClientId] = useState<string | null>(null);
  const [range, setRange] = useState(monthOf(-1));
  const [groupBy, setGroupBy] = useState<InvoiceGrouping>('project');
  const rates = useRateSettings(workspaceId);
  const from = rates.data?.currency ?? 'USD';
  const [converting, setConverting] = useState(false);
  const [conversion, setConversion] = useState({ currency: '', rate: '', on: range.to, source: '' });
  const body = clientId ? { clientId, ...range, groupBy, conversion: converting ? conversion : null } : null;
  const fields = error ? parseApiError(error).fields : {};
  const clientCurrency = (id: string | null) =>
    clients.data?.items.find((c) => c.id === id)?.currency?.toUpperCase() ?? '';
  const shown = preview.data;

  return (
    <Modal opened={opened} onClose={onClose} title={iv.newInvoice} size="lg">
      <Stack>
        <Select
          label={iv.client}
          data={(clients.data?.items ?? []).filter((c) => !c.archived).map((c) => ({ value: c.id, label: c.name }))}
          value={clientId}
          onChange={(value) => {
            setClientId(value);
            const preferred = clientCurrency(value);
            setConverting(preferred !== '' && preferred !== from);
            setConversion({ ...conversion, currency: preferred !== from ? preferred : '' });
            preview.reset();
          }}
          searchable
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            type="date"
            label={iv.from}
            value={range.from}
            onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={iv.to}
            value={range.to}
            onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
          />
          <Select
            label={iv.groupBy}
            data={INVOICE_GROUPINGS.map((g) => ({ value: g, label: iv.grouping[g] }))}
            value={groupBy}
            onChange={(value) => value && setGroupBy(value as InvoiceGrouping)}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Checkbox
          label={iv.convert}
          description={iv.convertHint(from)}
          checked={converting}
          onChange={(e) => {
            setConverting(e.currentTarget.checked);
            preview.reset();
          }}
        />
        {converting && (
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <TextInput
              label={iv.currency}
              value={conversion.currency}
              maxLength={3}
              error={fields['conversion.currency']}
              onChange={(e) => setConversion({ ...conversion, currency: e.currentTarget.value.toUpperCase() })}
            />
            <TextInput
              label={iv.exchangeRate(from)}
              inputMode="decimal"
              value={conversion.rate}
              error={fields['conversion.rate']}
              onChange={(e) => setConversion({ ...conversion, rate: e.currentTarget.value })}
            />
            <TextInput
              type="date"
              label={iv.rateOn}
              value={conversion.on}
              error={fields['conversion.on']}
              onChange={(e) => setConversion({ ...conversion, on: e.currentTarget.value })}
            />
            <TextInput
              label={iv.rateSource}
              placeholder={iv.rateSourcePlaceholder}
              value={conversion.source}
              error={fields['conversion.source']}
              onChange={(e) => setConversion({ ...conversion, source: e.currentTarget.value })}
            />
          </SimpleGrid>
        )}
        {error !== null && (
          <Text c="red" size="sm" role="alert">
            {parseApiError(error).message}
          </Text>
        )}
        {shown && (
          <Table data-testid="invoice-preview">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{iv.description}</Table.Th>
                <Table.Th ta="right">{iv.hours}</Table.Th>
                <Table.Th ta="right">{iv.rate}</Table.Th>
                <Table.Th ta="right">{iv.amount}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.lines.map((line, i) => (
                <Table.Tr key={`${line.description}-${i.toString()}`}>
                  <Table.Td>{line.description}</Table.Td>
                  <Table.Td ta="right">{line.hundredths === null ? '' : formatHundredths(line.hundredths)}</Table.Td>
                  <Table.Td ta="right">
                    {line.rateCents === null ? '' : iv.perHour(formatMoney(line.rateCents, shown.currency))}
                  </Table.Td>
                  <Table.Td ta="right">{formatMoney(line.amountCents, shown.currency)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={600}>
                  {iv.total} ({iv.entries(shown.entryCount)})
                </Table.Td>
                <Table.Td />
                <Table.Td />
                <Table.Td ta="right" fw={600} data-testid="preview-total">
                  {formatMoney(shown.money.totalCents, shown.currency)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
        {shown && (
          <Text size="xs" c="dimmed">
            {iv.amountsIn(shown.currency)} {shown.conversion ? iv.converted(shown.conversion) : ''}
          </Text>
        )}
        <Group justify="flex-end">
          <Button
            variant="default"
            disabled={!body}
            loading={preview.isPending}
            onClick={() => {
              setError(null);
              if (body) preview.mutate(body, { onError: setError });
            }}
          >
            {iv.preview}
          </Button>
          <Button
            disabled={!body || !shown}
            loading={create.isPending}
            onClick={() =>
              body &&
              create.mutate(body, {
                onError: setError,
                onSuccess: (invoice) => {
                  preview.reset();
                  onCreated(invoice.id);
                },
              })
            }
          >
            {iv.create}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
