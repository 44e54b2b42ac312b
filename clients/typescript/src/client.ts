import { Events, Pets, Store, WebhookEndpoints } from './resources.js';
import { type Fetch, Transport } from './transport.js';
import { webhooks } from './webhooks.js';

/** The first server of the service's committed document (openapi.json): a service started with its defaults. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/v1';

export interface PetStoreOptions {
  /** An API key of the service (psk_…); PETSTORE_API_KEY when left out. */
  readonly apiKey?: string;
  /** The service's base URL, ending in /v1; PETSTORE_BASE_URL when left out, else DEFAULT_BASE_URL. */
  readonly baseUrl?: string;
  /** How many times a call is retried when a retry is safe and may help (2). */
  readonly maxRetries?: number;
  /** How long one attempt may wait for its answer, in ms (30,000). */
  readonly timeoutMs?: number;
  /** A fetch of your own; Node 22+'s when left out. */
  readonly fetch?: Fetch;
}

/**
 * The Pet Store API. `new PetStore()` reads PETSTORE_API_KEY and PETSTORE_BASE_URL; every method
 * throws a PetStoreError subclass when the call fails (errors.ts).
 */
export class PetStore {
  readonly pets: Pets;
  readonly store: Store;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  /** Checks a delivery's signature (also exported on its own: a receiver needs no API key). */
  readonly webhooks = webhooks;

  constructor({ apiKey = environment('PETSTORE_API_KEY'), baseUrl, maxRetries = 2, timeoutMs = 30_000, fetch }: PetStoreOptions = {}) {
    if (!apiKey) throw new Error('PetStore needs an API key: give apiKey, or set PETSTORE_API_KEY.');
    const base = (baseUrl ?? environment('PETSTORE_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (!Number.isInteger(maxRetries) || maxRetries < 0)
      throw new Error(`maxRetries must be a whole number of 0 or more (got ${maxRetries}).`);
    if (!(timeoutMs > 0)) throw new Error(`timeoutMs must be more than 0 (got ${timeoutMs}).`);
    const transport = new Transport({ apiKey, baseUrl: base, maxRetries, timeoutMs, fetch: fetch ?? defaultFetch() });
    this.pets = new Pets(transport);
    this.store = new Store(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.events = new Events(transport);
  }
}

/** A variable of the process's environment, where there is one (Node); undefined elsewhere or when empty. */
function environment(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return value === '' ? undefined : value;
}

function defaultFetch(): Fetch {
  const fetch = (globalThis as { fetch?: Fetch }).fetch;
  if (!fetch) throw new Error('No global fetch (Node 22+ has one): give PetStore a fetch option.');
  return fetch.bind(globalThis);
}
