import { Alert, Anchor, Box, Grid, Group, Loader, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  CARD_BRAND_NAMES,
  type CheckoutView,
  cardBrand,
  cardFormErrors,
  cardMessages,
  cardNumberGroups,
  cvvLength,
  EXPIRY_MONTHS,
  expiryYears,
  type SubscriptionTermsBody,
} from '@sundial/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, parseApiError } from '../../api/client';
import { useWorkspace } from '../../api/session';
import { tokenizeCard, useBilling, useCheckout, useConfirmCheckout } from './api';
import { BillingGuard } from './BillingGuard';
import { CardStepError, PayFooter } from './card-step';
import { choiceFromSearch, choiceSearch } from './choice';
import { Summary } from './Summary';
import { bt } from './texts';

/** The Idempotency-Key of the attempt under way, kept so a reload sends the same attempt again. */
const KEY_STORE = 'sundial.checkout.attempt';

function attemptKey(choice: SubscriptionTermsBody): string {
  const terms = choiceSearch(choice);
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY_STORE) ?? 'null') as { terms: string; key: string } | null;
    if (saved?.terms === terms) return saved.key;
  } catch {
    // A broken entry is replaced below.
  }
  const key = crypto.randomUUID();
  sessionStorage.setItem(KEY_STORE, JSON.stringify({ terms, key }));
  return key;
}

const endAttempt = () => sessionStorage.removeItem(KEY_STORE);

type Field = 'number' | 'name' | 'expiry' | 'cvv';
type Outcome = { kind: 'done'; answer: CheckoutView } | { kind: 'declined'; message: string } | null;

/** The gateway's field names on the card form's. */
const TOKEN_FIELDS: Record<string, Field> = {
  number: 'number',
  name: 'name',
  expMonth: 'expiry',
  expYear: 'expiry',
  cvc: 'cvv',
};

/** The card as it is typed: number in groups, the brand, the holder and the expiry. */
function CardPreview(props: { number: string; name: string; month: number | null; year: number | null }) {
  const brand = cardBrand(props.number);
  const expiry = `${props.month ? String(props.month).padStart(2, '0') : 'MM'}/${props.year ? String(props.year).slice(2) : 'YY'}`;
  return (
    <Paper
      radius="lg"
      p="lg"
      maw={380}
      h={220}
      data-testid="card-preview"
      aria-hidden="true"
      style={{
        background: 'linear-gradient(135deg, var(--mantine-color-indigo-8), var(--mantine-color-blue-6))',
        color: 'white',
      }}
    >
      <Stack justify="space-between" h="100%">
        <Group justify="flex-end">
          <Text fw={700} data-testid="card-brand">
            {brand ? CARD_BRAND_NAMES[brand] : ''}
          </Text>
        </Group>
        <Text ff="monospace" fz={22} style={{ letterSpacing: 2 }}>
          {props.number ? cardNumberGroups(props.number) : '•••• •••• •••• ••••'}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <Box>
            <Text size="xs" opacity={0.8}>
              {bt.cardHolder}
            </Text>
            <Text fw={600} tt="uppercase" truncate maw={240}>
              {props.name || 'YOUR NAME'}
            </Text>
          </Box>
          <Box>
            <Text size="xs" opacity={0.8}>
              Expires
            </Text>
            <Text fw={600}>{expiry}</Text>
          </Box>
        </Group>
      </Stack>
    </Paper>
  );
}

function Result({ answer }: { answer: CheckoutView }) {
  return (
    <Alert
      color="green"
      icon={<IconCircleCheck aria-hidden="true" />}
      title={answer.status === 'scheduled' ? bt.scheduledTitle : bt.paid}
      role="status"
    >
      <Stack gap="xs">
        <Text size="sm">
          {answer.status === 'succeeded' && bt.paidBody(answer.invoice.number)}
          {answer.status === 'scheduled' && bt.scheduledBody(answer.effectiveOn)}
        </Text>
        <Anchor component={Link} to="/homepage/invoice" fw={600}>
          {bt.toInvoices}
        </Anchor>
      </Stack>
    </Alert>
  );
}

