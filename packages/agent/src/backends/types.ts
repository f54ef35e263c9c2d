import type { WindowObservation } from '../privacy.js';

/** Whether this computer's session can be watched, and in words why (or how, when it can). */
export interface Support {
  ok: boolean;
  reason: string;
}

/**
 * One per platform. The agent asks all three every poll; a backend that cannot tell says so
 * (`activeWindow` null: no window has the focus; `isLocked` null: no lock signal on this computer),
 * and never guesses.
 */
export interface PlatformBackend {
  readonly name: string;
  supported(): Promise<Support>;
  /** The focused window's application (its class or executable name), title and, for browsers, address. */
  activeWindow(): Promise<WindowObservation | null>;
  /** Seconds since the last keyboard or pointer input. */
  idleSeconds(): Promise<number>;
  isLocked(): Promise<boolean | null>;
  close?(): void;
}
