import { PLANS, type SubscriptionTerms } from '@sundial/core';

/** The billing e-mails' subjects and texts (the service decides when each is sent, once). */

export interface BillingMail {
  subject: string;
  text: string;
}

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;
const termsText = (t: SubscriptionTerms) =>
  `${PLANS[t.plan].name}, ${t.cycle}, ${t.licenses} ${t.licenses === 1 ? 'license' : 'licenses'}`;
const dayText = (at: Date) => at.toISOString().slice(0, 10);

export const billingMails = {
  receipt(v: {
    workspace: string;
    /** A renewal's receipt, or a purchase's (a first plan, an upgrade). */
    renewal: boolean;
    number: string;
    grossCents: number;
    currency: string;
    terms: SubscriptionTerms;
    period: { start: string; end: string };
    link: string;
  }): BillingMail {
    return {
      subject: `Receipt for ${v.workspace}: invoice ${v.number}`,
      text: [
        `${v.renewal ? `Your subscription of ${v.workspace} was renewed` : `Thank you for your purchase for ${v.workspace}`}: ${termsText(v.terms)}, ${v.period.start} to ${v.period.end}.`,
        `Invoice ${v.number}, total ${money(v.grossCents, v.currency)}, paid.`,
        `See the invoice and download its PDF: ${v.link}`,
      ].join('\n\n'),
    };
  },

  paymentFailed(v: {
    workspace: string;
    grossCents: number;
    currency: string;
    reason: string;
    nextTry: Date | null;
    link: string;
    needsConfirmation: boolean;
  }): BillingMail {
    const next = v.nextTry
      ? `We will try again on ${dayText(v.nextTry)}.`
      : 'This was the last try: the workspace moves to the Free plan now, with all its data kept.';
    return {
      subject: v.needsConfirmation
        ? `Payment failed for ${v.workspace}: please confirm it with your bank`
        : `Payment failed for ${v.workspace}`,
      text: [
        `The renewal of ${v.workspace} for ${money(v.grossCents, v.currency)} did not go through: ${v.reason}`,
        next,
        v.needsConfirmation ? `Confirm the payment with your bank here: ${v.link}` : `Update your card here: ${v.link}`,
      ].join('\n\n'),
    };
  },

  droppedToFree(v: { workspace: string; link: string }): BillingMail {
    return {
      subject: `${v.workspace} is on the Free plan now`,
      text: [
        `We could not renew the subscription of ${v.workspace}, so it is on the Free plan now. All its data is kept.`,
        `Buy a plan again to unlock the paid features: ${v.link}`,
      ].join('\n\n'),
    };
  },

  trialEnding(v: { workspace: string; endsAt: Date; link: string }): BillingMail {
    return {
      subject: 'Your trial ends in 3 days',
      text: [
        `The Pro trial of ${v.workspace} ends on ${dayText(v.endsAt)}. After that the workspace is on the Free plan, with all its data kept.`,
        `Choose a plan to keep the paid features: ${v.link}`,
      ].join('\n\n'),
    };
  },

  planChanged(v: { workspace: string; what: string; link: string }): BillingMail {
    return {
      subject: `Plan changed for ${v.workspace}`,
      text: [`${v.what}`, `See your plan and invoices: ${v.link}`].join('\n\n'),
    };
  },

  termsText,
  money,
};