/** Back from the gateway's second step (?checkout=<id>): confirms the checkout and shows how it ended. */
function ConfirmReturn({ checkoutId }: { checkoutId: string }) {
  const { workspaceId } = useWorkspace();
  const confirm = useConfirmCheckout(workspaceId);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    confirm.mutate(checkoutId, { onSettled: endAttempt });
  }, [confirm, checkoutId]);
  if (confirm.isError) {
    return (
      <Alert color="red" role="alert" title={bt.payment}>
        {parseApiError(confirm.error).message}
      </Alert>
    );
  }
  const answer = confirm.data;
  if (!answer || answer.status === 'requires_action')
    return (
      <Group>
        <Loader size="sm" aria-label={bt.confirming} />
        <Text>{bt.confirming}</Text>
      </Group>
    );
  return <Result answer={answer} />;
}

/**
 * The checkout with a card token, whichever gateway made it: sends it with the attempt's
 * Idempotency-Key (a new attempt when the key was left by another card), follows a second step,
 * and says how it ended. `pay` answers the fields a 422 named, for the form to show.
 */
function useCardCheckout(choice: SubscriptionTermsBody) {
  const { workspaceId } = useWorkspace();
  const checkout = useCheckout(workspaceId);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const pay = async (tokenOf: () => Promise<string>): Promise<Record<string, string>> => {
    setOutcome(null);
    setBusy(true);
    try {
      const body = { ...choice, paymentToken: await tokenOf() };
      let answer: CheckoutView;
      try {
        answer = await checkout.mutateAsync({ body, key: attemptKey(choice) });
      } catch (error) {
        // A key left by an attempt with another card: this is a new attempt.
        if (!(error instanceof ApiError && error.code === 'idempotency_key_reused')) throw error;
        endAttempt();
        answer = await checkout.mutateAsync({ body, key: attemptKey(choice) });
      }
      if (answer.status === 'requires_action') {
        window.location.assign(answer.nextActionUrl);
        return {};
      }
      endAttempt();
      setOutcome({ kind: 'done', answer });
    } catch (error) {
      const { message, fields } = parseApiError(error);
      if (error instanceof ApiError && error.status === 402) {
        endAttempt();
        setOutcome({ kind: 'declined', message });
      } else if (Object.keys(fields).length > 0) {
        setBusy(false);
        return fields;
      } else setOutcome({ kind: 'declined', message: error instanceof CardStepError ? error.message : message });
    }
    setBusy(false);
    return {};
  };

  return { pay, busy, outcome, clear: () => setOutcome(null) };
}

function CardForm({ choice }: { choice: SubscriptionTermsBody }) {
  const { pay: payWith, busy, outcome, clear } = useCardCheckout(choice);
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [month, setMonth] = useState<number | null>(null);
  const [year, setYear] = useState<number | null>(null);
  const [cvv, setCvv] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const now = new Date();
  const brand = cardBrand(number);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = cardFormErrors({ number, month, year, cvv }, new Date());
    if (!name.trim()) found.name = cardMessages.nameRequired;
    setErrors(found);
    clear();
    if (Object.keys(found).length > 0 || month === null || year === null) return;
    const fields = await payWith(async () => {
      const token = await tokenizeCard({
        number: number.replace(/\s/g, ''),
        expMonth: month,
        expYear: year,
        cvc: cvv.trim(),
        name: name.trim(),
      });
      return token.id;
    });
    const mapped: Partial<Record<Field, string>> = {};
    for (const [field, text] of Object.entries(fields)) mapped[TOKEN_FIELDS[field] ?? 'number'] ??= text;
    if (Object.keys(mapped).length > 0) setErrors(mapped);
  };

  if (outcome?.kind === 'done') return <Result answer={outcome.answer} />;
  return (
    <CheckoutLayout choice={choice}>
      <Stack>
        <CardPreview number={number} name={name} month={month} year={year} />
        <form onSubmit={pay} noValidate aria-label={bt.payment}>
          <Stack gap="sm" maw={520}>
            <TextInput
              label={bt.cardNumber}
              inputMode="numeric"
              autoComplete="cc-number"
              value={number}
              onChange={(e) => setNumber(cardNumberGroups(e.currentTarget.value.replace(/\D/g, '').slice(0, 19)))}
              error={errors.number}
              rightSection={brand ? <Text size="xs">{CARD_BRAND_NAMES[brand]}</Text> : null}
              rightSectionWidth={brand ? 120 : undefined}
            />
            <TextInput
              label={bt.cardHolder}
              autoComplete="cc-name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
            />
            <Group grow align="flex-start">
              <Select
                label={bt.month}
                placeholder="MM"
                data={EXPIRY_MONTHS.map((m) => ({ value: String(m.value), label: m.label }))}
                value={month ? String(month) : null}
                onChange={(value) => setMonth(value ? Number(value) : null)}
                error={errors.expiry}
              />
              <Select
                label={bt.year}
                placeholder="YYYY"
                data={expiryYears(now).map(String)}
                value={year ? String(year) : null}
                onChange={(value) => setYear(value ? Number(value) : null)}
                error={Boolean(errors.expiry)}
              />
              <TextInput
                label={bt.cvv}
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={cvvLength(brand)}
                value={cvv}
                onChange={(e) => setCvv(e.currentTarget.value.replace(/\D/g, ''))}
                error={errors.cvv}
              />
            </Group>
            <PayFooter busy={busy} error={outcome?.kind === 'declined' ? outcome.message : null} />
          </Stack>
        </form>
      </Stack>
    </CheckoutLayout>
  );
}

