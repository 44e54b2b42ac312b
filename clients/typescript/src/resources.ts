import { ApiPromise, type NotModified, type RawResponse, type WithEtag, type WithRequestId } from './api-promise.js';
import { NotFoundError } from './errors.js';
import type { components, operations } from './openapi.js';
import { listFirstPageIfChanged, listPages, type Page, type PagePromise } from './pagination.js';
import { type SchemaWithAddedFields, withAddedFields } from './older-versions.js';
import type { ApiRequest, QueryValue, RequestOptions, Transport } from './transport.js';

/** A pet's fields, as the API has them: what a listing's pets and an event's object are. */
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
/**
 * A JSON Merge Patch of a pet, of the fields the document's PetPatch has (openapi.ts): those given
 * replace the stored ones, null clears one the document lets be null (`metadata: null`, every key),
 * those left out stay as they are; a map merges (a key set to null is removed).
 */
export type PetPatch = components['schemas']['PetPatch'];
export type PetStatus = components['schemas']['PetStatus'];
/** An order's fields, as the API has them: what a listing's orders and an event's object are. */
export type Order = components['schemas']['Order'];
export type NewOrder = components['schemas']['NewOrder'];
/**
 * A JSON Merge Patch of an order, of the fields the document's OrderPatch has (openapi.ts), given
 * and left out as a pet's: its status moves placed to approved, approved to delivered.
 */
export type OrderPatch = components['schemas']['OrderPatch'];
export type OrderStatus = components['schemas']['OrderStatus'];
export type Inventory = components['schemas']['Inventory'];
/** limit (1 to 100, 20 when left out), status and metadata (one pair: `{ erp_id: 'A-17' }`); the cursor is the client's to follow. */
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
/** A request your key made, as the service answered it: what the request log keeps. */
export type RequestLogEntry = components['schemas']['RequestLogEntry'];
/**
 * limit, status (`404`, or a class: `'4xx'`), operation (an operationId: `'createPet'`) and
 * idempotencyKey; the cursor is the client's to follow.
 */
export type ListRequestsQuery = Omit<NonNullable<operations['listRequests']['parameters']['query']>, 'cursor' | 'status'> & {
  readonly status?: number | string;
};

/**
 * A pet as a call answers it (`create`, `get`, `update`): its fields, with the answer's `ETag` as
 * `_etag` and its `X-Request-Id` as `_request_id`, neither enumerable (its JSON is the API's). Type
 * what you keep of an answer so, not as a `Pet`, which has only the fields.
 */
export interface PetAnswer extends Pet {
  /**
   * The answer's ETag: give it back as `ifMatch` so that a change applies only to the pet you saw,
   * or as `ifNoneMatch` to be told NOT_MODIFIED while it is current. Undefined only when something
   * between the service and you (a proxy) dropped the header.
   */
  readonly _etag?: string;
  /** The answer's X-Request-Id: quote it to support. */
  readonly _request_id?: string;
}

/** An order as a call answers it (`create`, `get`, `update`, `cancel`): its fields, with `_etag` and `_request_id` as a PetAnswer has. */
export interface OrderAnswer extends Order {
  /** The answer's ETag, for `ifMatch` and `ifNoneMatch` (see PetAnswer). */
  readonly _etag?: string;
  /** The answer's X-Request-Id: quote it to support. */
  readonly _request_id?: string;
}

export interface CreateOptions extends RequestOptions {
  /**
   * Makes the create safe to retry: the service carries it out once per key. The client makes one
   * (a UUID) when none is given, and sends the same one on every retry of the call.
   */
  readonly idempotencyKey?: string;
}

/** A read that may be answered NOT_MODIFIED. */
export interface ReadOptions extends RequestOptions {
  /**
   * The ETag of what you hold (a result's or a page's `_etag`): when it is still current the
   * service answers `304 Not Modified` with no body, and the call answers NOT_MODIFIED (no error,
   * no retry); else the pet, order or page as it is now.
   */
  readonly ifNoneMatch?: string;
}

/** A read's options without `ifNoneMatch`: its answer is never NOT_MODIFIED. */
export type UnconditionalReadOptions = RequestOptions & { readonly ifNoneMatch?: undefined };

/** A change to a pet or an order (update, cancel). */
export interface ChangeOptions extends RequestOptions {
  /**
   * The ETag of the pet or order you decided on (its `_etag`, or `*` for any): the change is made
   * only while it is current, else PreconditionFailedError (412), nothing changed, with its
   * `currentEtag`. Left out, the change applies to whatever is current.
   */
  readonly ifMatch?: string;
  /**
   * Makes the change safe to retry: the service carries it out once per key and answers a retry
   * with the first answer (Idempotent-Replayed). The client makes one (a UUID) when none is given,
   * and sends the same one on every retry of the call.
   */
  readonly idempotencyKey?: string;
}

