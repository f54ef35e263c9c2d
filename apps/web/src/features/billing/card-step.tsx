import { Alert, Button, Group, Text } from '@mantine/core';
import { bt } from './texts';

/**
 * A card step's own refusal (Stripe.js could not make a PaymentMethod: an incomplete card, no
 * connection), shown with its message as a decline is; nothing reached our API.
 */
export class CardStepError extends Error {}

/** The end of every card step: the decline to show, Pay, and what happens while it works. */
export function PayFooter({
  busy,
  error,
  disabled = false,
  label = bt.pay,
}: {
  busy: boolean;
  error: string | null;
  disabled?: boolean;
  /** The button's words (Pay now, unless the step pays otherwise). */
  label?: string;
}) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert" data-testid="payment-error">
          {error}
        </Alert>
      )}
      <Group>
        <Button type="submit" loading={busy} disabled={disabled}>
          {label}
        </Button>
        {busy && (
          <Text size="sm" c="dimmed" role="status">
            {bt.paying}
          </Text>
        )}
      </Group>
    </>
  );
}
