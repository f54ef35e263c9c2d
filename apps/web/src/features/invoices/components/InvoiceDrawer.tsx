import {
  ActionIcon,
  Badge,
  Button,
  Divider,
  Drawer,
  Group,
  List,
  Loader,
  Modal,
  NumberInput,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  type ClientInvoiceView,
  formatBasisPoints,
  formatDate,
  formatDuration,
  formatHundredths,
  formatMoney,
} from '@sundial/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { download, parseApiError } from '../../../api/client';
import { useClockFormat, useWorkspace } from '../../../api/session';
import { done, failed } from '../../../components/notify';
import {
  useClientInvoice,
  useDeleteInvoice,
  useInvoiceStep,
  useMarkPaid,
  useSendInvoice,
  useUpdateInvoice,
} from '../api';
import { iv } from '../texts';
import { STATUS_COLORS } from './status';

interface Draft {
  fixedLines: { description: string; amount: number | string }[];
  discount: number | string;
  taxes: { name: string; rate: number | string }[];
  notes: string;
  dueOn: string;
}

const draftOf = (invoice: ClientInvoiceView): Draft => ({
  fixedLines: invoice.lines
    .filter((l) => l.kind === 'fixed')
    .map((l) => ({ description: l.description, amount: l.amountCents / 100 })),
  discount: invoice.discount?.kind === 'percent' ? invoice.discount.basisPoints / 100 : '',
  taxes: invoice.money.taxes.map((t) => ({ name: t.name, rate: t.basisPoints / 100 })),
  notes: invoice.notes,
  dueOn: invoice.dueOn ?? '',
});

const nowrap = { whiteSpace: 'nowrap' } as const;

const cents = (value: number | string) => Math.round(Number(value || 0) * 100);

