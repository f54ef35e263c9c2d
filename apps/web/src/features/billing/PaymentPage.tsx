import { Alert, Anchor, Button, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import type { CheckoutView, SubscriptionTermsBody } from '@sundial/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, parseApiError } from '../../api/client';
import { useWorkspace } from '../../api/session';
import { useCheckout, useConfirmCheckout } from './api';
import { BillingGuard } from './BillingGuard';
import { CardInputs, CardPreview, cardFieldErrors, useCardFields } from './CardFields';
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

function CardForm({ choice }: { choice: SubscriptionTermsBody }) {
  const { workspaceId } = useWorkspace();
  const checkout = useCheckout(workspaceId);
  const card = useCardFields();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    setOutcome(null);
    setBusy(true);
    try {
      const paymentToken = await card.tokenize();
      if (!paymentToken) {
        setBusy(false);
        return;
      }
      const body = { ...choice, paymentToken };
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
        return;
      }
      endAttempt();
      setOutcome({ kind: 'done', answer });
    } catch (error) {
      const { message, fields } = parseApiError(error);
      if (error instanceof ApiError && error.status === 402) {
        endAttempt();
        setOutcome({ kind: 'declined', message });
      } else if (Object.keys(fields).length > 0) card.setErrors(cardFieldErrors(fields));
      else setOutcome({ kind: 'declined', message });
    }
    setBusy(false);
  };

  if (outcome?.kind === 'done') return <Result answer={outcome.answer} />;
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack>
          <CardPreview {...card.values} />
          <form onSubmit={pay} noValidate aria-label={bt.payment}>
            <Stack gap="sm" maw={520}>
              <CardInputs card={card} />
              {outcome?.kind === 'declined' && (
                <Alert color="red" role="alert" data-testid="payment-error">
                  {outcome.message}
                </Alert>
              )}
              <Group>
                <Button type="submit" loading={busy}>
                  {bt.pay}
                </Button>
                {busy && (
                  <Text size="sm" c="dimmed" role="status">
                    {bt.paying}
                  </Text>
                )}
              </Group>
            </Stack>
          </form>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Summary choice={choice} />
      </Grid.Col>
    </Grid>
  );
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
  return <CardForm choice={choice} />;
}

export default function PaymentPage() {
  return (
    <BillingGuard>
      <PaymentPageBody />
    </BillingGuard>
  );
}
