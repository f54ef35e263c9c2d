import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Loader,
  Modal,
  NumberInput,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  type BillingCycle,
  type BillingView,
  formatMoney,
  licenseCountError,
  PLAN_IDS,
  PLANS,
  type PlanId,
} from '@sundial/core';
import { IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { done, failed } from '../../../components/notify';
import { useBilling, useBillingManagers, useQuote, useSubscriptionAction } from '../api';
import { choiceSearch } from '../choice';
import { BillingTabs } from '../components/BillingTabs';
import { ReplaceCard } from '../components/ReplaceCard';
import { bt, cardBrandName, cycleName } from '../texts';

/** The demo-request page of the landing site: Enterprise is sold by a call with sales. */
const DEMO_PATH = '/demo';

type Prices = BillingView['prices'];

/** A plan card's price line for the selected cycle (Basic annual: $6.30 per license per month, billed annually). */
function priceLine(plan: PlanId, cycle: BillingCycle, prices: Prices) {
  if (plan === 'free') return { big: bt.free, small: bt.freeTagline };
  if (plan === 'enterprise') return { big: bt.custom, small: PLANS.enterprise.tagline };
  const price = prices.find((p) => p.plan === plan);
  const cents = (cycle === 'annual' ? price?.annualCents : price?.monthlyCents) ?? 0;
  return {
    big: formatMoney(cycle === 'annual' ? Math.round(cents / 12) : cents),
    small: bt.perLicense(cents, cycle),
  };
}

function PlanCard(props: {
  plan: PlanId;
  cycle: BillingCycle;
  prices: Prices;
  selected: boolean;
  current: boolean;
  onSelect: () => void;
}) {
  const { plan, selected } = props;
  const line = priceLine(plan, props.cycle, props.prices);
  return (
    <UnstyledButton onClick={props.onSelect} aria-pressed={selected} data-testid={`plan-card-${plan}`}>
      <Paper
        withBorder
        radius="md"
        p="md"
        h="100%"
        style={{
          borderColor: selected ? 'var(--mantine-color-blue-6)' : undefined,
          borderWidth: selected ? 2 : 1,
        }}
      >
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700} tt="uppercase">
            {PLANS[plan].name}
          </Text>
          {props.current && (
            <Badge variant="light" color="green">
              Current
            </Badge>
          )}
        </Group>
        <Text fz={28} fw={700} mt="xs">
          {line.big}
        </Text>
        <Text size="sm" c="dimmed">
          {line.small}
        </Text>
      </Paper>
    </UnstyledButton>
  );
}

function Features({ plan }: { plan: PlanId }) {
  return (
    <List
      spacing={6}
      size="sm"
      icon={<IconCheck size={16} color="var(--mantine-color-green-7)" aria-hidden="true" />}
      aria-label={`${PLANS[plan].name} features`}
    >
      {PLANS[plan].features.map((feature) => (
        <List.Item key={feature}>{feature}</List.Item>
      ))}
    </List>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} ta="right">
        {children}
      </Text>
    </Group>
  );
}

