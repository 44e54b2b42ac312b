/** One type per kind of write that records an event: what an endpoint can subscribe to (or `*`, all). */
export const EVENT_TYPES = ['pet.created', 'pet.updated', 'pet.deleted', 'order.placed', 'order.updated'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by `POST /webhook-endpoints/{id}/test` to that endpoint only; never subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

export function isEventType(value: unknown): value is EventType {
  return (EVENT_TYPES as readonly unknown[]).includes(value);
}

/** The request that caused an event: its id (X-Request-Id, the request log's) and its Idempotency-Key. */
export interface EventCause {
  readonly id: string;
  readonly idempotencyKey: string | null;
}

/** The event as stored and delivered: immutable once written. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: string;
  readonly createdAt: string;
  readonly apiVersion: string;
  /** The request that caused it (from 1.5.0); null for one the service made of its own accord. */
  readonly request: EventCause | null;
  /** `object`: the resource after the write (as it was, for a deletion); `previousAttributes`: on an update, the fields that changed, as they were. */
  readonly data: { readonly object: object; readonly previousAttributes?: object };
  /** Whether it happened in the live environment (true) or in a sandbox (false); last, as in every object (from 1.6.0). */
  readonly livemode: boolean;
}