/** A draft's editor: fixed-price lines, a discount percentage, one or two taxes, notes and due day. */
function DraftEditor({ invoice }: { invoice: ClientInvoiceView }) {
  const { workspaceId } = useWorkspace();
  const update = useUpdateInvoice(workspaceId, invoice.id);
  const [draft, setDraft] = useState(() => draftOf(invoice));
  const save = () =>
    update.mutate(
      {
        fixedLines: draft.fixedLines.map((l) => ({ description: l.description, amountCents: cents(l.amount) })),
        discount: draft.discount === '' ? null : { kind: 'percent', basisPoints: cents(draft.discount) },
        taxes: draft.taxes.map((t) => ({ name: t.name, basisPoints: cents(t.rate) })),
        notes: draft.notes,
        dueOn: draft.dueOn || null,
      },
      { onSuccess: () => done(iv.saved), onError: failed },
    );
  return (
    <Stack gap="xs">
      <Text fw={600}>{iv.fixedLines}</Text>
      {draft.fixedLines.map((line, i) => (
        <Group key={`line-${i.toString()}`} gap="xs" wrap="nowrap">
          <TextInput
            aria-label={iv.description}
            placeholder={iv.description}
            style={{ flex: 1 }}
            value={line.description}
            onChange={(e) => {
              const fixedLines = [...draft.fixedLines];
              fixedLines[i] = { ...line, description: e.currentTarget.value };
              setDraft({ ...draft, fixedLines });
            }}
          />
          <NumberInput
            aria-label={iv.amount}
            w={120}
            decimalScale={2}
            min={0}
            value={line.amount}
            onChange={(amount) => {
              const fixedLines = [...draft.fixedLines];
              fixedLines[i] = { ...line, amount };
              setDraft({ ...draft, fixedLines });
            }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label="Remove line"
            onClick={() => setDraft({ ...draft, fixedLines: draft.fixedLines.filter((_, j) => j !== i) })}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => setDraft({ ...draft, fixedLines: [...draft.fixedLines, { description: '', amount: 0 }] })}
        >
          {iv.addLine}
        </Button>
      </Group>
      <Group grow>
        <NumberInput
          label={iv.discountPercent}
          min={0}
          max={100}
          decimalScale={2}
          value={draft.discount}
          onChange={(discount) => setDraft({ ...draft, discount })}
        />
        <TextInput
          type="date"
          label={iv.dueOn}
          value={draft.dueOn}
          onChange={(e) => setDraft({ ...draft, dueOn: e.currentTarget.value })}
        />
      </Group>
      {draft.taxes.map((tax, i) => (
        <Group key={`tax-${i.toString()}`} gap="xs" wrap="nowrap">
          <TextInput
            aria-label={iv.taxName}
            placeholder={iv.taxName}
            style={{ flex: 1 }}
            value={tax.name}
            onChange={(e) => {
              const taxes = [...draft.taxes];
              taxes[i] = { ...tax, name: e.currentTarget.value };
              setDraft({ ...draft, taxes });
            }}
          />
          <NumberInput
            aria-label={iv.taxRate}
            w={120}
            min={0}
            max={100}
            decimalScale={2}
            value={tax.rate}
            onChange={(rate) => {
              const taxes = [...draft.taxes];
              taxes[i] = { ...tax, rate };
              setDraft({ ...draft, taxes });
            }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label="Remove tax"
            onClick={() => setDraft({ ...draft, taxes: draft.taxes.filter((_, j) => j !== i) })}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {draft.taxes.length < 2 && (
        <Group>
          <Button
            variant="subtle"
            size="xs"
            onClick={() => setDraft({ ...draft, taxes: [...draft.taxes, { name: 'VAT', rate: 20 }] })}
          >
            {iv.addTax}
          </Button>
        </Group>
      )}
      <Textarea
        label={iv.notes}
        autosize
        minRows={2}
        value={draft.notes}
        onChange={(e) => setDraft({ ...draft, notes: e.currentTarget.value })}
      />
      <Group>
        <Button variant="default" loading={update.isPending} onClick={save}>
          {iv.save}
        </Button>
      </Group>
    </Stack>
  );
}

function Lines({ invoice }: { invoice: ClientInvoiceView }) {
  const money = (c: number) => formatMoney(c, invoice.currency);
  const { money: m } = invoice;
  return (
    <Table data-testid="invoice-lines">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{iv.description}</Table.Th>
          <Table.Th ta="right">{iv.hours}</Table.Th>
          <Table.Th ta="right">{iv.rate}</Table.Th>
          <Table.Th ta="right">{iv.amount}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {invoice.lines.map((line, i) => (
          <Table.Tr key={`${line.kind}-${i.toString()}`}>
            <Table.Td>{line.description}</Table.Td>
            <Table.Td ta="right">{line.hundredths === null ? '' : formatHundredths(line.hundredths)}</Table.Td>
            <Table.Td ta="right">
              {line.rateCents === null
                ? ''
                : line.kind === 'time'
                  ? iv.perHour(money(line.rateCents))
                  : money(line.rateCents)}
            </Table.Td>
            <Table.Td ta="right">{money(line.amountCents)}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td colSpan={3}>{iv.subtotal}</Table.Td>
          <Table.Td ta="right">{money(m.subtotalCents)}</Table.Td>
        </Table.Tr>
        {m.discountCents > 0 && (
          <Table.Tr>
            <Table.Td colSpan={3}>{iv.discount}</Table.Td>
            <Table.Td ta="right">{money(-m.discountCents)}</Table.Td>
          </Table.Tr>
        )}
        {m.taxes.map((tax) => (
          <Table.Tr key={tax.name}>
            <Table.Td colSpan={3}>
              {tax.name} {formatBasisPoints(tax.basisPoints)}
            </Table.Td>
            <Table.Td ta="right">{money(tax.amountCents)}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td colSpan={3} fw={700}>
            {iv.total}
          </Table.Td>
          <Table.Td ta="right" fw={700} data-testid="invoice-total">
            {money(m.totalCents)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/** The entries the invoice was made from, each as invoiced: day, person, project / task, note, time and amount. */
function Entries({ invoice }: { invoice: ClientInvoiceView }) {
  const c = iv.entryColumns;
  const clock = useClockFormat();
  if (invoice.entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {iv.noEntries}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped fz="sm" aria-label={iv.entriesOnInvoice} data-testid="invoice-entries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{c.date}</Table.Th>
            <Table.Th>{c.person}</Table.Th>
            <Table.Th>{c.work}</Table.Th>
            <Table.Th>{c.note}</Table.Th>
            <Table.Th ta="right">{c.duration}</Table.Th>
            <Table.Th ta="right">{iv.amount}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoice.entries.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={nowrap}>{formatDate(e.day, clock)}</Table.Td>
              <Table.Td>{e.userName || iv.unnamed}</Table.Td>
              <Table.Td>{[e.project ?? iv.noProject, e.task].filter(Boolean).join(' / ')}</Table.Td>
              <Table.Td>{e.note}</Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {formatDuration(e.seconds)}
              </Table.Td>
              <Table.Td ta="right" style={nowrap}>
                {formatMoney(e.amountCents, invoice.rateCurrency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Asks before voiding, saying what voiding does (and does not do). */
function VoidDialog({
  invoice,
  opened,
  voiding,
  onCancel,
  onVoid,
}: {
  invoice: ClientInvoiceView;
  opened: boolean;
  voiding: boolean;
  onCancel: () => void;
  onVoid: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={iv.voidTitle} centered>
      <Stack gap="sm">
        <List size="sm" spacing="xs">
          {iv.voidEffects(invoice.number ?? '').map((effect) => (
            <List.Item key={effect}>{effect}</List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {iv.cancel}
          </Button>
          <Button color="red" loading={voiding} onClick={onVoid}>
            {iv.voidConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The open invoice: its lines and totals, the time it was made from, the draft's editor, and the steps its status allows. */
export function InvoiceDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { workspaceId } = useWorkspace();
  const clock = useClockFormat();
  const query = useClientInvoice(workspaceId, id);
  const invoice = query.data;
  const step = useInvoiceStep(workspaceId, id ?? '');
  const paid = useMarkPaid(workspaceId, id ?? '');
  const send = useSendInvoice(workspaceId, id ?? '');
  const remove = useDeleteInvoice(workspaceId);
  const [paidOn, setPaidOn] = useState(() => new Date().toISOString().slice(0, 10));
  const [to, setTo] = useState('');
  const [confirmVoid, setConfirmVoid] = useState(false);
  const issued = invoice && (invoice.status === 'issued' || invoice.status === 'sent');
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={invoice ? (invoice.number ?? iv.draftNumber) : ''}
    >
      {query.error && <Text c="red">{parseApiError(query.error).message}</Text>}
      {!invoice && !query.error && <Loader aria-label="Loading invoice" />}
      {invoice && (
        <Stack>
          <Group justify="space-between">
            <div>
              <Title order={4}>{invoice.clientName}</Title>
              <Text size="sm" c="dimmed">
                {formatDate(invoice.periodFrom, clock)} – {formatDate(invoice.periodTo, clock)} ·{' '}
                {iv.entries(invoice.entries.length)}
              </Text>
            </div>
            <Badge color={STATUS_COLORS[invoice.status]} variant="light" data-testid="invoice-status">
              {iv.status[invoice.status]}
            </Badge>
          </Group>
          <Lines invoice={invoice} />
          <Text size="xs" c="dimmed" data-testid="invoice-currency">
            {iv.amountsIn(invoice.currency)} {invoice.conversion ? iv.converted(invoice.conversion) : ''}
          </Text>
          {invoice.status === 'void' && invoice.voidedAt && (
            <Text size="sm" c="red" data-testid="invoice-voided">
              {iv.voidedBy(formatDate(invoice.voidedAt, clock), invoice.voidedBy)}
            </Text>
          )}
          <VoidDialog
            invoice={invoice}
            opened={confirmVoid}
            voiding={step.isPending}
            onCancel={() => setConfirmVoid(false)}
            onVoid={() =>
              step.mutate('void', {
                onSuccess: () => {
                  setConfirmVoid(false);
                  done(iv.voided);
                },
                onError: failed,
              })
            }
          />
          <Title order={5}>{iv.entriesOnInvoice}</Title>
          <Entries invoice={invoice} />
          <Group gap="xs">
            <Button
              variant="default"
              onClick={() =>
                download(
                  'GET /workspaces/:workspaceId/client-invoices/:invoiceId/pdf',
                  { params: { workspaceId, invoiceId: invoice.id } },
                  `invoice-${invoice.number ?? 'draft'}.pdf`,
                ).catch(failed)
              }
            >
              {iv.pdf}
            </Button>
            {invoice.status === 'draft' && (
              <>
                <Button
                  loading={step.isPending}
                  onClick={() =>
                    step.mutate('issue', { onSuccess: (v) => done(iv.issued(v.number ?? '')), onError: failed })
                  }
                >
                  {iv.issue}
                </Button>
                <Button
                  color="red"
                  variant="subtle"
                  loading={remove.isPending}
                  onClick={() => remove.mutate(invoice.id, { onSuccess: onClose, onError: failed })}
                >
                  {iv.deleteDraft}
                </Button>
              </>
            )}
            {invoice.status === 'issued' && (
              <Button
                variant="default"
                loading={step.isPending}
                onClick={() => step.mutate('mark-sent', { onError: failed })}
              >
                {iv.markSent}
              </Button>
            )}
            {issued && (
              <Button color="red" variant="subtle" loading={step.isPending} onClick={() => setConfirmVoid(true)}>
                {iv.void}
              </Button>
            )}
          </Group>
          {issued && (
            <>
              <Group align="flex-end" gap="xs">
                <TextInput
                  type="date"
                  label={iv.paidOn}
                  value={paidOn}
                  onChange={(e) => setPaidOn(e.currentTarget.value)}
                />
                <Button
                  variant="default"
                  loading={paid.isPending}
                  onClick={() => paid.mutate(paidOn, { onError: failed })}
                >
                  {iv.markPaid}
                </Button>
              </Group>
              <Group align="flex-end" gap="xs">
                <TextInput
                  label={iv.sendTo}
                  style={{ flex: 1 }}
                  value={to}
                  onChange={(e) => setTo(e.currentTarget.value)}
                />
                <Button
                  variant="default"
                  loading={send.isPending}
                  onClick={() =>
                    send.mutate(
                      {
                        to: to
                          .split(',')
                          .map((a) => a.trim())
                          .filter(Boolean),
                      },
                      { onSuccess: () => done(iv.sent), onError: failed },
                    )
                  }
                >
                  {iv.send}
                </Button>
              </Group>
            </>
          )}
          {invoice.status === 'draft' && (
            <>
              <Divider />
              <DraftEditor key={invoice.id} invoice={invoice} />
            </>
          )}
          {invoice.status !== 'draft' && invoice.notes && <Text size="sm">{invoice.notes}</Text>}
        </Stack>
      )}
    </Drawer>
  );
}
