import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { AppError } from '../errors.js';
import { DECLINE_CODES, type PaymentEvent, type PaymentEventType } from './types.js';

const cents = z.number().int().positive();
const currency = z.string().regex(/^[A-Z]{3}$/);
const chargeData = z.object({
  chargeId: z.string(),
  object: z.enum(['charge', 'authorisation']),
  customerId: z.string(),
  amountCents: cents,
  currency,
  offSession: z.boolean(),
});
const envelope = { id: z.string().min(1).max(255), created: z.string() };
const decline = { declineCode: z.enum(DECLINE_CODES), message: z.string() };

/** The wire shape of every event (the body the gateway signs). */
export const paymentEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...envelope,
    type: z.literal('charge.succeeded'),
    data: chargeData.extend({ action: z.literal('completed').optional() }),
  }),
  z.object({
    ...envelope,
    type: z.literal('charge.failed'),
    data: chargeData.extend({ ...decline, action: z.literal('failed').optional() }),
  }),
  z.object({
    ...envelope,
    type: z.literal('charge.requires_action'),
    data: chargeData.extend({ nextAction: z.object({ id: z.string(), url: z.string() }) }),
  }),
  z.object({
    ...envelope,
    type: z.literal('refund.succeeded'),
    data: z.object({ refundId: z.string(), chargeId: z.string(), amountCents: cents, currency }),
  }),
]);

/** Parses a verified raw body; 400 `invalid_event` when it is not one of our events. */
export function parsePaymentEvent(rawBody: string): PaymentEvent {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError('invalid_event', 'The event is not JSON.', { status: 400 });
  }
  const parsed = paymentEventSchema.safeParse(json);
  if (!parsed.success)
    throw new AppError('invalid_event', 'The event is not a payment event we know.', { status: 400 });
  return parsed.data as PaymentEvent;
}

/** Runs inside the transaction that records the event as handled: a failure rolls both back. */
export type PaymentEventHandler<T extends PaymentEventType> = (tx: Db, event: PaymentEvent<T>) => Promise<void>;

/**
 * The registry modules subscribe to (billing, later): `on(type, handler)`. `dispatch` runs each
 * event once, however often it is delivered: its id goes into `payment_events` in the same
 * transaction as the handlers' writes, and a redelivery (even one racing the first) finds it
 * there and does nothing. A handler that throws rolls the record back, so the gateway's retry
 * runs it again.
 */
export function createPaymentEvents(db: Db) {
  const handlers = new Map<PaymentEventType, PaymentEventHandler<PaymentEventType>[]>();
  return {
    on<T extends PaymentEventType>(type: T, handler: PaymentEventHandler<T>): void {
      const list = handlers.get(type) ?? [];
      list.push(handler as unknown as PaymentEventHandler<PaymentEventType>);
      handlers.set(type, list);
    },

    /** Hands a verified event to its subscribers once; `duplicate` when it was handled before. */
    async dispatch(event: PaymentEvent): Promise<{ duplicate: boolean }> {
      return db.transaction().execute(async (tx) => {
        const recorded = await tx
          .insertInto('payment_events')
          .values({ id: event.id, type: event.type, received_at: sql<Date>`now()` })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!recorded) return { duplicate: true };
        for (const handler of handlers.get(event.type) ?? []) await handler(tx, event);
        return { duplicate: false };
      });
    },
  };
}

export type PaymentEvents = ReturnType<typeof createPaymentEvents>;
