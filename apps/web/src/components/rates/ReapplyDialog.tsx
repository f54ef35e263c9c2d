import { Alert, Button, Group, Modal, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { formatDateTime, formatDuration } from '@sundial/core';
import { useState } from 'react';
import { parseApiError } from '../../api/client';
import { type RateTarget, useRateSettings, useReapply, useReapplyPreview } from '../../api/rates';
import { useClockFormat } from '../../api/session';
import { money, today } from '../money';
import { done } from '../notify';

const firstOfYear = () => `${today().slice(0, 4)}-01-01`;

/**
 * Re-apply the rates in force to a level's entries of a date range: first a preview (which entries,
 * old and new rates and amounts, totals), then, confirmed, the same selection is applied.
 */
export function ReapplyDialog({
  workspaceId,
  target,
  label,
  onClose,
}: {
  workspaceId: string;
  target: RateTarget;
  label: string;
  onClose: () => void;
}) {
  const currency = useRateSettings(workspaceId).data?.currency ?? 'USD';
  const clock = useClockFormat();
  const [from, setFrom] = useState(firstOfYear());
  const [to, setTo] = useState(today());
  const preview = useReapplyPreview(workspaceId);
  const apply = useReapply(workspaceId);
  const body = { ...target, from, to };
  const error = preview.error ?? apply.error;
  const fields = error ? parseApiError(error).fields : {};
  const shown = preview.data && preview.variables?.from === from && preview.variables?.to === to ? preview.data : null;
  const m = (cents: number | null) => money(cents, currency);

  return (
    <Modal opened onClose={onClose} title={`Re-apply rates: ${label}`} size="xl">
      <Stack gap="sm">
        <Text size="sm">
          Entries keep the rates in force when they were saved. Re-applying copies today’s rates onto this level’s
          entries that started in the range. Preview first; nothing changes until you confirm.
        </Text>
        <Group align="flex-end" gap="xs">
          <TextInput
            type="date"
            label="From"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={fields.from}
          />
          <TextInput
            type="date"
            label="To"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={fields.to}
          />
          <Button type="button" variant="light" onClick={() => preview.mutate(body)} loading={preview.isPending}>
            Preview
          </Button>
        </Group>
        {error && !fields.from && !fields.to && (
          <Alert color="red" role="alert">
            {parseApiError(error).message}
          </Alert>
        )}
        {shown?.leftOut.message && (
          <Alert color="yellow" role="note">
            {shown.leftOut.message}
          </Alert>
        )}
        {shown && shown.count === 0 && !shown.leftOut.message && (
          <Text size="sm" c="dimmed" role="status">
            No entry in this range would change: they already carry the rates in force.
          </Text>
        )}
        {shown && shown.count > 0 && (
          <>
            <Text size="sm" role="status">
              {shown.count === 1 ? '1 entry changes' : `${shown.count} entries change`}: billable{' '}
              {m(shown.totals.old.billableAmountCents)} → <b>{m(shown.totals.new.billableAmountCents)}</b>, cost{' '}
              {m(shown.totals.old.costAmountCents)} → <b>{m(shown.totals.new.costAmountCents)}</b>.
            </Text>
            <ScrollArea.Autosize mah={320}>
              <Table striped fz="sm" aria-label="Entries that change">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Start</Table.Th>
                    <Table.Th ta="right">Duration</Table.Th>
                    <Table.Th ta="right">Billable rate</Table.Th>
                    <Table.Th ta="right">Billable amount</Table.Th>
                    <Table.Th ta="right">Cost amount</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.entries.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td>{formatDateTime(e.start, clock)}</Table.Td>
                      <Table.Td ta="right">{formatDuration(e.durationSeconds)}</Table.Td>
                      <Table.Td ta="right">
                        {m(e.old.billableRateCents)} → {m(e.new.billableRateCents)}
                      </Table.Td>
                      <Table.Td ta="right">
                        {m(e.old.billableAmountCents)} → {m(e.new.billableAmountCents)}
                      </Table.Td>
                      <Table.Td ta="right">
                        {m(e.old.costAmountCents)} → {m(e.new.costAmountCents)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
            {shown.count > shown.entries.length && (
              <Text size="xs" c="dimmed">
                The first {shown.entries.length} are listed; all {shown.count} change.
              </Text>
            )}
          </>
        )}
        <Group justify="flex-end">
          <Button type="button" variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="button"
            disabled={!shown || shown.count === 0}
            loading={apply.isPending}
            onClick={() =>
              apply.mutate(body, {
                onSuccess: (r) => {
                  done(r.updated === 1 ? 'Rates re-applied to 1 entry.' : `Rates re-applied to ${r.updated} entries.`);
                  onClose();
                },
              })
            }
          >
            {shown && shown.count > 0 ? `Apply to ${shown.count} ${shown.count === 1 ? 'entry' : 'entries'}` : 'Apply'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
