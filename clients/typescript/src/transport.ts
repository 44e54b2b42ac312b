import { ConnectionError, errorOfAnswer, PetStoreError, TimeoutError } from './errors.js';

/**
 * The `fetch` this client calls: Node 22+'s own by default, any implementation of this shape
 * otherwise. Declared here, not taken from the DOM's or Node's types, so that the package's types
 * need neither.
 */
export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: unknown;
}

export interface FetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface TransportOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly fetch: Fetch;
}

/** A request to the API: the path under the base URL (`/pets`), its query, its JSON body. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query?: Record<string, string | number | undefined>;
  readonly body?: unknown;
  /** Sent on the first attempt and on every retry, so that a create happens once. */
  readonly idempotencyKey?: string;
}

/** What the API answered: the parsed body and the headers (for Link). */
export interface ApiAnswer<T> {
  readonly data: T;
  readonly headers: FetchResponse['headers'];
}

/** A Retry-After longer than this is not waited for: the error is thrown at once, with its retryAfter (a retry sooner than asked would only be refused again). */
const MAX_RETRY_AFTER_MS = 30_000;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** The package's version: its package.json's, and the API version it was made for (a unit test keeps them equal). */
export const CLIENT_VERSION = '1.3.0';

/**
 * Sends requests with the API key, a time-out per attempt, and retries where a retry is safe and
 * may help: no answer at all, 409 IDEMPOTENCY_KEY_IN_USE, 429, 502, 503, 504; waiting the
 * Retry-After asked for (one over 30 s is thrown at once), else backing off exponentially with jitter. A POST is retried only with its
 * Idempotency-Key (every create of this client has one), so that it never happens twice; any other
 * 4xx is never retried.
 */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  async send<T>(request: ApiRequest): Promise<ApiAnswer<T>> {
    for (let attempt = 0; ; attempt++) {
      let error: PetStoreError;
      try {
        return await this.attempt<T>(request);
      } catch (caught) {
        if (!(caught instanceof PetStoreError)) throw caught;
        error = caught;
      }
      const delay =
        attempt < this.options.maxRetries && isRetryable(error, request) ? delayBefore(attempt + 1, error.retryAfter) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay);
    }
  }

  /** The absolute URL of a path and query under the base URL. */
  url(path: string, query: ApiRequest['query'] = {}): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const rest = search.toString();
    return `${this.options.baseUrl}${path}${rest === '' ? '' : `?${rest}`}`;
  }

  private async attempt<T>(request: ApiRequest): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'application/json',
      'User-Agent': `petstore-typescript/${CLIENT_VERSION}`,
    };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    if (request.idempotencyKey !== undefined) headers['Idempotency-Key'] = request.idempotencyKey;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    let response: FetchResponse;
    let text: string;
    try {
      response = await this.options.fetch(this.url(request.path, request.query), {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (cause) {
      throw controller.signal.aborted
        ? new TimeoutError(`No answer within ${this.options.timeoutMs} ms: ${request.method} ${request.path}.`, { cause })
        : new ConnectionError(`No answer: ${request.method} ${request.path} (${describe(cause)}).`, { cause });
    } finally {
      clearTimeout(timer);
    }
    const body = parseJson(text);
    if (response.status >= 200 && response.status < 300) return { data: body as T, headers: response.headers };
    throw errorOfAnswer(response.status, body, response.headers.get('retry-after'), response.headers.get('x-request-id'));
  }
}

function isRetryable(error: PetStoreError, request: ApiRequest): boolean {
  if (request.method === 'POST' && request.idempotencyKey === undefined) return false;
  if (error.status === undefined) return true;
  if (error.status === 409) return error.code === 'IDEMPOTENCY_KEY_IN_USE';
  return [429, 502, 503, 504].includes(error.status);
}

/** Before retry `n` (1, 2, …): the Retry-After asked for (none over 30 s), else 0.5 s, 1 s, 2 s, … up to 8 s, less up to half at random. */
function delayBefore(n: number, retryAfterSeconds: number | undefined): number | undefined {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000 <= MAX_RETRY_AFTER_MS ? retryAfterSeconds * 1000 : undefined;
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (n - 1), MAX_BACKOFF_MS);
  return backoff * (1 - Math.random() / 2);
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(cause: unknown): string {
  const reason = (cause as { cause?: { code?: string } } | undefined)?.cause?.code;
  return reason ?? (cause instanceof Error ? cause.message : String(cause));
}

const sleep = (ms: number) => new Promise<void>((wake) => setTimeout(wake, ms));