/** The card step beside the order's summary. */
function CheckoutLayout({ choice, children }: { choice: SubscriptionTermsBody; children: ReactNode }) {
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 8 }}>{children}</Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Summary choice={choice} />
      </Grid.Col>
    </Grid>
  );
}

/** Stripe's card step, loaded only when the Stripe gateway takes the card (Stripe.js stays off the sandbox's page). */
const StripeCardStep = lazy(() => import('./StripeCardStep'));

/** The checkout with Stripe's Payment Element: the PaymentMethod it makes pays as the sandbox's token does. */
function StripeCheckout({ choice, publishableKey }: { choice: SubscriptionTermsBody; publishableKey: string }) {
  const { pay, busy, outcome } = useCardCheckout(choice);
  if (outcome?.kind === 'done') return <Result answer={outcome.answer} />;
  return (
    <CheckoutLayout choice={choice}>
      <Stack maw={520}>
        <Suspense fallback={<Loader size="sm" aria-label={bt.loadingCardForm} />}>
          <StripeCardStep
            publishableKey={publishableKey}
            busy={busy}
            error={outcome?.kind === 'declined' ? outcome.message : null}
            onPay={(paymentMethodOf) => pay(paymentMethodOf).then(() => undefined)}
          />
        </Suspense>
      </Stack>
    </CheckoutLayout>
  );
}

/** The card step of the gateway the API names: the sandbox's form, or Stripe's Payment Element. */
function CardStep({ choice }: { choice: SubscriptionTermsBody }) {
  const { workspaceId } = useWorkspace();
  const billing = useBilling(workspaceId);
  if (billing.isError)
    return (
      <Alert color="red" role="alert" title={bt.payment}>
        {parseApiError(billing.error).message}
      </Alert>
    );
  const payments = billing.data?.payments;
  if (!payments) return <Loader size="sm" aria-label={bt.loadingCardForm} />;
  if (payments.gateway === 'stripe' && payments.publishableKey)
    return <StripeCheckout choice={choice} publishableKey={payments.publishableKey} />;
  return <CardForm choice={choice} />;
}

/** /homepage/payment: the card form, or the end of a checkout back from the gateway's second step. */
function PaymentPageBody() {
  const [search] = useSearchParams();
  const checkoutId = search.get('checkout');
  const choice = choiceFromSearch(search);
  if (checkoutId) return <ConfirmReturn checkoutId={checkoutId} />;
  if (!choice)
    return (
      <Stack>
        <Alert color="yellow">{bt.noChoice}</Alert>
        <Anchor component={Link} to="/homepage/billing" size="sm">
          {bt.backToBilling}
        </Anchor>
      </Stack>
    );
  return <CardStep choice={choice} />;
}

export default function PaymentPage() {
  return (
    <BillingGuard>
      <PaymentPageBody />
    </BillingGuard>
  );
}
