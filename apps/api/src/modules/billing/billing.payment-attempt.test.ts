import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import type { AttachResult, PaymentGateway, PaymentMethod } from '../../platform/payments/index.js';
import { type AttemptRow, attachCard, inFlightAttempts, isOpen, unfinishedColumns } from './billing.payment-attempt.js';

const CARD: PaymentMethod = {
  paymentMethodId: 'pm_1',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2030,
  offSessionReady: true,
};

/** A gateway that only attaches, with the answer (or the failure) given. */
const gatewayAttaching = (answer: () => Promise<AttachResult>) =>
  ({ attachPaymentMethod: answer }) as unknown as PaymentGateway;

function recordingRow() {
  const calls: string[] = [];
  const row: AttemptRow = {
    recordDecline: async (message) => void calls.push(`decline:${message}`),
    recordCard: async (card) => void calls.push(`card:${card.paymentMethodId}`),
    forget: async () => void calls.push('forget'),
  };
  return { row, calls };
}

describe('the payment attempt state machine', () => {
  it('lets the gateway move only an attempt that is pending or at its second step', () => {
    expect(isOpen('pending')).toBe(true);
    expect(isOpen('requires_action')).toBe(true);
    for (const end of ['succeeded', 'saved', 'declined', 'superseded'] as const) expect(isOpen(end)).toBe(false);
  });

  it('writes a second step with its URL, and a decline with its message and no URL', () => {
    expect(
      unfinishedColumns({ status: 'requires_action', nextAction: { id: 'na_1', url: 'https://bank/step' } }),
    ).toEqual({ status: 'requires_action', next_action_url: 'https://bank/step' });
    expect(unfinishedColumns({ status: 'declined', declineCode: 'card_declined', message: 'No.' })).toEqual({
      status: 'declined',
      decline_message: 'No.',
      next_action_url: null,
    });
  });

  it('records an attached card on the attempt and answers it', async () => {
    const { row, calls } = recordingRow();
    const gateway = gatewayAttaching(async () => ({ status: 'attached', paymentMethod: CARD }));
    expect(await attachCard(gateway, row, { customerId: 'cus_1', token: 'tok' })).toEqual(CARD);
    expect(calls).toEqual(['card:pm_1']);
  });

  it('records a declined card and throws 402 payment_declined with the message', async () => {
    const { row, calls } = recordingRow();
    const gateway = gatewayAttaching(async () => ({
      status: 'declined',
      declineCode: 'card_declined',
      message: 'No.',
    }));
    const thrown = await attachCard(gateway, row, { customerId: 'cus_1', token: 'tok' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: 'payment_declined', message: 'No.', status: 402 });
    expect(calls).toEqual(['decline:No.']);
  });

  it('forgets the attempt when the gateway refuses the token, and passes its error on', async () => {
    const { row, calls } = recordingRow();
    const refused = new Error('unknown token');
    const gateway = gatewayAttaching(() => Promise.reject(refused));
    await expect(attachCard(gateway, row, { customerId: 'cus_1', token: 'tok' })).rejects.toBe(refused);
    expect(calls).toEqual(['forget']);
  });

  it('joins concurrent work on one attempt, and starts afresh once it ended', async () => {
    const inFlight = inFlightAttempts<number>();
    let runs = 0;
    let finish: (n: number) => void = () => {};
    const work = () => {
      runs += 1;
      return new Promise<number>((resolve) => {
        finish = resolve;
      });
    };
    const first = inFlight.track('a', work);
    const second = inFlight.track('a', work);
    expect(inFlight.get('a')).toBeDefined();
    finish(7);
    expect([await first, await second, runs]).toEqual([7, 7, 1]);
    expect(inFlight.get('a')).toBeUndefined();
    const third = inFlight.track('a', work);
    finish(8);
    expect([await third, runs]).toEqual([8, 2]);
  });
});
