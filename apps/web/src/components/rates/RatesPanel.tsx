import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { parseApiError } from '../../api/client';
import { type RateTarget, useCreateRate, useDeleteRate, useRateHistory, useRateSettings } from '../../api/rates';
import { useWorkspace } from '../../api/session';
import { money, toCents, today } from '../money';
import { done, failed } from '../notify';
import { UpgradePrompt } from '../UpgradePrompt';
import { ReapplyDialog } from './ReapplyDialog';

/**
 * One level's hourly rates: the history (newest first; a row can be deleted), a new rate from a day
 * on, and re-applying the rates in force to past entries. Owners and admins (rates:manage) change
 * them and see cost rates too; others who may read the history (managers, a member their own when
 * allowed) see it read-only, with the cost rates only when the API sends them. Saved entries keep
 * the rates they copied until re-applied.
 */
export function RatesPanel(props: { workspaceId: string; target: RateTarget; label: string }) {
  // Rates need billing rates (Pro); a Free workspace keeps its rates, shown again on upgrade.
  if (!useWorkspace().hasFeature('billing_rates')) return <UpgradePrompt feature="billing_rates" />;
  return <RatesHistory {...props} />;
}

function RatesHistory({ workspaceId, target, label }: { workspaceId: string; target: RateTarget; label: string }) {
  const canChange = useWorkspace().can('rates:manage');
  const history = useRateHistory(workspaceId, target);
  const costs = history.data?.costsShown ?? canChange;
  const currency = useRateSettings(workspaceId).data?.currency ?? 'USD';
  const create = useCreateRate(workspaceId);
  const remove = useDeleteRate(workspaceId);
  const [from, setFrom] = useState(today());
  const [billable, setBillable] = useState<string | number>('');
  const [cost, setCost] = useState<string | number>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reapply, setReapply] = useState(false);

  const add = () =>
    create.mutate(
      { ...target, effectiveFrom: from, billableCents: toCents(billable), costCents: toCents(cost) },
      {
        onSuccess: () => {
          setErrors({});
          setBillable('');
          setCost('');
          done('Rate saved. Entries saved before keep their rates.');
        },
        onError: (error) => setErrors({ form: parseApiError(error).message, ...parseApiError(error).fields }),
      },
    );

  return (
    <Stack gap="sm" aria-label={`${label} rates`} component="section">
      {history.isPending ? (
        <Loader size="sm" aria-label="Loading rates" />
      ) : history.isError ? (
        <Alert color="red" title="Rates could not be loaded">
          {parseApiError(history.error).message}{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => history.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : history.data.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {canChange ? 'No rate at this level yet: entries take the next level’s.' : 'No rate at this level.'}
        </Text>
      ) : (
        <Table striped withTableBorder fz="sm" aria-label={`${label} rate history`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>From</Table.Th>
              <Table.Th ta="right">Billable rate</Table.Th>
              {costs && <Table.Th ta="right">Cost rate</Table.Th>}
              {canChange && (
                <Table.Th w={40}>
                  <VisuallyHidden>Delete</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.data.items.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{r.effectiveFrom}</Table.Td>
                <Table.Td ta="right">
                  {r.billableCents === null ? 'next level' : `${money(r.billableCents, currency)}/h`}
                </Table.Td>
                {costs && (
                  <Table.Td ta="right">
                    {r.costCents === null || r.costCents === undefined
                      ? 'next level'
                      : `${money(r.costCents, currency)}/h`}
                  </Table.Td>
                )}
                {canChange && (
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete the rate from ${r.effectiveFrom}`}
                      loading={remove.isPending && remove.variables === r.id}
                      onClick={() => remove.mutate(r.id, { onSuccess: () => done('Rate deleted.'), onError: failed })}
                    >
                      <IconTrash size={16} aria-hidden="true" />
                    </ActionIcon>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {!canChange && (
        <Text size="xs" c="dimmed">
          {costs ? 'Read-only' : 'Read-only; cost rates are confidential'}: owners and admins change rates.
        </Text>
      )}
      {canChange && (
        <>
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              type="date"
              label="From"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              error={errors.effectiveFrom}
              w={150}
            />
            <NumberInput
              label={`Billable rate (${currency}/h)`}
              value={billable}
              onChange={setBillable}
              min={0}
              decimalScale={2}
              hideControls
              error={errors.billableCents}
              w={150}
            />
            <NumberInput
              label={`Cost rate (${currency}/h)`}
              value={cost}
              onChange={setCost}
              min={0}
              decimalScale={2}
              hideControls
              error={errors.costCents}
              w={150}
            />
            <Button type="button" onClick={add} loading={create.isPending}>
              Add rate
            </Button>
          </Group>
          {errors.form && !errors.effectiveFrom && !errors.billableCents && !errors.costCents && (
            <Text size="sm" c="red" role="alert">
              {errors.form}
            </Text>
          )}
          <Group>
            <Button type="button" variant="light" size="xs" onClick={() => setReapply(true)}>
              Re-apply to past entries…
            </Button>
          </Group>
          {reapply && (
            <ReapplyDialog workspaceId={workspaceId} target={target} label={label} onClose={() => setReapply(false)} />
          )}
        </>
      )}
    </Stack>
  );
}
