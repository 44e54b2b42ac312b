/** What an endpoint can subscribe to: one type per kind of write; `*` subscribes to all. */
export const EVENT_TYPES = ['pet.created', 'order.placed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by `POST /webhook-endpoints/{id}/test` to that endpoint only; never subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const ALL_EVENTS = '*';

export function isEventType(value: unknown): value is EventType {
  return (EVENT_TYPES as readonly unknown[]).includes(value);
}

/** Whether an endpoint subscribed to `subscribed` (types, or `*`) gets an event of `type`. */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
}

/** The event as stored and delivered: immutable once written. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: string;
  readonly createdAt: string;
  readonly apiVersion: string;
  readonly data: { readonly object: object };
}
