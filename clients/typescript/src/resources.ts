import { ApiPromise, type RawResponse } from './api-promise.js';
import type { components, operations } from './openapi.js';
import { listPages, type PagePromise } from './pagination.js';
import type { ApiRequest, RequestOptions, Transport } from './transport.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
export type Order = components['schemas']['Order'];
export type NewOrder = components['schemas']['NewOrder'];
export type OrderStatus = components['schemas']['OrderStatus'];
export type Inventory = components['schemas']['Inventory'];
/** limit (1 to 100, 20 when left out) and status; the cursor is the client's to follow. */
export type ListPetsQuery = Omit<NonNullable<operations['listPets']['parameters']['query']>, 'cursor'>;
export type ListOrdersQuery = Omit<NonNullable<operations['listOrders']['parameters']['query']>, 'cursor'>;
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type NewWebhookEndpoint = components['schemas']['NewWebhookEndpoint'];
/** The endpoint as created: with its signing secret, shown this once. */
export type CreatedWebhookEndpoint = components['schemas']['NewWebhookEndpointSecret'];
export type WebhookSecret = components['schemas']['WebhookSecret'];
export type Event = components['schemas']['Event'];
export type EventWithDeliveries = components['schemas']['EventWithDeliveries'];
export type ListWebhookEndpointsQuery = Omit<NonNullable<operations['listWebhookEndpoints']['parameters']['query']>, 'cursor'>;
export type ListEventsQuery = Omit<NonNullable<operations['listEvents']['parameters']['query']>, 'cursor'>;

export interface CreateOptions extends RequestOptions {
  /**
   * Makes the create safe to retry: the service carries it out once per key. The client makes one
   * (a UUID) when none is given, and sends the same one on every retry of the call.
   */
  readonly idempotencyKey?: string;
}

export interface RedeliverOptions extends RequestOptions {
  /** The one endpoint to send the event to again (every one subscribed when left out). */
  readonly endpointId?: string;
}

const newIdempotencyKey = () => globalThis.crypto.randomUUID();

/** Sends `request` with the call's options: awaited, the parsed answer; `withResponse()`, the whole of it. */
function call<T>(transport: Transport, request: ApiRequest, options: RequestOptions): ApiPromise<T> {
  return new ApiPromise(transport.send<T>(request, options));
}

/** A create: sent with the caller's Idempotency-Key, else one made for this call and kept for its retries. */
function create<T>(transport: Transport, path: string, body: unknown, options: CreateOptions): ApiPromise<T> {
  const { idempotencyKey = newIdempotencyKey(), ...rest } = options;
  return call<T>(transport, { method: 'POST', path, body, idempotencyKey }, rest);
}

/** A call the service answers `{ queued }`: its number, the whole answer kept for withResponse(). */
function queued(transport: Transport, request: ApiRequest, options: RequestOptions): ApiPromise<number> {
  const answer = transport.send<{ queued: number }>(request, options);
  return new ApiPromise(answer.then((raw): RawResponse<number> => ({ ...raw, data: raw.data.queued })));
}

/** The animals of the store. Reading needs a key with `pets:read`, adding one with `pets:write`. */
export class Pets {
  constructor(private readonly transport: Transport) {}

  /** Every pet, or those of one status, in ascending id order: await it for the first page, or `for await` every pet. */
  list(query: ListPetsQuery = {}, options: RequestOptions = {}): PagePromise<Pet> {
    return listPages<Pet>(this.transport, '/pets', { ...query }, options);
  }

  /** Adds a pet; `status` is `available` when left out. */
  create(body: NewPet, options: CreateOptions = {}): ApiPromise<Pet> {
    return create<Pet>(this.transport, '/pets', body, options);
  }

  /**
   * One pet by its id.
   * @deprecated getPet is removed on 5 December 2030 (its Sunset header says so): list with a
   * `status` filter instead, `petstore.pets.list({ status })`.
   */
  get(petId: number, options: RequestOptions = {}): ApiPromise<Pet> {
    return call<Pet>(this.transport, { method: 'GET', path: `/pets/${encodeURIComponent(petId)}` }, options);
  }
}

/** Orders (experimental in the document: their shape may still change). */
export class Orders {
  constructor(private readonly transport: Transport) {}

  /** Every order, or those of one status, in ascending id order: await it for the first page, or `for await` every order. Needs `store:read`. */
  list(query: ListOrdersQuery = {}, options: RequestOptions = {}): PagePromise<Order> {
    return listPages<Order>(this.transport, '/store/orders', { ...query }, options);
  }

  /** Places an order for an existing pet (else NotFoundError, PET_NOT_FOUND). Needs `store:write`. */
  create(body: NewOrder, options: CreateOptions = {}): ApiPromise<Order> {
    return create<Order>(this.transport, '/store/orders', body, options);
  }

  /** One order by its id. Needs `store:read`. */
  get(orderId: number, options: RequestOptions = {}): ApiPromise<Order> {
    return call<Order>(this.transport, { method: 'GET', path: `/store/orders/${encodeURIComponent(orderId)}` }, options);
  }
}

