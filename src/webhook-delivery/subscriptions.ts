import { EVENT_TYPES } from '../events/event-types.js';
import type { Scope } from '../auth/scopes.js';

/** An endpoint's subscription to every event type, those added later included. */
export const ALL_EVENTS = '*';

/** Whether an endpoint subscribed to `subscribed` (types, or `*`) gets an event of `type`. */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
}

/**
 * The read scope an event of `type` needs, as its data shows the resource (`pet.*`: a pet, `order.*`:
 * an order); undefined for one that shows none (`webhook.test`). Nothing a key may not read reaches
 * it through a webhook or the events it lists.
 */
export function readScopeOfEvent(type: string): Scope | undefined {
  if (type.startsWith('pet.')) return 'pets:read';
  if (type.startsWith('order.')) return 'store:read';
  return undefined;
}

/** The read scopes a subscription to `subscribed` needs, in SCOPES order (`*`: every one). */
export function readScopesOfSubscription(subscribed: readonly string[]): Scope[] {
  const types = subscribed.includes(ALL_EVENTS) ? EVENT_TYPES : subscribed;
  const needed = new Set(types.map(readScopeOfEvent).filter((scope) => scope !== undefined));
  return (['pets:read', 'store:read'] as const).filter((scope) => needed.has(scope));
}

/**
 * Whether an event of `type` may go to an endpoint whose maker's key holds `scopes` now; null: an
 * endpoint made before 1.5.1, whose maker is not recorded, gets what it subscribed to.
 */
export function makerMayRead(scopes: ReadonlySet<Scope> | null, type: string): boolean {
  const needed = readScopeOfEvent(type);
  return scopes === null || needed === undefined || scopes.has(needed);
}