/** A deletion, held to an ETag like a change. */
export interface DeleteOptions extends RequestOptions {
  /** The ETag of the pet you decided on (or `*`): deleted only while it is current, else PreconditionFailedError (412). */
  readonly ifMatch?: string;
}

/** A look-up in the request log. */
export interface LookUpOptions extends RequestOptions {
  /**
   * How long to ask again while the entry is not found (REQUEST_NOT_FOUND), in ms (0): an entry is
   * written within a second of its request, so a call that just failed may not be there yet.
   */
  readonly waitMs?: number;
}

export interface RedeliverOptions extends RequestOptions {
  /** The one endpoint to send the event to again (every one subscribed when left out). */
  readonly endpointId?: string;
}

const newIdempotencyKey = () => globalThis.crypto.randomUUID();

/**
 * Sends `request` with the call's options: awaited, the parsed answer; `withResponse()`, the whole of
 * it. A Pet or an Order (`schema`) is read with the fields an older server's answer lacks (withAddedFields).
 */
function call<T>(transport: Transport, request: ApiRequest, options: RequestOptions, schema?: SchemaWithAddedFields): ApiPromise<T> {
  const answer = transport.send<T>(request, options);
  if (schema === undefined) return new ApiPromise(answer);
  return new ApiPromise(answer.then((raw) => ({ ...raw, data: withAddedFields(schema, raw.data) })));
}

/** A create: sent with the caller's Idempotency-Key, else one made for this call and kept for its retries. */
function create<T>(
  transport: Transport,
  path: string,
  body: unknown,
  options: CreateOptions,
  schema?: SchemaWithAddedFields,
): ApiPromise<T> {
  const { idempotencyKey = newIdempotencyKey(), ...rest } = options;
  return call<T>(transport, { method: 'POST', path, body, idempotencyKey }, rest, schema);
}

/** A JSON Merge Patch, or (`body` undefined) a cancel, held to `ifMatch` when given, with an Idempotency-Key as a create has. */
function change<T>(
  transport: Transport,
  method: 'PATCH' | 'POST',
  path: string,
  body: unknown,
  options: ChangeOptions,
  schema: SchemaWithAddedFields,
): ApiPromise<T> {
  const { idempotencyKey = newIdempotencyKey(), ifMatch, ...rest } = options;
  const contentType = method === 'PATCH' ? 'application/merge-patch+json' : undefined;
  return call<T>(transport, { method, path, body, contentType, idempotencyKey, ifMatch }, rest, schema);
}

/** A GET of one pet or order, with `If-None-Match` when asked. */
function read<T>(transport: Transport, path: string, options: ReadOptions, schema: SchemaWithAddedFields): ApiPromise<T | NotModified> {
  const { ifNoneMatch, ...rest } = options;
  return call<T | NotModified>(transport, { method: 'GET', path, ifNoneMatch }, rest, schema);
}

/**
 * A listing of pets or orders: every page (PagePromise), or, asked with an `ifNoneMatch` to hold,
 * its first page if it changed. Without a tag (a page whose ETag a proxy dropped) it is the plain
 * listing, which answers what its conditional type promises: awaited, the first page, withResponse() too.
 */
function listing<Item>(
  transport: Transport,
  path: string,
  query: Readonly<Record<string, QueryValue>>,
  options: ReadOptions,
  schema: SchemaWithAddedFields,
): PagePromise<Item> | ApiPromise<Page<Item> | NotModified> {
  const { ifNoneMatch, ...rest } = options;
  const readItem = (item: Item) => withAddedFields(schema, item);
  if (ifNoneMatch === undefined) return listPages<Item>(transport, path, query, rest, readItem);
  return listFirstPageIfChanged<Item>(transport, path, query, rest, ifNoneMatch, readItem);
}

/** A call the service answers `{ queued }`: its number, the whole answer kept for withResponse(). */
function queued(transport: Transport, request: ApiRequest, options: RequestOptions): ApiPromise<number> {
  const answer = transport.send<{ queued: number }>(request, options);
  return new ApiPromise(answer.then((raw): RawResponse<number> => ({ ...raw, data: raw.data.queued })));
}

/**
 * The animals of the store. Reading needs a key with `pets:read`, adding, changing and deleting
 * one `pets:write`. A single pet answered carries its ETag as `_etag` (see PetAnswer).
 */
export class Pets {
  constructor(private readonly transport: Transport) {}

