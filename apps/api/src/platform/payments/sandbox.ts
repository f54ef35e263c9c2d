import { randomBytes } from 'node:crypto';
import { type CardBrand, cardBrand } from '@sundial/core';
import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import type { PaymentSandboxChargesTable, SandboxChargeKind } from '../../db/tables/payments.js';
import { AppError, notFound } from '../errors.js';
import { newSecret } from '../ids.js';
import { defineJob, type JobRunner } from '../jobs.js';
import { parsePaymentEvent } from './events.js';
import { behaviourOf, declineOnAttach, outcomeOf } from './sandbox-cards.js';
import { SIGNATURE_HEADER, signPayload, verifySignature } from './signature.js';
import {
  type ChargeResult,
  DECLINE_MESSAGES,
  type DeclineCode,
  type NextAction,
  type PaymentEvent,
  type PaymentEventMap,
  type PaymentEventType,
  type PaymentGateway,
  type PaymentMethod,
  VERIFICATION_CENTS,
  type VerificationResult,
} from './types.js';

/** The sandbox's browser-facing routes (payments.routes.ts). */
export const SANDBOX_TOKENS_PATH = '/api/v1/payments/sandbox/tokens';
export const SANDBOX_ACTIONS_PATH = '/api/v1/payments/sandbox/actions';

/** Sends one signed event to the webhook route; throws when it is not accepted (the job retries). */
export type DeliverPaymentEvent = (rawBody: string, signatureHeader: string) => Promise<void>;

export interface SandboxDeps {
  db: Db;
  jobs: JobRunner;
  /** PAYMENTS_WEBHOOK_SECRET: signs the events this sandbox sends. */
  secret: string;
  /** Absolute second-step URLs start with it. */
  publicUrl: string;
  deliver: DeliverPaymentEvent;
}

/** A card as the tokens route parsed it: the only place the number and CVC exist. */
export interface SandboxCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name: string;
}

/** The second step, as its page shows it. */
export interface SandboxActionView {
  actionId: string;
  object: 'charge' | 'authorisation';
  amountCents: number;
  currency: string;
  description: string;
  brand: string;
  last4: string;
  state: 'pending' | 'completed' | 'failed';
  returnPath: string | null;
}

const deliverEventJob = defineJob('payments.sandbox-event', z.object({ body: z.string() }));

type ChargeRow = Selectable<PaymentSandboxChargesTable>;

const prefixed = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const MAX_KEY = 200;

function assertMoney(amountCents: number, currency: string): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1) {
    throw new AppError('invalid_amount', 'The amount must be a whole number of cents, at least 1.', { status: 422 });
  }
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new AppError('invalid_currency', 'The currency must be a three-letter ISO 4217 code, like USD.', {
      status: 422,
    });
  }
}

function assertKey(key: string): void {
  if (key.length < 1 || key.length > MAX_KEY) {
    throw new AppError('invalid_idempotency_key', `An idempotency key has 1 to ${MAX_KEY} characters.`, {
      status: 422,
    });
  }
}

function assertReturnPath(path: string | undefined): void {
  if (path !== undefined && !/^\/(?![/\\])[^\s]*$/.test(path)) {
    throw new AppError('invalid_return_path', 'The return path must be a path on this site, starting with one /.', {
      status: 422,
    });
  }
}

const reused = () =>
  new AppError('idempotency_key_reused', 'This idempotency key was used for a different payment.', { status: 422 });

/**
 * The built-in gateway: a card processor in test mode, on our own database. It keeps its books
 * in `payment_sandbox_*` and sends its events signed, through the job runner, to the same
 * webhook route a real processor would call (`deliver`), so a handler that fails is retried.
 */