/** The store group: orders and the inventory. */
export class Store {
  readonly orders: Orders;

  constructor(private readonly transport: Transport) {
    this.orders = new Orders(transport);
  }

  /** How many pets there are of each status. Needs `store:read`. */
  inventory(options: RequestOptions = {}): ApiPromise<Inventory> {
    return call<Inventory>(this.transport, { method: 'GET', path: '/store/inventory' }, options);
  }
}

/**
 * Where events are sent (webhooks). Reading needs a key with `webhooks:read`, the rest `webhooks:write`;
 * an unknown id throws NotFoundError (WEBHOOK_ENDPOINT_NOT_FOUND).
 */
export class WebhookEndpoints {
  constructor(private readonly transport: Transport) {}

  /** Adds an endpoint; the answer holds its signing secret (`whsec_…`), shown this once: keep it. */
  create(body: NewWebhookEndpoint, options: CreateOptions = {}): ApiPromise<CreatedWebhookEndpoint> {
    return create<CreatedWebhookEndpoint>(this.transport, '/webhook-endpoints', body, options);
  }

  /** Every endpoint, oldest first: await it for the first page, or `for await` every endpoint. */
  list(query: ListWebhookEndpointsQuery = {}, options: RequestOptions = {}): PagePromise<WebhookEndpoint> {
    return listPages<WebhookEndpoint>(this.transport, '/webhook-endpoints', { ...query }, options);
  }

  get(endpointId: string, options: RequestOptions = {}): ApiPromise<WebhookEndpoint> {
    return call<WebhookEndpoint>(this.transport, { method: 'GET', path: endpointPath(endpointId) }, options);
  }

  /** Removes the endpoint: nothing more is sent to it. */
  delete(endpointId: string, options: RequestOptions = {}): ApiPromise<void> {
    return call<void>(this.transport, { method: 'DELETE', path: endpointPath(endpointId) }, options);
  }

  /** Stops deliveries to the endpoint until it is enabled again; events meanwhile are not queued for it (`events.redeliver` sends one). */
  disable(endpointId: string, options: RequestOptions = {}): ApiPromise<WebhookEndpoint> {
    return call<WebhookEndpoint>(this.transport, { method: 'POST', path: `${endpointPath(endpointId)}/disable` }, options);
  }

  enable(endpointId: string, options: RequestOptions = {}): ApiPromise<WebhookEndpoint> {
    return call<WebhookEndpoint>(this.transport, { method: 'POST', path: `${endpointPath(endpointId)}/enable` }, options);
  }

  /** A new signing secret; the previous one keeps signing beside it for 24 hours, so a receiver can roll without a miss. */
  rotateSecret(endpointId: string, options: RequestOptions = {}): ApiPromise<WebhookSecret> {
    return call<WebhookSecret>(this.transport, { method: 'POST', path: `${endpointPath(endpointId)}/rotate-secret` }, options);
  }

  /** Sends a `webhook.test` event to this endpoint only; answers the event queued. */
  test(endpointId: string, options: RequestOptions = {}): ApiPromise<Event> {
    return call<Event>(this.transport, { method: 'POST', path: `${endpointPath(endpointId)}/test` }, options);
  }

  /** Sends again every delivery to this endpoint that failed, of events since `since`; answers how many were queued. */
  recover(endpointId: string, since: Date | string, options: RequestOptions = {}): ApiPromise<number> {
    const body = { since: since instanceof Date ? since.toISOString() : since };
    return queued(this.transport, { method: 'POST', path: `${endpointPath(endpointId)}/recover`, body }, options);
  }
}

/**
 * The events of the last 30 days, with every delivery attempt. Needs `webhooks:read` (`webhooks:write`
 * to redeliver); an unknown id throws NotFoundError (EVENT_NOT_FOUND).
 */
export class Events {
  constructor(private readonly transport: Transport) {}

  /** Every event, or those of one type, oldest first: await it for the first page, or `for await` every event. */
  list(query: ListEventsQuery = {}, options: RequestOptions = {}): PagePromise<Event> {
    return listPages<Event>(this.transport, '/events', { ...query }, options);
  }

  /** One event, with its delivery to each endpoint and every attempt. */
  get(eventId: string, options: RequestOptions = {}): ApiPromise<EventWithDeliveries> {
    return call<EventWithDeliveries>(this.transport, { method: 'GET', path: `/events/${encodeURIComponent(eventId)}` }, options);
  }

  /** Sends the event again, to one endpoint or to every one subscribed; answers how many deliveries were queued. */
  redeliver(eventId: string, { endpointId, ...options }: RedeliverOptions = {}): ApiPromise<number> {
    const path = `/events/${encodeURIComponent(eventId)}/redeliver`;
    return queued(this.transport, { method: 'POST', path, body: endpointId === undefined ? {} : { endpointId } }, options);
  }
}

const endpointPath = (endpointId: string) => `/webhook-endpoints/${encodeURIComponent(endpointId)}`;
