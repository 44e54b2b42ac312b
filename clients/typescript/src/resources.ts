import type { components, operations } from './openapi.js';
import { listPages, type PagePromise } from './pagination.js';
import type { Transport } from './transport.js';

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

export interface CreateOptions {
  /**
   * Makes the create safe to retry: the service carries it out once per key. The client makes one
   * (a UUID) when none is given, and sends the same one on every retry of the call.
   */
  readonly idempotencyKey?: string;
}

const newIdempotencyKey = () => globalThis.crypto.randomUUID();

/** The animals of the store. Reading needs a key with `pets:read`, adding one with `pets:write`. */
export class Pets {
  constructor(private readonly transport: Transport) {}

  /** Every pet, or those of one status, in ascending id order: await it for the first page, or `for await` every pet. */
  list(query: ListPetsQuery = {}): PagePromise<Pet> {
    return listPages<Pet>(this.transport, '/pets', { ...query });
  }

  /** Adds a pet; `status` is `available` when left out. */
  async create(body: NewPet, { idempotencyKey = newIdempotencyKey() }: CreateOptions = {}): Promise<Pet> {
    return (await this.transport.send<Pet>({ method: 'POST', path: '/pets', body, idempotencyKey })).data;
  }

  /**
   * One pet by its id.
   * @deprecated getPet is removed on 5 December 2030 (its Sunset header says so): list with a
   * `status` filter instead, `petstore.pets.list({ status })`.
   */
  async get(petId: number): Promise<Pet> {
    return (await this.transport.send<Pet>({ method: 'GET', path: `/pets/${encodeURIComponent(petId)}` })).data;
  }
}

/** Orders (experimental in the document: their shape may still change). */
export class Orders {
  constructor(private readonly transport: Transport) {}

  /** Every order, or those of one status, in ascending id order: await it for the first page, or `for await` every order. Needs `store:read`. */
  list(query: ListOrdersQuery = {}): PagePromise<Order> {
    return listPages<Order>(this.transport, '/store/orders', { ...query });
  }

  /** Places an order for an existing pet (else NotFoundError, PET_NOT_FOUND). Needs `store:write`. */
  async create(body: NewOrder, { idempotencyKey = newIdempotencyKey() }: CreateOptions = {}): Promise<Order> {
    return (await this.transport.send<Order>({ method: 'POST', path: '/store/orders', body, idempotencyKey })).data;
  }

  /** One order by its id. Needs `store:read`. */
  async get(orderId: number): Promise<Order> {
    return (await this.transport.send<Order>({ method: 'GET', path: `/store/orders/${encodeURIComponent(orderId)}` })).data;
  }
}

/** The store group: orders and the inventory. */
export class Store {
  readonly orders: Orders;

  constructor(private readonly transport: Transport) {
    this.orders = new Orders(transport);
  }

  /** How many pets there are of each status. Needs `store:read`. */
  async inventory(): Promise<Inventory> {
    return (await this.transport.send<Inventory>({ method: 'GET', path: '/store/inventory' })).data;
  }
}

/**
 * Where events are sent (webhooks). Reading needs a key with `webhooks:read`, the rest `webhooks:write`;
 * an unknown id throws NotFoundError (WEBHOOK_ENDPOINT_NOT_FOUND).
 */
export class WebhookEndpoints {
  constructor(private readonly transport: Transport) {}

  /** Adds an endpoint; the answer holds its signing secret (`whsec_…`), shown this once: keep it. */
  async create(body: NewWebhookEndpoint, { idempotencyKey = newIdempotencyKey() }: CreateOptions = {}): Promise<CreatedWebhookEndpoint> {
    return (await this.transport.send<CreatedWebhookEndpoint>({ method: 'POST', path: '/webhook-endpoints', body, idempotencyKey })).data;
  }

  /** Every endpoint, oldest first: await it for the first page, or `for await` every endpoint. */
  list(query: ListWebhookEndpointsQuery = {}): PagePromise<WebhookEndpoint> {
    return listPages<WebhookEndpoint>(this.transport, '/webhook-endpoints', { ...query });
  }

  async get(endpointId: string): Promise<WebhookEndpoint> {
    return (await this.transport.send<WebhookEndpoint>({ method: 'GET', path: endpointPath(endpointId) })).data;
  }

  /** Removes the endpoint: nothing more is sent to it. */
  async delete(endpointId: string): Promise<void> {
    await this.transport.send<void>({ method: 'DELETE', path: endpointPath(endpointId) });
  }

  /** Stops deliveries to the endpoint until it is enabled again; events meanwhile are not queued for it (`events.redeliver` sends one). */
  async disable(endpointId: string): Promise<WebhookEndpoint> {
    return (await this.transport.send<WebhookEndpoint>({ method: 'POST', path: `${endpointPath(endpointId)}/disable` })).data;
  }

  async enable(endpointId: string): Promise<WebhookEndpoint> {
    return (await this.transport.send<WebhookEndpoint>({ method: 'POST', path: `${endpointPath(endpointId)}/enable` })).data;
  }

  /** A new signing secret; the previous one keeps signing beside it for 24 hours, so a receiver can roll without a miss. */
  async rotateSecret(endpointId: string): Promise<WebhookSecret> {
    return (await this.transport.send<WebhookSecret>({ method: 'POST', path: `${endpointPath(endpointId)}/rotate-secret` })).data;
  }

  /** Sends a `webhook.test` event to this endpoint only; answers the event queued. */
  async test(endpointId: string): Promise<Event> {
    return (await this.transport.send<Event>({ method: 'POST', path: `${endpointPath(endpointId)}/test` })).data;
  }

  /** Sends again every delivery to this endpoint that failed, of events since `since`; answers how many were queued. */
  async recover(endpointId: string, since: Date | string): Promise<number> {
    const body = { since: since instanceof Date ? since.toISOString() : since };
    return (await this.transport.send<{ queued: number }>({ method: 'POST', path: `${endpointPath(endpointId)}/recover`, body })).data
      .queued;
  }
}

/**
 * The events of the last 30 days, with every delivery attempt. Needs `webhooks:read` (`webhooks:write`
 * to redeliver); an unknown id throws NotFoundError (EVENT_NOT_FOUND).
 */
export class Events {
  constructor(private readonly transport: Transport) {}

  /** Every event, or those of one type, oldest first: await it for the first page, or `for await` every event. */
  list(query: ListEventsQuery = {}): PagePromise<Event> {
    return listPages<Event>(this.transport, '/events', { ...query });
  }

  /** One event, with its delivery to each endpoint and every attempt. */
  async get(eventId: string): Promise<EventWithDeliveries> {
    return (await this.transport.send<EventWithDeliveries>({ method: 'GET', path: `/events/${encodeURIComponent(eventId)}` })).data;
  }

  /** Sends the event again, to one endpoint or to every one subscribed; answers how many deliveries were queued. */
  async redeliver(eventId: string, { endpointId }: { endpointId?: string } = {}): Promise<number> {
    const path = `/events/${encodeURIComponent(eventId)}/redeliver`;
    return (await this.transport.send<{ queued: number }>({ method: 'POST', path, body: endpointId === undefined ? {} : { endpointId } }))
      .data.queued;
  }
}

const endpointPath = (endpointId: string) => `/webhook-endpoints/${encodeURIComponent(endpointId)}`;
