import { AppError } from '../../platform/errors.js';
import type { Decline, NextAction, PaymentGateway, PaymentMethod } from '../../platform/payments/index.js';

/**
 * The one state machine of a payment attempt, shared by a checkout (a charge) and a card change (the
 * $1.00 authorisation): claimed `pending`, the card attached once, then the gateway's answer moves
 * it to its end (`succeeded` or `saved`), to `requires_action` (the bank's second step, which
 * ends it later) or to `declined`; a checkout left open too long ends `superseded`. The rows, keys
 * and what an end does differ; the steps below are the same for both.
 */
export type AttemptStatus = 'pending' | 'requires_action' | 'succeeded' | 'saved' | 'declined' | 'superseded';

/** Only an open attempt (not yet at an end) may still be moved by the gateway's answer or event. */
export const isOpen = (status: AttemptStatus) => status === 'pending' || status === 'requires_action';

export const declined = (message: string) => new AppError('payment_declined', message, { status: 402 });

/** The gateway's answer that does not end the attempt well: at the bank's second step, or declined. */
type Unfinished = { status: 'requires_action'; nextAction: NextAction } | (Decline & { status: 'declined' });

/** The row's columns for an answer that did not end the attempt well (the gateway's id is the caller's). */
export function unfinishedColumns(result: Unfinished) {
  return result.status === 'requires_action'
    ? { status: 'requires_action' as const, next_action_url: result.nextAction.url }
    : { status: 'declined' as const, decline_message: result.message, next_action_url: null };
}

/** How an attempt's own row is written while its card is attached. */
export interface AttemptRow {
  recordDecline(message: string): Promise<void>;
  recordCard(card: PaymentMethod): Promise<void>;
  /** Forgets the attempt: nothing was charged or saved, so it neither blocks nor answers a retry. */
  forget(): Promise<void>;
}

/**
 * Attaches the card of `token` off-session (for renewals) and records it on the attempt, or the
 * decline (then throws 402). A token the gateway refuses (unknown, used already) forgets the attempt
 * and throws the gateway's error.
 */
export async function attachCard(
  gateway: PaymentGateway,
  row: AttemptRow,
  options: { customerId: string; token: string },
): Promise<PaymentMethod> {
  const attached = await gateway
    .attachPaymentMethod({ customerId: options.customerId, token: options.token, usage: 'off_session' })
    .catch(async (error: unknown) => {
      await row.forget();
      throw error;
    });
  if (attached.status === 'declined') {
    await row.recordDecline(attached.message);
    throw declined(attached.message);
  }
  await row.recordCard(attached.paymentMethod);
  return attached.paymentMethod;
}

/**
 * Work on attempts once per process at a time: a concurrent retry of the same attempt joins the
 * work under way and gets its answer.
 */
export function inFlightAttempts<T>() {
  const running = new Map<string, Promise<T>>();
  return {
    get: (id: string) => running.get(id),
    track(id: string, work: () => Promise<T>): Promise<T> {
      const under = running.get(id);
      if (under) return under;
      const started = work().finally(() => running.delete(id));
      running.set(id, started);
      return started;
    },
  };
}
