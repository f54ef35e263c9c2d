import { Alert, Stack, Text } from '@mantine/core';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { type FormEvent, useEffect, useState } from 'react';
import { CardStepError, PayFooter } from '../card-step';
import { bt } from '../texts';

/** Stripe.js, loaded once per publishable key (loadStripe adds its script to the page). */
const loaded = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    loaded.set(publishableKey, promise);
  }
  return promise;
}

export interface StripeCardStepProps {
  /** STRIPE_PUBLISHABLE_KEY, from the billing page's view. */
  publishableKey: string;
  busy: boolean;
  /** The decline (or the card step's own refusal) to show above the button. */
  error: string | null;
  /**
   * Checks out with the PaymentMethod the function makes, as the sandbox's form does with its
   * token: the API saves it with a SetupIntent for renewals and charges it.
   */
  onPay: (paymentMethodOf: () => Promise<string>) => Promise<void>;
}

function PaymentForm({ busy, error, onPay }: Omit<StripeCardStepProps, 'publishableKey'>) {
  const stripe = useStripe();
  const elements = useElements();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    await onPay(async () => {
      // Checks the fields and shows their errors in the element first.
      const submitted = await elements.submit();
      if (submitted.error) throw new CardStepError(submitted.error.message ?? bt.stripeUnavailable);
      const made = await stripe.createPaymentMethod({ elements });
      if (made.error) throw new CardStepError(made.error.message ?? bt.stripeUnavailable);
      return made.paymentMethod.id;
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={bt.payment}>
      <Stack gap="sm">
        <PaymentElement options={{ layout: 'tabs', wallets: { applePay: 'never', googlePay: 'never' } }} />
        <Text size="xs" c="dimmed">
          {bt.stripeSecured}
        </Text>
        <PayFooter busy={busy} error={error} disabled={!stripe || !elements} />
      </Stack>
    </form>
  );
}

/**
 * The payment step with the Stripe gateway: Stripe's Payment Element (cards only, in its own
 * frames, so the number never touches our page) in deferred "setup" mode; Pay turns the card into
 * a PaymentMethod (`pm_…`) with stripe.createPaymentMethod and hands it to the same checkout
 * call as the sandbox's token. A bank's second step comes back from the API as its page's URL,
 * as with the sandbox. Loaded lazily, so the sandbox's page never fetches Stripe.js.
 */
export default function StripeCardStep({ publishableKey, ...form }: StripeCardStepProps) {
  const [stripe] = useState(() => stripeFor(publishableKey));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    stripe.then(
      (ready) => live && !ready && setFailed(true),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [stripe]);
  if (failed)
    return (
      <Alert color="red" role="alert">
        {bt.stripeUnavailable}
      </Alert>
    );
  return (
    <Elements
      stripe={stripe}
      options={{
        mode: 'setup',
        currency: 'usd',
        allowedPaymentMethodTypes: ['card'],
        // Needed for stripe.createPaymentMethod({ elements }): our API confirms the SetupIntent.
        paymentMethodCreation: 'manual',
        appearance: { theme: 'stripe', variables: { colorPrimary: '#228be6', borderRadius: '4px' } },
      }}
    >
      <PaymentForm {...form} />
    </Elements>
  );
}
