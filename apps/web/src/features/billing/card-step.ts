/**
 * A card step's own refusal (Stripe.js could not make a PaymentMethod: an incomplete card, no
 * connection), shown with its message as a decline is; nothing reached our API.
 */
export class CardStepError extends Error {}
