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
