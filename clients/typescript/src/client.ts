import { consoleLogger, Log, type Logger, type LogLevel, logLevelOf } from './logging.js';
import { Events, Pets, Requests, Store, WebhookEndpoints } from './resources.js';
import { Sandboxes } from './sandboxes.js';
import { checkedMaxRetries, checkedTimeoutMs, type Fetch, Transport, withHeaders } from './transport.js';
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
  /** The longest Retry-After a call waits for, in ms (30,000): asked for longer, it throws at once, with `retryAfter`, for you to choose. */
  readonly maxRetryAfterMs?: number;
  /** Headers sent with every call (a call's own extraHeaders go over them). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** A fetch of your own; Node 22+'s when left out. */
  readonly fetch?: Fetch;
  /** Where the client says what it did (logging.ts): the console's stderr when left out. */
  readonly logger?: Logger;
  /** `info` or `debug` to log; PETSTORE_LOG when left out, else `off`. */
  readonly logLevel?: LogLevel;
}

/** A client's options as withOptions() changes them: all but its fetch, which the clients share. */
export type ClientOptions = Omit<PetStoreOptions, 'fetch'>;

/**
 * The Pet Store API. `new PetStore()` reads PETSTORE_API_KEY, PETSTORE_BASE_URL and PETSTORE_LOG;
 * every method throws a PetStoreError subclass when the call fails (errors.ts), and takes the
 * call's own options last (RequestOptions: timeoutMs, maxRetries, extraHeaders, signal).
 */
export class PetStore {
  readonly pets: Pets;
  readonly store: Store;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  /** The request log: what the service answered your key's calls; an error's `requestId` finds its call there. */
  readonly requests: Requests;
  /** Environments of their own for tests (a live key manages them); `forTest()` makes one with a client bound to it. */
  readonly sandboxes: Sandboxes;
  /** Checks a delivery's signature (also exported on its own: a receiver needs no API key). */
  readonly webhooks = webhooks;
  /** What this client was made with, the environment read: what withOptions() starts from. */
  private readonly settings: Required<Omit<PetStoreOptions, 'logLevel'>> & { readonly logLevel: LogLevel };

  constructor(options: PetStoreOptions = {}) {
    const apiKey = options.apiKey ?? environment('PETSTORE_API_KEY');
    if (!apiKey) throw new Error('PetStore needs an API key: give apiKey, or set PETSTORE_API_KEY.');
    const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
    if (!(maxRetryAfterMs >= 0)) throw new Error(`maxRetryAfterMs must be 0 or more (got ${maxRetryAfterMs}).`);
    this.settings = {
      apiKey,
      baseUrl: (options.baseUrl ?? environment('PETSTORE_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
      maxRetries: checkedMaxRetries(options.maxRetries ?? 2),
      timeoutMs: checkedTimeoutMs(options.timeoutMs ?? 30_000),
      maxRetryAfterMs,
      extraHeaders: { ...options.extraHeaders },
      fetch: options.fetch ?? defaultFetch(),
      logger: options.logger ?? consoleLogger,
      logLevel: logLevelOf(options.logLevel, environment('PETSTORE_LOG')),
    };
    const { logger, logLevel, ...rest } = this.settings;
    const transport = new Transport({ ...rest, log: new Log(logger, logLevel) });
    this.pets = new Pets(transport);
    this.store = new Store(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.events = new Events(transport);
    this.requests = new Requests(transport);
    this.sandboxes = new Sandboxes(transport, (sandboxKey) => this.withOptions({ apiKey: sandboxKey }));
  }

  /**
   * A client of these options over this one's (extraHeaders added to its own), sharing its fetch
   * and so its connections: `petstore.withOptions({ timeoutMs: 5_000, maxRetries: 0 }).pets.list()`.
   */
  withOptions(options: ClientOptions): PetStore {
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    return new PetStore({ ...this.settings, ...given, extraHeaders: withHeaders(this.settings.extraHeaders, options.extraHeaders ?? {}) });
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
