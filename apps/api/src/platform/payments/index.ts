import type { Db } from '../../db/connection.js';
import type { JobRunner } from '../jobs.js';
import { createPaymentEvents } from './events.js';
import type { SandboxGateway } from './sandbox.js';
import { createSandboxGateway, type DeliverPaymentEvent } from './sandbox.js';
import { createStripeGateway, type StripeGatewayOptions } from './stripe.js';
import type { GatewayName, PaymentGateway } from './types.js';

export type { PaymentEventHandler, PaymentEvents } from './events.js';
export type { DeliverPaymentEvent, SandboxGateway } from './sandbox.js';
export * from './types.js';

export interface PaymentsDeps {
  db: Db;
  jobs: JobRunner;
  /** PAYMENTS_GATEWAY. */
  gateway: GatewayName;
  /** The STRIPE_* settings (config.ts requires them with PAYMENTS_GATEWAY=stripe). */
  stripe?: Omit<StripeGatewayOptions, 'publicUrl'> | null;
  /** PAYMENTS_WEBHOOK_SECRET (config.ts makes one per process when unset). */
  webhookSecret: string;
  publicUrl: string;
  /** How the sandbox sends its signed events to the webhook route (app.ts: through the app itself). */
  deliver: DeliverPaymentEvent;
}

/**
 * The payments layer, wired once in createServices (`services.payments`):
 * - `gateway`: the chosen `PaymentGateway`; the billing module calls it and nothing else.
 * - `events`: subscribe with `events.on('charge.succeeded', (tx, event) => …)`.
 * - `receive`: what the webhook route does with a delivery: verify, then dispatch once.
 * - `sandbox`: the sandbox's own routes' functions (tokens, second step), when it is the gateway.
 */
export function createPayments(deps: PaymentsDeps) {
  const events = createPaymentEvents(deps.db);
  let gateway: PaymentGateway;
  let sandbox: SandboxGateway | undefined;
  if (deps.gateway === 'stripe') {
    if (!deps.stripe) throw new Error('PAYMENTS_GATEWAY=stripe needs the STRIPE_* settings');
    gateway = createStripeGateway({ ...deps.stripe, publicUrl: deps.publicUrl }).gateway;
  } else {
    sandbox = createSandboxGateway({
      db: deps.db,
      jobs: deps.jobs,
      secret: deps.webhookSecret,
      publicUrl: deps.publicUrl,
      deliver: deps.deliver,
    });
    sandbox.registerJobs();
    gateway = sandbox.gateway;
  }
  return {
    gateway,
    events,
    sandbox,
    /**
     * Verifies a delivered event (400 `invalid_signature` / `invalid_event`) and hands it to the
     * subscribers once; `duplicate` when this event id was handled before. An event of a kind
     * nobody acts on is only acknowledged.
     */
    async receive(rawBody: string, signatureHeader: string | undefined) {
      const event = gateway.verifyEvent(rawBody, signatureHeader, new Date());
      if (!event) return { event, duplicate: false };
      return { event, ...(await events.dispatch(event)) };
    },
  };
}

export type Payments = ReturnType<typeof createPayments>;