  /**
   * Every pet, or those of one status or one metadata pair (`{ metadata: { erp_id: 'A-17' } }`), in
   * ascending id order: await it for the first page, or `for await` every pet.
   */
  list(query?: ListPetsQuery, options?: UnconditionalReadOptions): PagePromise<Pet>;
  /**
   * The first page again, unless it is as it was: NOT_MODIFIED while `ifNoneMatch` (a page's
   * `_etag`) is current, else the page as it is now.
   */
  list(query: ListPetsQuery, options: ReadOptions): ApiPromise<Page<Pet> | NotModified>;
  list(query: ListPetsQuery = {}, options: ReadOptions = {}): PagePromise<Pet> | ApiPromise<Page<Pet> | NotModified> {
    return listing<Pet>(this.transport, '/pets', { ...query }, options, 'Pet');
  }

  /** Adds a pet; a field left out takes NewPet's default in the document (openapi.ts). */
  create(body: NewPet, options: CreateOptions = {}): ApiPromise<PetAnswer> {
    return create<PetAnswer>(this.transport, '/pets', body, options, 'Pet');
  }

  /**
   * One pet by its id.
   * @deprecated getPet is removed on 5 December 2030 (its Sunset header says so): list with a
   * `status` filter instead, `petstore.pets.list({ status })`.
   */
  get(petId: number, options?: UnconditionalReadOptions): ApiPromise<PetAnswer>;
  /**
   * One pet by its id, unless it is as you hold it: NOT_MODIFIED while `ifNoneMatch` is current.
   * @deprecated getPet is removed on 5 December 2030 (its Sunset header says so): list with a
   * `status` filter instead, `petstore.pets.list({ status })`.
   */
  get(petId: number, options: ReadOptions): ApiPromise<PetAnswer | NotModified>;
  get(petId: number, options: ReadOptions = {}): ApiPromise<PetAnswer | NotModified> {
    return read<PetAnswer>(this.transport, petPath(petId), options, 'Pet');
  }

  /**
   * Changes a pet by a JSON Merge Patch (PetPatch: the fields given replace the stored ones, those
   * left out stay as they are; metadata merges: a key set to null is removed, `metadata: null`
   * removes them all) and answers it as changed. Status moves: available to pending or sold, pending to
   * available or sold; sold is final (ConflictError, INVALID_TRANSITION). A pet an open order holds
   * moves only with that order (PET_HAS_OPEN_ORDER). With `ifMatch`, only the pet you saw is
   * changed (PreconditionFailedError otherwise). Safe to retry: it has an Idempotency-Key.
   */
  update(petId: number, patch: PetPatch, options: ChangeOptions = {}): ApiPromise<PetAnswer> {
    return change<PetAnswer>(this.transport, 'PATCH', petPath(petId), patch, options, 'Pet');
  }

  /**
   * Deletes a pet that no order names (ConflictError, PET_HAS_ORDERS, otherwise); afterwards it is
   * not found (NotFoundError). With `ifMatch`, only the pet you saw is deleted. A deletion whose
   * answer was lost is retried, and finds the pet already gone: NotFoundError.
   */
  delete(petId: number, options: DeleteOptions = {}): ApiPromise<void> {
    const { ifMatch, ...rest } = options;
    return call<void>(this.transport, { method: 'DELETE', path: petPath(petId), ifMatch }, rest);
  }
}

/**
 * Orders (experimental in the document: their shape may still change). Reading needs `store:read`,
 * the rest `store:write`. A single order answered carries its ETag as `_etag` (see OrderAnswer).
 */
export class Orders {
  constructor(private readonly transport: Transport) {}

  /**
   * Every order, or those of one status or one metadata pair (`{ metadata: { erp_id: 'A-17' } }`), in
   * ascending id order: await it for the first page, or `for await` every order.
   */
  list(query?: ListOrdersQuery, options?: UnconditionalReadOptions): PagePromise<Order>;
  /**
   * The first page again, unless it is as it was: NOT_MODIFIED while `ifNoneMatch` (a page's
   * `_etag`) is current, else the page as it is now.
   */
  list(query: ListOrdersQuery, options: ReadOptions): ApiPromise<Page<Order> | NotModified>;
  list(query: ListOrdersQuery = {}, options: ReadOptions = {}): PagePromise<Order> | ApiPromise<Page<Order> | NotModified> {
    return listing<Order>(this.transport, '/store/orders', { ...query }, options, 'Order');
  }

  /**
   * Places an order for an available pet (else ConflictError, PET_NOT_AVAILABLE; NotFoundError,
   * PET_NOT_FOUND, for none), which it holds (pending) until delivered (sold) or cancelled (available).
   */
  create(body: NewOrder, options: CreateOptions = {}): ApiPromise<OrderAnswer> {
    return create<OrderAnswer>(this.transport, '/store/orders', body, options, 'Order');
  }

