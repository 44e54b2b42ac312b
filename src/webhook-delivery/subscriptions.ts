/** An endpoint's subscription to every event type, those added later included. */
export const ALL_EVENTS = '*';

/** Whether an endpoint subscribed to `subscribed` (types, or `*`) gets an event of `type`. */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
}
