import { Alert, Anchor, Grid, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { BillingView, CheckoutView, SubscriptionTermsBody } from '@sundial/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, parseApiError } from '../../../api/client';
import { useWorkspace } from '../../../api/session';
import { useBilling, useCheckout, useConfirmCheckout, useQuote } from '../api';
import { CardStepError, PayFooter } from '../card-step';
import { choiceFromSearch, choiceSearch } from '../choice';
import { BillingGuard } from '../components/BillingGuard';
import { CardInputs, CardPreview, cardFieldErrors, useCardFields } from '../components/CardFields';
import { Summary } from '../components/Summary';
import { bt, cardBrandName } from '../texts';

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

type Outcome = { kind: 'done'; answer: CheckoutView } | { kind: 'declined'; message: string } | null;

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

/** How the page was reached after a failed second step: the bank's words, shown on the card form. */
interface DeclinedState {
  declined?: string;
}

/**
 * Back from the gateway's second step (?checkout=<id>&plan=…): confirms the checkout and shows how
 * it ended. A failed step offers the card form again for the same purchase (a new attempt).
 */
function ConfirmReturn({ checkoutId, choice }: { checkoutId: string; choice: SubscriptionTermsBody | null }) {
  const { workspaceId } = useWorkspace();
  const navigate = useNavigate();
  const confirm = useConfirmCheckout(workspaceId);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    confirm.mutate(checkoutId, {
      onSettled: endAttempt,
      onError: (error) => {
        if (!(choice && error instanceof ApiError && error.status === 402)) return;
        const state: DeclinedState = { declined: bt.secondStepFailed(parseApiError(error).message) };
        navigate({ search: choiceSearch(choice) }, { replace: true, state });
      },
    });
  }, [confirm, checkoutId, choice, navigate]);
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
function useCardCheckout(choice: SubscriptionTermsBody, declined?: string | null) {
  const { workspaceId } = useWorkspace();
  const checkout = useCheckout(workspaceId);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(declined ? { kind: 'declined', message: declined } : null);

  /** `tokenOf` makes the new card's token; without it the saved card pays (or, for a change at the period's end, nothing is charged). */
  const pay = async (tokenOf?: () => Promise<string | null>): Promise<Record<string, string>> => {
    setOutcome(null);
    setBusy(true);
    try {
      const paymentToken = tokenOf ? await tokenOf() : undefined;
      if (paymentToken === null) {
        // A field is wrong: the form shows it, nothing was sent.
        setBusy(false);
        return {};
      }
      const body = paymentToken ? { ...choice, paymentToken } : choice;
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

type SavedCard = NonNullable<NonNullable<BillingView['subscription']>['card']>;

/** A change without a new card: paid with the saved one, or (at the period's end) only scheduled. */
function NoCardCheckout({
  choice,
  savedCard,
  onOtherCard,
  declined,
}: {
  choice: SubscriptionTermsBody;
  declined?: string | null;
  /** The card that pays; null when nothing is charged now (a change at the period's end). */
  savedCard: SavedCard | null;
  onOtherCard?: () => void;
}) {
  const { pay, busy, outcome } = useCardCheckout(choice, declined);
  if (outcome?.kind === 'done') return <Result answer={outcome.answer} />;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    void pay();
  };
  return (
    <CheckoutLayout choice={choice}>
      <form onSubmit={handleSubmit} noValidate aria-label={bt.payment}>
        <Stack gap="sm" maw={520}>
          <Text>{savedCard ? bt.savedCardBody : bt.atPeriodEndBody}</Text>
          {savedCard && (
            <Paper withBorder radius="md" p="md" data-testid="saved-card">
              <Text fw={600}>{bt.savedCard(cardBrandName(savedCard.brand), savedCard.last4)}</Text>
              <Text size="sm" c="dimmed">
                {bt.savedCardExpires(savedCard.expMonth, savedCard.expYear)}
              </Text>
            </Paper>
          )}
          <PayFooter
            busy={busy}
            error={outcome?.kind === 'declined' ? outcome.message : null}
            label={savedCard ? bt.payWithSaved(cardBrandName(savedCard.brand), savedCard.last4) : bt.confirmChange}
          />
          {onOtherCard && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={onOtherCard}
              disabled={busy}
              style={{ alignSelf: 'flex-start' }}
            >
              {bt.useAnotherCard}
            </Anchor>
          )}
        </Stack>
      </form>
    </CheckoutLayout>
  );
}

function CardForm({ choice, declined }: { choice: SubscriptionTermsBody; declined?: string | null }) {
  const { pay: payWith, busy, outcome, clear } = useCardCheckout(choice, declined);
  const card = useCardFields();

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    clear();
    const fields = await payWith(card.tokenize);
    if (Object.keys(fields).length > 0) card.setErrors(cardFieldErrors(fields));
  };

  if (outcome?.kind === 'done') return <Result answer={outcome.answer} />;
  return (
    <CheckoutLayout choice={choice}>
      <Stack>
        <CardPreview {...card.values} />
        <form onSubmit={pay} noValidate aria-label={bt.payment}>
          <Stack gap="sm" maw={520}>
            <CardInputs card={card} />
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
const StripeCardStep = lazy(() => import('../components/StripeCardStep'));

/** The checkout with Stripe's Payment Element: the PaymentMethod it makes pays as the sandbox's token does. */
function StripeCheckout({
  choice,
  publishableKey,
  declined,
}: {
  choice: SubscriptionTermsBody;
  publishableKey: string;
  declined?: string | null;
}) {
  const { pay, busy, outcome } = useCardCheckout(choice, declined);
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

/**
 * The payment step: nothing to enter for a change at the period's end (the API charges nothing
 * then), the saved card for one charged now (or another card, if the person asks), else the card
 * step of the gateway the API names: the sandbox's form, or Stripe's Payment Element.
 */
function CardStep({ choice, declined }: { choice: SubscriptionTermsBody; declined?: string | null }) {
  const { workspaceId } = useWorkspace();
  const billing = useBilling(workspaceId);
  const quote = useQuote(workspaceId, choice);
  // Decided once: paying saves the card and changes the quote, and the step must stay to say how it ended.
  const [way, setWay] = useState<'at_period_end' | 'saved_card' | 'new_card' | null>(null);
  const subscription = billing.data?.subscription;
  const savedCard = subscription?.status === 'active' ? subscription.card : null;
  if (way === null) {
    const failed = billing.error ?? quote.error;
    if (failed)
      return (
        <Alert color="red" role="alert" title={bt.payment}>
          {parseApiError(failed).message}
        </Alert>
      );
    if (!billing.data || !quote.data) return <Loader size="sm" aria-label={bt.loadingCardForm} />;
    setWay(quote.data.timing === 'period_end' ? 'at_period_end' : savedCard ? 'saved_card' : 'new_card');
    return <Loader size="sm" aria-label={bt.loadingCardForm} />;
  }
  if (way === 'at_period_end') return <NoCardCheckout choice={choice} savedCard={null} />;
  if (way === 'saved_card' && savedCard)
    return (
      <NoCardCheckout
        choice={choice}
        savedCard={savedCard}
        onOtherCard={() => setWay('new_card')}
        declined={declined}
      />
    );
  const payments = billing.data?.payments;
  if (!payments) return <Loader size="sm" aria-label={bt.loadingCardForm} />;
  if (payments.gateway === 'stripe' && payments.publishableKey)
    return <StripeCheckout choice={choice} publishableKey={payments.publishableKey} declined={declined} />;
  return <CardForm choice={choice} declined={declined} />;
}

/** /homepage/payment: the card form, or the end of a checkout back from the gateway's second step. */
function PaymentPageBody() {
  const [search] = useSearchParams();
  const declined = (useLocation().state as DeclinedState | null)?.declined ?? null;
  const checkoutId = search.get('checkout');
  const choice = choiceFromSearch(search);
  if (checkoutId) return <ConfirmReturn checkoutId={checkoutId} choice={choice} />;
  if (!choice)
    return (
      <Stack>
        <Alert color="yellow">{bt.noChoice}</Alert>
        <Anchor component={Link} to="/homepage/billing" size="sm">
          {bt.backToBilling}
        </Anchor>
      </Stack>
    );
  return <CardStep key={declined ?? ''} choice={choice} declined={declined} />;
}

export default function PaymentPage() {
  return (
    <BillingGuard>
      <PaymentPageBody />
    </BillingGuard>
  );
}
