/**
 * The time, as the service reads it wherever a key's expiry is decided: injected, so that a test can
 * set it (createApp's options) instead of waiting for real time to pass.
 */
export abstract class Clock {
  abstract now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
