import type { DeclineCode } from './types.js';

/**
 * What a sandbox card does, by its number: Stripe's test cards, so the same journeys run against
 * both gateways. Only this name is stored with a token, never the number.
 */
export type SandboxBehaviour =
  | 'succeeds'
  | DeclineCode
  /** Asks for the second step on every charge, on- and off-session. */
  | 'always_authenticate'
  /** Asks for it unless the card is set up for off-session use and the charge is off-session. */
  | 'authenticate_unless_set_up'
  /** Attaches fine; every charge declines with card_declined. */
  | 'attach_then_decline';

/** The test cards (README, "Test cards"); any other Luhn-valid number succeeds. */
export const SANDBOX_CARDS: Readonly<Record<string, SandboxBehaviour>> = {
  '4242424242424242': 'succeeds',
  '5555555555554444': 'succeeds',
  '378282246310005': 'succeeds',
  '6011111111111117': 'succeeds',
  '3056930009020004': 'succeeds',
  '3566002020360505': 'succeeds',
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
  '4000000000000119': 'processing_error',
  '4000002760003184': 'always_authenticate',
  '4000002500003155': 'authenticate_unless_set_up',
  '4000000000000341': 'attach_then_decline',
};

export const behaviourOf = (digits: string): SandboxBehaviour => SANDBOX_CARDS[digits] ?? 'succeeds';

/** The decline a card gives when attached, if any (Stripe refuses its decline cards on attach). */
export function declineOnAttach(behaviour: string): DeclineCode | undefined {
  switch (behaviour) {
    case 'card_declined':
    case 'insufficient_funds':
    case 'expired_card':
    case 'incorrect_cvc':
    case 'processing_error':
      return behaviour;
    default:
      return undefined;
  }
}

export type SandboxOutcome =
  | { status: 'succeeded' }
  | { status: 'requires_action' }
  | { status: 'declined'; code: DeclineCode };

/** How a charge (or the $1.00 authorisation, on-session) on a saved card ends at first. */
export function outcomeOf(
  behaviour: string,
  charge: { offSession: boolean; offSessionReady: boolean },
): SandboxOutcome {
  const declined = declineOnAttach(behaviour);
  if (declined) return { status: 'declined', code: declined };
  switch (behaviour) {
    case 'attach_then_decline':
      return { status: 'declined', code: 'card_declined' };
    case 'always_authenticate':
      return { status: 'requires_action' };
    case 'authenticate_unless_set_up':
      return charge.offSession && charge.offSessionReady ? { status: 'succeeded' } : { status: 'requires_action' };
    default:
      return { status: 'succeeded' };
  }
}
