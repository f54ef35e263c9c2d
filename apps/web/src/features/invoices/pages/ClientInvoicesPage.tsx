import { Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { CLIENT_INVOICE_STATUSES, type ClientInvoiceStatus, formatDate, formatMoney } from '@sundial/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { ListState } from '../../../components/ListState';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { useClientInvoices } from '../api';
import { CreateInvoiceModal } from '../components/CreateInvoiceModal';
import { InvoiceDrawer } from '../components/InvoiceDrawer';
import { InvoiceSettingsModal } from '../components/InvoiceSettingsModal';
import { STATUS_COLORS } from '../components/status';
import { iv } from '../texts';

const nowrap = { whiteSpace: 'nowrap' } as const;

/**
 * /homepage/invoices: client invoices with a status filter, totals per status, and the way to make one from time.
 * `?invoice=<id>` opens that invoice (the Detailed report's rows link to it).
 */
function InvoicesBody() {
  const { workspaceId } = useWorkspace();
  const clock = useClockFormat();
  const [status, setStatus] = useState<ClientInvoiceStatus | null>(null);
  const [creating, setCreating] = useState(false);
  const [settings, setSettings] = useState(false);
  const [params, setParams] = useSearchParams();
  const open = params.get('invoice');
  const setOpen = (id: string | null) =>
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        if (id) next.set('invoice', id);
        else next.delete('invoice');
        return next;
      },
      { replace: id === null },
    );
  const invoices = useClientInvoices(workspaceId, status);
  const totals = invoices.data?.totals ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Status"
          value={status ?? 'all'}
          onChange={(value) => setStatus(value === 'all' ? null : (value as ClientInvoiceStatus))}
          data={[
            { value: 'all', label: iv.all },
            ...CLIENT_INVOICE_STATUSES.map((s) => ({ value: s, label: iv.status[s] })),
          ]}
        />
        <Group gap="xs">
          <Button variant="default" onClick={() => setSettings(true)}>
            {iv.settings}
          </Button>
          <Button onClick={() => setCreating(true)}>{iv.newInvoice}</Button>
        </Group>
      </Group>
      {totals.length > 0 && (
        <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="invoice-totals">
          {CLIENT_INVOICE_STATUSES.map((s) => {
            const rows = totals.filter((t) => t.status === s);
            return (
              <Paper key={s} withBorder radius="md" p="sm">
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {iv.status[s]} · {rows.reduce((n, t) => n + t.count, 0)}
                </Text>
                {rows.length === 0 ? (
                  <Text fw={600}>–</Text>
                ) : (
                  rows.map((t) => (
                    <Text key={t.currency} fw={600}>
                      {formatMoney(t.totalCents, t.currency)}
                    </Text>
                  ))
                )}
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
      <ListState
        query={invoices}
        label="Loading invoices"
        empty={{ icon: <IconFileInvoice size={32} aria-hidden />, title: iv.emptyTitle, hint: iv.emptyHint }}
      >
        {(items) => (
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={760}>
              <Table aria-label={iv.title} highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    {iv.columns.map((c) => (
                      <Table.Th key={c} style={nowrap} ta={c === 'Total' ? 'right' : undefined}>
                        {c}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((invoice) => (
                    <Table.Tr
                      key={invoice.id}
                      data-testid="client-invoice-row"
                      style={{ cursor: 'pointer' }}
                      onClick={() => setOpen(invoice.id)}
                    >
                      <Table.Td style={nowrap}>
                        <Button variant="subtle" size="compact-sm" onClick={() => setOpen(invoice.id)}>
                          {invoice.number ?? iv.draftNumber}
                        </Button>
                      </Table.Td>
                      <Table.Td>{invoice.clientName}</Table.Td>
                      <Table.Td style={nowrap}>
                        {formatDate(invoice.periodFrom, clock)} – {formatDate(invoice.periodTo, clock)}
                      </Table.Td>
                      <Table.Td style={nowrap}>{invoice.issuedOn ? formatDate(invoice.issuedOn, clock) : '–'}</Table.Td>
                      <Table.Td style={nowrap}>{invoice.dueOn ? formatDate(invoice.dueOn, clock) : '–'}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={STATUS_COLORS[invoice.status]}>
                          {iv.status[invoice.status]}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right" fw={600} style={nowrap}>
                        {formatMoney(invoice.totalCents, invoice.currency)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </ListState>
      <CreateInvoiceModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          setOpen(id);
        }}
      />
      <InvoiceSettingsModal opened={settings} onClose={() => setSettings(false)} />
      <InvoiceDrawer id={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}

export default function ClientInvoicesPage() {
  const { can, hasFeature } = useWorkspace();
  if (!hasFeature('invoicing')) return <UpgradePrompt feature="invoicing" />;
  if (!can('invoices:manage'))
    return (
      <Text c="dimmed" py="xl" ta="center">
        Only owners and admins see invoices.
      </Text>
    );
  return <InvoicesBody />;
}