/** Past due: a new plan waits until the open renewal is paid, which replacing the card does at once. */
function PayOverdueFirst() {
  return (
    <Alert color="yellow" icon={<IconInfoCircle aria-hidden="true" />} data-testid="pay-overdue-first">
      <Stack gap={6} align="flex-start">
        <Text size="sm">{bt.payOverdueFirst}</Text>
        <Anchor component={Link} to="?replace-card=1" fw={600} size="sm">
          {bt.replaceCardToPay}
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** Licenses, price, plan, cycle and the quoted total of a paid plan, then Continue to the invoice information. */
function PurchasePanel(props: {
  plan: 'basic' | 'pro';
  billing: BillingView;
  cycle: BillingCycle;
  onCycle: (cycle: BillingCycle) => void;
}) {
  const { workspaceId } = useWorkspace();
  const navigate = useNavigate();
  const { billing, plan, cycle } = props;
  const inUse = billing.seats.used;
  const [licenses, setLicenses] = useState<number | string>(Math.max(billing.licenses || 1, inUse, 1));
  const count = typeof licenses === 'number' ? licenses : Number.NaN;
  const error = licenseCountError(count, inUse);
  const pastDue = billing.subscription?.status === 'past_due';
  const terms = error || pastDue ? null : { plan, cycle, licenses: count };
  const quote = useQuote(workspaceId, terms);
  const price = billing.prices.find((p) => p.plan === plan);
  const unit = (cycle === 'annual' ? price?.annualCents : price?.monthlyCents) ?? 0;
  if (pastDue) return <PayOverdueFirst />;
  return (
    <Stack gap="sm">
      <NumberInput
        label={bt.licenses}
        description={bt.inUse(inUse)}
        min={Math.max(1, inUse)}
        max={999}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        value={licenses}
        onChange={setLicenses}
        error={error}
        maw={240}
      />
      <Row label={bt.pricePerLicense}>{bt.pricePerLicenseValue(unit, cycle)}</Row>
      <Row label={bt.plan}>{PLANS[plan].name}</Row>
      <Radio.Group label={bt.cycle} value={cycle} onChange={(value) => props.onCycle(value as BillingCycle)}>
        <Group mt={6}>
          <Radio value="annual" label={bt.annual} />
          <Radio value="monthly" label={bt.monthly} />
        </Group>
      </Radio.Group>
      <Paper bg="var(--mantine-color-default-hover)" p="sm" radius="md">
        <Group justify="space-between" align="baseline">
          <Text fw={600}>{bt.total}</Text>
          <Group gap={6} align="baseline">
            {quote.isFetching && <Loader size="xs" aria-label="Updating the total" />}
            <Text fz={22} fw={700} data-testid="purchase-total">
              {terms && quote.data ? formatMoney(quote.data.subtotalCents) : '–'}
            </Text>
            <Text size="sm" c="dimmed">
              {bt.totalPer(cycle)}
            </Text>
          </Group>
        </Group>
      </Paper>
      {quote.isError && (
        <Text size="sm" c="red" role="alert">
          {parseApiError(quote.error).message}
        </Text>
      )}
      <Group>
        <Button disabled={!terms} onClick={() => terms && navigate(`/homepage/subscription?${choiceSearch(terms)}`)}>
          {bt.continue}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * "Cancel subscription" and "Change plan to free" ask the same question (both end the paid plan at
 * the period's end, then Free): one dialog, with its own title and confirm button.
 */
function EndSubscriptionDialog(props: {
  opened: boolean;
  onClose: () => void;
  action: 'cancel' | 'change-to-free';
  title: string;
  confirm: string;
  periodEnd: string;
}) {
  const { workspaceId } = useWorkspace();
  const action = useSubscriptionAction(workspaceId);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      <Stack>
        <Text size="sm">{bt.changeToFreeBody(props.periodEnd)}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {bt.keep}
          </Button>
          <Button
            color="red"
            loading={action.isPending}
            onClick={() =>
              action.mutate(props.action, {
                onSuccess: () => {
                  props.onClose();
                  done(bt.canceled);
                },
                onError: failed,
              })
            }
          >
            {props.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** What a trial workspace loses on Free: the paid plans' features (without their "Everything in …"). */
const LOST_ON_FREE = [...PLANS.basic.features, ...PLANS.pro.features].filter(
  (feature) => !feature.startsWith('Everything in'),
);

/** Ending the trial now for Free: says what is lost, and that it cannot be undone. */
function EndTrialDialog(props: { opened: boolean; onClose: () => void; daysLeft: number }) {
  const { workspaceId } = useWorkspace();
  const action = useSubscriptionAction(workspaceId);
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={bt.endTrialTitle}>
      <Stack>
        <Text size="sm">{bt.endTrialBody(props.daysLeft)}</Text>
        <List size="sm" spacing={4} aria-label="What you lose">
          {LOST_ON_FREE.map((feature) => (
            <List.Item key={feature}>{feature}</List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {bt.endTrialKeep}
          </Button>
          <Button
            color="red"
            loading={action.isPending}
            onClick={() =>
              action.mutate('change-to-free', {
                onSuccess: () => {
                  props.onClose();
                  done(bt.trialEnded);
                },
                onError: failed,
              })
            }
          >
            {bt.endTrialConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Free: the list, unlimited users, $0, and "Change plan to free" (with a confirmation): at the
 * period's end when a paid plan runs, at once on a trial.
 */
function FreePanel({ billing }: { billing: BillingView }) {
  const [confirming, setConfirming] = useState(false);
  const [endingTrial, setEndingTrial] = useState(false);
  const sub = billing.subscription;
  const paid = sub && sub.status !== 'none' && sub.status !== 'canceled' && sub.plan !== 'free';
  return (
    <Stack gap="sm">
      <Row label={bt.licenses}>{bt.unlimitedUsers}</Row>
      <Row label={bt.pricePerLicense}>{bt.free}</Row>
      <Row label={bt.plan}>{PLANS.free.name}</Row>
      <Row label={bt.total}>{bt.freeCharge}</Row>
      {paid && !sub.cancelAtPeriodEnd ? (
        <Group>
          <Button variant="default" onClick={() => setConfirming(true)}>
            {bt.changeToFree}
          </Button>
        </Group>
      ) : (
        !paid &&
        (billing.isTrial ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="dimmed">
              {bt.currentPlan('Pro trial')}
            </Text>
            <Button variant="default" onClick={() => setEndingTrial(true)}>
              {bt.endTrial}
            </Button>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {bt.alreadyFree}
          </Text>
        ))
      )}
      <EndTrialDialog opened={endingTrial} onClose={() => setEndingTrial(false)} daysLeft={billing.trialDaysLeft} />
      <EndSubscriptionDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        action="change-to-free"
        title={bt.changeToFreeTitle}
        confirm={bt.changeToFreeConfirm}
        periodEnd={sub?.periodEnd ?? ''}
      />
    </Stack>
  );
}

/** The running subscription: plan, cycle, licenses, period, card, a scheduled change, cancel or reactivate. */
function CurrentSubscription({ billing, canBuy }: { billing: BillingView; canBuy: boolean }) {
  const { workspaceId } = useWorkspace();
  const action = useSubscriptionAction(workspaceId);
  const [confirming, setConfirming] = useState(false);
  const sub = billing.subscription;
  if (!sub || sub.status === 'none' || sub.plan === 'free') return null;
  const change = sub.scheduledChange;
  return (
    <Paper withBorder radius="md" p="md" aria-label={bt.subscription} component="section">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {bt.subscription}
        </Title>
        <Badge color={sub.status === 'active' ? 'green' : 'red'} variant="light">
          {bt.status[sub.status]}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <Row label={bt.plan}>{PLANS[sub.plan].name}</Row>
        <Row label={bt.cycle}>{cycleName(sub.cycle)}</Row>
        <Row label={bt.licenses}>{sub.licenses}</Row>
        {sub.periodEnd && (
          <Row label="Period">{sub.cancelAtPeriodEnd ? bt.ends(sub.periodEnd) : bt.renews(sub.periodEnd)}</Row>
        )}
        {sub.card && (
          <Row label="Card">
            {bt.card(cardBrandName(sub.card.brand), sub.card.last4, sub.card.expMonth, sub.card.expYear)}
          </Row>
        )}
        {change && (
          <Row label="Scheduled change">
            {bt.scheduled(PLANS[change.plan].name, cycleName(change.cycle), change.licenses, change.effectiveOn)}
          </Row>
        )}
      </SimpleGrid>
      {canBuy && sub.card && (
        <Stack mt="sm" gap="xs">
          <ReplaceCard pastDue={sub.status === 'past_due'} />
        </Stack>
      )}
      {canBuy && (
        <Group mt="sm">
          {sub.cancelAtPeriodEnd ? (
            <Button
              variant="light"
              loading={action.isPending}
              onClick={() => action.mutate('reactivate', { onSuccess: () => done(bt.reactivated), onError: failed })}
            >
              {bt.reactivate}
            </Button>
          ) : (
            <Button variant="light" color="red" onClick={() => setConfirming(true)}>
              {bt.cancel}
            </Button>
          )}
        </Group>
      )}
      <EndSubscriptionDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        action="cancel"
        title={bt.cancelTitle}
        confirm={bt.cancel}
        periodEnd={sub.periodEnd ?? ''}
      />
    </Paper>
  );
}

function TrialBanner({ days, isTrial }: { days: number; isTrial: boolean }) {
  if (!isTrial) return null;
  return (
    <Alert
      color={days > 0 ? 'blue' : 'yellow'}
      icon={<IconInfoCircle aria-hidden="true" />}
      data-testid="billing-trial-banner"
    >
      {days > 0 ? bt.trialBanner(days) : bt.trialOver}
    </Alert>
  );
}

/** For those without billing:manage: the plan in force and who may change it. */
function AskOwner() {
  const { workspace, workspaceId, can } = useWorkspace();
  const managers = useBillingManagers(workspaceId, can('members:view'));
  const names = (managers.data ?? []).map((m) => m.name || m.email).join(' or ');
  return (
    <Stack>
      {workspace.purchasedPlan === 'free' && workspace.trialDaysLeft > 0 && (
        <Alert icon={<IconInfoCircle aria-hidden="true" />} data-testid="billing-trial-banner">
          {bt.workspaceTrial(workspace.trialDaysLeft)}
        </Alert>
      )}
      <Text>{bt.currentPlan(PLANS[workspace.plan].name)}</Text>
      <Features plan={workspace.plan} />
      <Text c="dimmed">{names ? bt.askOwner(names) : bt.askOwnerNobody}</Text>
    </Stack>
  );
}

function PlansAndPurchase({ billing }: { billing: BillingView }) {
  const current = billing.subscription?.plan ?? billing.plan;
  const [selected, setSelected] = useState<PlanId>(billing.subscription && current !== 'free' ? current : 'pro');
  const [cycle, setCycle] = useState<BillingCycle>(billing.subscription?.cycle ?? 'annual');
  return (
    <Stack>
      <TrialBanner days={billing.trialDaysLeft} isTrial={billing.isTrial} />
      <CurrentSubscription billing={billing} canBuy />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} role="group" aria-label={bt.plansLabel}>
        {PLAN_IDS.map((plan) => (
          <PlanCard
            key={plan}
            plan={plan}
            cycle={cycle}
            prices={billing.prices}
            selected={selected === plan}
            current={!billing.isTrial && billing.plan === plan}
            onSelect={() => setSelected(plan)}
          />
        ))}
      </SimpleGrid>
      <Paper withBorder radius="md" p="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
          <Stack gap="xs">
            <Title order={2} size="h4">
              {PLANS[selected].name}
            </Title>
            <Features plan={selected} />
          </Stack>
          {selected === 'free' && <FreePanel billing={billing} />}
          {(selected === 'basic' || selected === 'pro') && (
            <PurchasePanel key={selected} plan={selected} billing={billing} cycle={cycle} onCycle={setCycle} />
          )}
          {selected === 'enterprise' && (
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{PLANS.enterprise.tagline}</Text>
              <Button component="a" href={DEMO_PATH}>
                {bt.bookCall}
              </Button>
            </Stack>
          )}
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}

/** /homepage/billing, "Your subscription": the trial, the plans, and buying one (owners and admins). */
export default function SubscriptionPage() {
  const { workspace, workspaceId, can } = useWorkspace();
  const canBuy = can('billing:manage');
  const billing = useBilling(workspaceId, workspace.billing && canBuy);
  let body: ReactNode;
  if (!workspace.billing) body = <Alert icon={<IconInfoCircle aria-hidden="true" />}>{bt.billingOff}</Alert>;
  else if (!canBuy) body = <AskOwner />;
  else if (billing.isPending) body = <Loader aria-label="Loading" />;
  else if (billing.isError)
    body = <ErrorPanel message={parseApiError(billing.error).message} onRetry={() => billing.refetch()} />;
  else body = <PlansAndPurchase billing={billing.data} />;
  return (
    <Stack gap={0}>
      {workspace.billing && canBuy && <BillingTabs />}
      {body}
    </Stack>
  );
}