  /** One order by its id. */
  get(orderId: number, options?: UnconditionalReadOptions): ApiPromise<OrderAnswer>;
  /** One order by its id, unless it is as you hold it: NOT_MODIFIED while `ifNoneMatch` is current. */
  get(orderId: number, options: ReadOptions): ApiPromise<OrderAnswer | NotModified>;
  get(orderId: number, options: ReadOptions = {}): ApiPromise<OrderAnswer | NotModified> {
    return read<OrderAnswer>(this.transport, orderPath(orderId), options, 'Order');
  }

  /**
   * Moves an order by a JSON Merge Patch (OrderPatch, given as a pet's): placed to approved, approved
   * to delivered (which sells its pet and completes the order); its `metadata` merges as a pet's,
   * final or not. Delivered and cancelled are final
   * (ConflictError, INVALID_TRANSITION); cancel with `cancel`. With `ifMatch`, only the order you
   * saw is changed. Safe to retry: it has an Idempotency-Key.
   */
  update(orderId: number, patch: OrderPatch, options: ChangeOptions = {}): ApiPromise<OrderAnswer> {
    return change<OrderAnswer>(this.transport, 'PATCH', orderPath(orderId), patch, options, 'Order');
  }

  /**
   * Cancels a placed or approved order (ConflictError, INVALID_TRANSITION, for a delivered or
   * cancelled one): its pet is available again. With `ifMatch`, only the order you saw is
   * cancelled. Safe to retry: it has an Idempotency-Key.
   */
  cancel(orderId: number, options: ChangeOptions = {}): ApiPromise<OrderAnswer> {
    return change<OrderAnswer>(this.transport, 'POST', `${orderPath(orderId)}/cancel`, undefined, options, 'Order');
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

/** How often a look-up that waits asks again for an entry not yet written. */
const LOOK_AGAIN_MS = 100;

/**
 * The request log: the requests your API key made, as the service answered them (every change and
 * every failure; successful reads too where the operator keeps them), for `REQUEST_LOG_DAYS` days.
 * Needs `requests:read`. Each error the client throws has the `requestId` to look it up by.
 */
export class Requests {
  constructor(private readonly transport: Transport) {}

  /**
   * Newest first, or those of one status (`404`, or `'4xx'`), one operation (`'createPet'`) or one
   * Idempotency-Key: await it for the first page, or `for await` every entry.
   */
  list(query: ListRequestsQuery = {}, options: RequestOptions = {}): PagePromise<RequestLogEntry> {
    return listPages<RequestLogEntry>(this.transport, '/requests', { ...query }, options);
  }

  /**
   * One request by its id (its X-Request-Id, an error's `requestId`); NotFoundError
   * (REQUEST_NOT_FOUND) for one not in your key's log. With `waitMs`, asks again until then while it
   * is not found: `await petstore.requests.get(error.requestId, { waitMs: 2_000 })` right after a failure.
   */
  get(requestId: string, options?: LookUpOptions & UnconditionalReadOptions): ApiPromise<WithEtag<RequestLogEntry>>;
  /** One request by its id, unless it is as you hold it: NOT_MODIFIED while `ifNoneMatch` (its `_etag`) is current. */
  get(requestId: string, options: LookUpOptions & ReadOptions): ApiPromise<WithEtag<RequestLogEntry> | NotModified>;
  get(
    requestId: string,
    { waitMs = 0, ifNoneMatch, ...options }: LookUpOptions & ReadOptions = {},
  ): ApiPromise<WithEtag<RequestLogEntry> | NotModified> {
    const request: ApiRequest = { method: 'GET', path: `/requests/${encodeURIComponent(requestId)}`, ifNoneMatch };
    const deadline = Date.now() + waitMs;
    const lookUp = async (): Promise<RawResponse<WithRequestId<WithEtag<RequestLogEntry> | NotModified>>> => {
      if (!(waitMs >= 0)) throw new Error(`waitMs must be 0 or more (got ${waitMs}).`);
      for (;;) {
        try {
          return await this.transport.send<WithEtag<RequestLogEntry> | NotModified>(request, options);
        } catch (error) {
          const notYet = error instanceof NotFoundError && error.code === 'REQUEST_NOT_FOUND';
          if (!notYet || Date.now() >= deadline) throw error;
        }
        await pause(Math.min(LOOK_AGAIN_MS, deadline - Date.now()), options.signal);
      }
    };
    return new ApiPromise(lookUp());
  }
}

/** Waits `ms`, or less when `signal` cancels the call: its next attempt then throws AbortError. */
function pause(ms: number, signal: RequestOptions['signal']): Promise<void> {
  return new Promise((wake) => {
    if (signal?.aborted) return wake();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      wake();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

const petPath = (petId: number) => `/pets/${encodeURIComponent(petId)}`;
const orderPath = (orderId: number) => `/store/orders/${encodeURIComponent(orderId)}`;
const endpointPath = (endpointId: string) => `/webhook-endpoints/${encodeURIComponent(endpointId)}`;