export function createSandboxGateway({ db, jobs, secret, publicUrl, deliver }: SandboxDeps) {
  const actionUrl = (actionId: string): NextAction => ({
    id: actionId,
    url: `${publicUrl}${SANDBOX_ACTIONS_PATH}/${actionId}`,
  });

  async function emit<T extends PaymentEventType>(tx: Db, type: T, data: PaymentEventMap[T]): Promise<void> {
    const event = { id: prefixed('evt'), type, created: new Date().toISOString(), data } as PaymentEvent;
    await jobs.enqueue(tx, deliverEventJob, { body: JSON.stringify(event) });
  }

  function chargeEventData(row: ChargeRow) {
    return {
      chargeId: row.id,
      object: row.kind === 'authorisation' ? ('authorisation' as const) : ('charge' as const),
      customerId: row.customer_id ?? '',
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      offSession: row.off_session,
    };
  }

  /** The event that says how a charge or authorisation stands now. */
  async function emitState(tx: Db, row: ChargeRow, action?: 'completed' | 'failed'): Promise<void> {
    const data = chargeEventData(row);
    if (row.status === 'requires_action' && row.action_id) {
      await emit(tx, 'charge.requires_action', { ...data, nextAction: actionUrl(row.action_id) });
    } else if (row.status === 'declined') {
      const declineCode = (row.decline_code ?? 'card_declined') as DeclineCode;
      await emit(tx, 'charge.failed', {
        ...data,
        declineCode,
        message: DECLINE_MESSAGES[declineCode],
        ...(action === 'failed' ? { action } : {}),
      });
    } else {
      await emit(tx, 'charge.succeeded', { ...data, ...(action === 'completed' ? { action } : {}) });
    }
  }

  function chargeResult(row: ChargeRow): ChargeResult {
    if (row.status === 'requires_action' && row.action_id) {
      return { status: 'requires_action', chargeId: row.id, nextAction: actionUrl(row.action_id) };
    }
    if (row.status === 'declined') {
      const declineCode = (row.decline_code ?? 'card_declined') as DeclineCode;
      return { status: 'declined', chargeId: row.id, declineCode, message: DECLINE_MESSAGES[declineCode] };
    }
    return { status: 'succeeded', chargeId: row.id, amountCents: Number(row.amount_cents), currency: row.currency };
  }

  function verificationResult(row: ChargeRow): VerificationResult {
    const result = chargeResult(row);
    const authorisationId = row.id;
    switch (result.status) {
      case 'requires_action':
        return { status: 'requires_action', authorisationId, nextAction: result.nextAction };
      case 'declined':
        return { status: 'declined', authorisationId, declineCode: result.declineCode, message: result.message };
      default:
        return { status: 'voided', authorisationId, amountCents: result.amountCents, currency: result.currency };
    }
  }

  async function savedCard(customerId: string, paymentMethodId: string) {
    const card = await db
      .selectFrom('payment_sandbox_tokens')
      .select(['id', 'behaviour', 'off_session_ready'])
      .where('id', '=', paymentMethodId)
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    if (!card) {
      throw new AppError('payment_method_not_found', 'This card is not saved for this customer.', { status: 404 });
    }
    return card;
  }

  /**
   * Records a charge, authorisation or refund once per idempotency key, with its first event, in
   * one transaction. A second call with the key (also one racing the first: the unique key makes
   * it wait for the first to commit) answers the stored row.
   */
  async function recordOnce(
    row: Omit<ChargeRow, 'created_at' | 'updated_at'>,
    afterInsert?: (tx: Db, inserted: ChargeRow) => Promise<void>,
  ): Promise<ChargeRow> {
    return db.transaction().execute(async (tx) => {
      const inserted = await tx
        .insertInto('payment_sandbox_charges')
        .values({ ...row, updated_at: sql<Date>`now()` })
        .onConflict((oc) => oc.constraint('payment_sandbox_charges_idempotency_key').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) {
        await afterInsert?.(tx, inserted);
        if (row.kind !== 'refund') await emitState(tx, inserted);
        return inserted;
      }
      const first = await tx
        .selectFrom('payment_sandbox_charges')
        .selectAll()
        .where('idempotency_key', '=', row.idempotency_key)
        .executeTakeFirstOrThrow();
      const same =
        first.kind === row.kind &&
        Number(first.amount_cents) === Number(row.amount_cents) &&
        first.currency === row.currency &&
        first.token_id === row.token_id &&
        first.refunded_charge_id === row.refunded_charge_id;
      if (!same) throw reused();
      return first;
    });
  }

  async function attempt(
    kind: Exclude<SandboxChargeKind, 'refund'>,
    options: {
      customerId: string;
      paymentMethodId: string;
      amountCents: number;
      currency: string;
      idempotencyKey: string;
      description: string;
      offSession: boolean;
      returnPath?: string;
    },
  ): Promise<ChargeRow> {
    assertMoney(options.amountCents, options.currency);
    assertKey(options.idempotencyKey);
    assertReturnPath(options.returnPath);
    const card = await savedCard(options.customerId, options.paymentMethodId);
    const outcome = outcomeOf(card.behaviour, {
      offSession: options.offSession,
      offSessionReady: card.off_session_ready,
    });
    const status =
      outcome.status === 'succeeded' ? (kind === 'authorisation' ? 'voided' : 'succeeded') : outcome.status;
    return recordOnce({
      id: prefixed(kind === 'authorisation' ? 'auth' : 'ch'),
      kind,
      idempotency_key: options.idempotencyKey,
      amount_cents: options.amountCents,
      currency: options.currency,
      status,
      token_id: card.id,
      customer_id: options.customerId,
      refunded_charge_id: null,
      off_session: options.offSession,
      description: options.description,
      decline_code: outcome.status === 'declined' ? outcome.code : null,
      action_id: outcome.status === 'requires_action' ? `act_${newSecret()}` : null,
      return_path: options.returnPath ?? null,
    });
  }

  async function getCharge(id: string, kind: SandboxChargeKind): Promise<ChargeRow> {
    const row = await db
      .selectFrom('payment_sandbox_charges')
      .selectAll()
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (!row) throw new AppError('charge_not_found', 'No such charge.', { status: 404 });
    return row;
  }

  /** The second step's page data; 404 for an unknown action. */
  async function action(actionId: string): Promise<SandboxActionView> {
    const row = await db
      .selectFrom('payment_sandbox_charges as c')
      .innerJoin('payment_sandbox_tokens as t', 't.id', 'c.token_id')
      .select([
        'c.kind',
        'c.amount_cents',
        'c.currency',
        'c.description',
        'c.status',
        'c.decline_code',
        'c.return_path',
        't.brand',
        't.last4',
      ])
      .where('c.action_id', '=', actionId)
      .executeTakeFirst();
    if (!row) throw notFound('This payment step does not exist.');
    return {
      actionId,
      object: row.kind === 'authorisation' ? 'authorisation' : 'charge',
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      description: row.description,
      brand: row.brand,
      last4: row.last4,
      state:
        row.status === 'requires_action'
          ? 'pending'
          : row.status === 'declined' && row.decline_code === 'authentication_failed'
            ? 'failed'
            : 'completed',
      returnPath: row.return_path,
    };
  }

  const gateway: PaymentGateway = {
    name: 'sandbox',
    signatureHeader: SIGNATURE_HEADER,

    clientConfig: () => ({ gateway: 'sandbox', tokensPath: SANDBOX_TOKENS_PATH }),

    async createCustomer({ email, name }) {
      const customerId = prefixed('cus');
      await db.insertInto('payment_sandbox_customers').values({ id: customerId, email, name }).execute();
      return { customerId };
    },

    async attachPaymentMethod({ customerId, token, usage }) {
      const customer = await db
        .selectFrom('payment_sandbox_customers')
        .select('id')
        .where('id', '=', customerId)
        .executeTakeFirst();
      if (!customer) throw new AppError('customer_not_found', 'No such customer.', { status: 404 });
      const card = await db
        .selectFrom('payment_sandbox_tokens')
        .select(['id', 'brand', 'last4', 'exp_month', 'exp_year', 'behaviour', 'customer_id'])
        .where('id', '=', token)
        .executeTakeFirst();
      if (!card) throw new AppError('payment_token_not_found', 'This card token does not exist.', { status: 404 });
      const declineCode = declineOnAttach(card.behaviour);
      if (declineCode) return { status: 'declined', declineCode, message: DECLINE_MESSAGES[declineCode] };
      const offSessionReady = usage === 'off_session';
      const attached = await db
        .updateTable('payment_sandbox_tokens')
        .set({ customer_id: customerId, off_session_ready: offSessionReady })
        .where('id', '=', token)
        .where('customer_id', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!attached) throw new AppError('payment_token_used', 'This card token was used already.', { status: 409 });
      const paymentMethod: PaymentMethod = {
        paymentMethodId: card.id,
        brand: card.brand as CardBrand,
        last4: card.last4,
        expMonth: card.exp_month,
        expYear: card.exp_year,
        offSessionReady,
      };
      return { status: 'attached', paymentMethod };
    },

    async verifyCard({ customerId, paymentMethodId, idempotencyKey, currency = 'USD', returnPath }) {
      const row = await attempt('authorisation', {
        customerId,
        paymentMethodId,
        amountCents: VERIFICATION_CENTS,
        currency,
        idempotencyKey,
        description: 'Card verification (authorised and voided)',
        offSession: false,
        ...(returnPath === undefined ? {} : { returnPath }),
      });
      return verificationResult(row);
    },

    async charge(options) {
      return chargeResult(await attempt('charge', options));
    },

    async confirmCharge(chargeId) {
      return chargeResult(await getCharge(chargeId, 'charge'));
    },

    async confirmVerification(authorisationId) {
      return verificationResult(await getCharge(authorisationId, 'authorisation'));
    },

    async refund({ chargeId, amountCents, idempotencyKey, reason }) {
      assertKey(idempotencyKey);
      const charge = await getCharge(chargeId, 'charge');
      assertMoney(amountCents, charge.currency);
      const row = await recordOnce(
        {
          id: prefixed('re'),
          kind: 'refund',
          idempotency_key: idempotencyKey,
          amount_cents: amountCents,
          currency: charge.currency,
          status: 'succeeded',
          token_id: charge.token_id,
          customer_id: charge.customer_id,
          refunded_charge_id: charge.id,
          off_session: false,
          description: reason ?? '',
          decline_code: null,
          action_id: null,
          return_path: null,
        },
        async (tx, inserted) => {
          // The charge's row, locked, so two refunds at once cannot both pass the check.
          const locked = await tx
            .selectFrom('payment_sandbox_charges')
            .select(['status', 'amount_cents'])
            .where('id', '=', chargeId)
            .forUpdate()
            .executeTakeFirstOrThrow();
          if (locked.status !== 'succeeded') {
            throw new AppError('charge_not_refundable', 'Only a succeeded charge can be refunded.', { status: 409 });
          }
          const { refunded } = await tx
            .selectFrom('payment_sandbox_charges')
            .select(sql<number>`coalesce(sum(amount_cents), 0)::int8`.as('refunded'))
            .where('refunded_charge_id', '=', chargeId)
            .executeTakeFirstOrThrow();
          if (Number(refunded) > Number(locked.amount_cents)) {
            throw new AppError('refund_exceeds_charge', 'A refund cannot be more than what is left of the charge.', {
              status: 422,
            });
          }
          await emit(tx, 'refund.succeeded', {
            refundId: inserted.id,
            chargeId,
            amountCents,
            currency: charge.currency,
          });
        },
      );
      return {
        status: 'succeeded',
        refundId: row.id,
        chargeId,
        amountCents: Number(row.amount_cents),
        currency: row.currency,
      };
    },

    verifyEvent(rawBody, signatureHeader, now) {
      verifySignature(rawBody, signatureHeader, secret, now);
      return parsePaymentEvent(rawBody);
    },
  };

  return {
    gateway,

    /**
     * Stores what a card is (brand, last four, expiry, test behaviour) under a new token and
     * answers it. The number and CVC are checked by the route's schema and dropped here.
     */
    async tokenise(card: SandboxCard) {
      const id = prefixed('tok');
      // The route's schema took only numbers of an accepted brand.
      const brand = cardBrand(card.number);
      if (!brand)
        throw new AppError('validation_failed', 'This card number is not valid: check the digits.', { status: 422 });
      const last4 = card.number.slice(-4);
      await db
        .insertInto('payment_sandbox_tokens')
        .values({
          id,
          brand,
          last4,
          exp_month: card.expMonth,
          exp_year: card.expYear,
          behaviour: behaviourOf(card.number),
        })
        .execute();
      return { id, brand, last4, expMonth: card.expMonth, expYear: card.expYear };
    },

    action,

    /**
     * Records the customer's answer to the second step: the charge succeeds (an authorisation is
     * voided) or declines with `authentication_failed`, and its event is sent. Answering again
     * changes nothing (409 `payment_step_done` when the answer differs).
     */
    async completeAction(actionId: string, outcome: 'complete' | 'fail'): Promise<SandboxActionView> {
      await db.transaction().execute(async (tx) => {
        const pending = await tx
          .selectFrom('payment_sandbox_charges')
          .select(['id', 'kind'])
          .where('action_id', '=', actionId)
          .where('status', '=', 'requires_action')
          .forUpdate()
          .executeTakeFirst();
        if (!pending) return;
        const row = await tx
          .updateTable('payment_sandbox_charges')
          .set({
            status: outcome === 'fail' ? 'declined' : pending.kind === 'authorisation' ? 'voided' : 'succeeded',
            decline_code: outcome === 'fail' ? 'authentication_failed' : null,
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', pending.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await emitState(tx, row, outcome === 'fail' ? 'failed' : 'completed');
      });
      const view = await action(actionId);
      if (view.state !== (outcome === 'fail' ? 'failed' : 'completed')) {
        throw new AppError('payment_step_done', 'This payment step was answered already.', { status: 409 });
      }
      return view;
    },

    /** Delivers queued events, signed at each attempt (a retry carries a fresh timestamp). */
    registerJobs(): void {
      jobs.register(deliverEventJob, async ({ body }, { now }) => deliver(body, signPayload(body, secret, now)), {
        maxAttempts: 8,
        backoffMs: 5_000,
      });
    },
  };
}

export type SandboxGateway = ReturnType<typeof createSandboxGateway>;
