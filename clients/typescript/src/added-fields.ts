// Written by `npm run openapi` from openapi.json and contract/ (scripts/sdk-added-fields.ts): do not edit.

/**
 * The required fields of each schema that a release of this major version did not have, with what
 * an answer of an older server, or an event recorded before (stored as it was), is read as.
 */
export const ADDED_FIELDS = {
  Pet: {
    /** Since 1.5.0. */
    metadata: () => ({}),
    /** Since 1.6.0. */
    livemode: () => true,
  },
  Order: {
    /** Since 1.5.0. */
    metadata: () => ({}),
    /** Since 1.6.0. */
    livemode: () => true,
  },
  NewWebhookEndpointSecret: {
    /** Since 1.6.0. */
    livemode: () => true,
  },
  WebhookEndpoint: {
    /** Since 1.6.0. */
    livemode: () => true,
  },
  Event: {
    /** Since 1.6.0. */
    livemode: () => true,
  },
  EventWithDeliveries: {
    /** Since 1.6.0. */
    livemode: () => true,
  },
  RequestLogEntry: {
    /** Since 1.5.1. */
    count: () => 1,
    /** Since 1.6.0. */
    livemode: () => true,
  },
} as const;

/** The schema of a webhook event's `data.object`, by the event's `type`. */
export const EVENT_OBJECTS: Readonly<Record<string, string>> = {
  'pet.created': 'Pet',
  'pet.updated': 'Pet',
  'pet.deleted': 'Pet',
  'order.placed': 'Order',
  'order.updated': 'Order',
};
