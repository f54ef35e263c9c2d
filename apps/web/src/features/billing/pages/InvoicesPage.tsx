import { Anchor, Badge, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { formatDate, formatMoney, type InvoiceView, PLANS } from '@sundial/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { invoicePdfPath, useInvoices } from '../api';
import { BillingGuard } from '../components/BillingGuard';
import { BillingTabs } from '../components/BillingTabs';
import { bt, cycleName } from '../texts';

const nowrap = { whiteSpace: 'nowrap' } as const;
const STATUS_COLORS = { open: 'yellow', paid: 'green', void: 'gray' } as const;

/**
 * One invoice in seven columns, so Total, Status and the PDF fit at 1024 px: the date and the
 * buyer's country go under the number, the period under the plan.
 */
function InvoiceRow({ invoice, workspaceId }: { invoice: InvoiceView; workspaceId: string }) {
  const clock = useClockFormat();
  const period =
    invoice.periodStart && invoice.periodEnd
      ? `${formatDate(invoice.periodStart, clock)} – ${formatDate(invoice.periodEnd, clock)}`
      : null;
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  return (
    <Table.Tr data-testid="invoice-row">
      <Table.Td style={nowrap}>
        <Text size="sm">{invoice.number}</Text>
        <Text size="xs" c="dimmed">
          {invoice.kind === 'credit_note' && `${bt.creditNote} · `}
          {bt.issued(formatDate(invoice.issuedAt, clock), invoice.country)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {PLANS[invoice.plan].name}, {cycleName(invoice.cycle)}, {bt.licenseCount(invoice.licenses)}
        </Text>
        {period && (
          <Text size="xs" c="dimmed" style={nowrap}>
            {period}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right" style={nowrap}>
        {money(invoice.netCents)}
      </Table.Td>
      <Table.Td ta="right" style={nowrap}>
        {money(invoice.vatCents)}
      </Table.Td>
      <Table.Td ta="right" style={nowrap} fw={600}>
        {money(invoice.grossCents)}
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={STATUS_COLORS[invoice.status]}>
          {bt.invoiceStatus[invoice.status]}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Anchor href={invoicePdfPath(workspaceId, invoice.id)} aria-label={bt.pdf(invoice.number)} download>
          <IconFileTypePdf size={20} aria-hidden="true" />
        </Anchor>
      </Table.Td>
    </Table.Tr>
  );
}

/** /homepage/invoice: the workspace's invoices and credit notes, newest first, each with its PDF. */
function InvoicesPageBody() {
  const { workspaceId } = useWorkspace();
  const invoices = useInvoices(workspaceId);
  let body: ReactNode;
  if (invoices.isPending) body = <Loader aria-label="Loading" />;
  else if (invoices.isError)
    body = <ErrorPanel message={parseApiError(invoices.error).message} onRetry={() => invoices.refetch()} />;
  else if (invoices.data.items.length === 0)
    body = (
      <Text c="dimmed" py="xl" ta="center" data-testid="invoices-empty">
        {bt.noInvoices}
      </Text>
    );
  else
    body = (
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={680}>
          <Table aria-label={bt.invoices} striped>
            <Table.Thead>
              <Table.Tr>
                {bt.columns.map((column) => (
                  <Table.Th key={column} style={nowrap} ta={bt.moneyColumns.includes(column) ? 'right' : undefined}>
                    {column}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.data.items.map((invoice) => (
                <InvoiceRow key={invoice.id} invoice={invoice} workspaceId={workspaceId} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );
  return (
    <Stack gap={0}>
      <BillingTabs />
      {body}
    </Stack>
  );
}

export default function InvoicesPage() {
  return (
    <BillingGuard>
      <InvoicesPageBody />
    </BillingGuard>
  );
}
