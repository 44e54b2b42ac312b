import { type AnswerHeaders, NOT_MODIFIED, type RawResponse, type WithRequestId, withRequestId } from './api-promise.js';
import { AbortError, ConnectionError, errorOfAnswer, PetStoreError, TimeoutError } from './errors.js';
import type { Log } from './logging.js';
import { CLIENT_VERSION } from './version.js';

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
  readonly headers: AnswerHeaders;
  text(): Promise<string>;
}

/** An AbortSignal (the DOM's, Node's, `AbortSignal.timeout()`'s): the part the client uses, declared for the reason Fetch is. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What one call may set for itself, over the client's options. */
export interface RequestOptions {
  /** How long each attempt of this call may wait for its answer, in ms (the client's timeoutMs). */
  readonly timeoutMs?: number;
  /** How many times this call is retried when a retry is safe and may help (the client's maxRetries). */
  readonly maxRetries?: number;
  /** Headers sent with this call, over the client's extraHeaders and its own (names compared whatever their case). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** Cancels the call, whether an attempt is in flight or it waits to retry: it then throws AbortError. */
  readonly signal?: AbortSignalLike;
}

export interface TransportOptions {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeoutMs: number;
  readonly maxRetryAfterMs: number;
  readonly extraHeaders: Readonly<Record<string, string>>;
  readonly fetch: Fetch;
  readonly log: Log;
}

/** A query parameter's value: undefined leaves it out; an object (a listing's `metadata` filter) is sent as `name[key]=value`, OpenAPI's deepObject. */
export type QueryValue = string | number | Readonly<Record<string, string>> | undefined;

/** A request to the API: the path under the base URL (`/pets`), its query, its JSON body. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
  /** The body's media type when it is not plain JSON (a PATCH's `application/merge-patch+json`). */
  readonly contentType?: string;
  /** Sent on the first attempt and on every retry, so that a create or a change happens once. */
  readonly idempotencyKey?: string;
  /** The ETag the change is held to: 412 PRECONDITION_FAILED, nothing changed, when it is no longer current. */
  readonly ifMatch?: string;
  /** The ETag held: a 304 is answered as NOT_MODIFIED. */
  readonly ifNoneMatch?: string;
}

/** One call as it is sent: the client's options with the call's own over them. */
interface Call {
  /** `METHOD /path?query`, as the log names the call. */
  readonly label: string;
  readonly url: string;
  readonly attempts: number;
  readonly timeoutMs: number;
  readonly headers: Record<string, string>;
  readonly signal: AbortSignalLike | undefined;
}

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/**
 * Sends requests with the API key, a time-out per attempt, and retries where a retry is safe and
 * may help: no answer at all, 409 IDEMPOTENCY_KEY_IN_USE, 429, 502, 503, 504; waiting the
 * Retry-After asked for (one over maxRetryAfterMs is thrown at once: a retry sooner than asked
 * would only be refused again), else backing off exponentially with jitter. A POST or a PATCH is
 * retried only with its Idempotency-Key (every create, change and cancel of this client has one),
 * so that it never happens twice; any other 4xx is never retried. A 304 (the call sent
 * If-None-Match) is no error: it answers NOT_MODIFIED. Logs each attempt, answer and wait (logging.ts).
 */
export class Transport {
  constructor(readonly options: TransportOptions) {}

  async send<T>(request: ApiRequest, options: RequestOptions = {}): Promise<RawResponse<WithRequestId<T>>> {
    const call = this.call(request, options);
    for (let attempt = 1; ; attempt++) {
      let error: PetStoreError;
      try {
        return await this.attempt<T>(request, call, attempt);
      } catch (caught) {
        if (!(caught instanceof PetStoreError) || caught instanceof AbortError) throw caught;
        error = caught;
      }
      const delay = this.delayBeforeRetry(request, call, attempt, error);
      if (delay === undefined) throw error;
      await this.sleep(delay, call);
    }
  }

  private call(request: ApiRequest, options: RequestOptions): Call {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (typeof value === 'object') for (const [key, member] of Object.entries(value)) search.set(`${name}[${key}]`, member);
      else if (value !== undefined) search.set(name, String(value));
    }
    const query = search.toString();
    const target = query === '' ? request.path : `${request.path}?${query}`;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'application/json',
      'User-Agent': `petstore-typescript/${CLIENT_VERSION}`,
    };
    if (request.body !== undefined) headers['Content-Type'] = request.contentType ?? 'application/json';
    if (request.idempotencyKey !== undefined) headers['Idempotency-Key'] = request.idempotencyKey;
    if (request.ifMatch !== undefined) headers['If-Match'] = request.ifMatch;
    if (request.ifNoneMatch !== undefined) headers['If-None-Match'] = request.ifNoneMatch;
    return {
      label: `${request.method} ${target}`,
      url: `${this.options.baseUrl}${target}`,
      attempts: checkedMaxRetries(options.maxRetries ?? this.options.maxRetries) + 1,
      timeoutMs: checkedTimeoutMs(options.timeoutMs ?? this.options.timeoutMs),
      headers: withHeaders(withHeaders(headers, this.options.extraHeaders), options.extraHeaders ?? {}),
      signal: options.signal,
    };
  }

  private async attempt<T>(request: ApiRequest, call: Call, attempt: number): Promise<RawResponse<WithRequestId<T>>> {
    const { log } = this.options;
    const which = `(attempt ${attempt} of ${call.attempts})`;
    if (call.signal?.aborted) throw this.cancelled(call, `before ${which.slice(1, -1)}`);
    const key = request.idempotencyKey === undefined ? '' : `, Idempotency-Key ${request.idempotencyKey}`;
    log.debug(`${call.label}: sending (attempt ${attempt} of ${call.attempts}${key})`);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), call.timeoutMs);
    const cancel = () => controller.abort();
    call.signal?.addEventListener('abort', cancel, { once: true });
    const started = Date.now();
    let response: FetchResponse;
    let text: string;
    try {
      response = await this.options.fetch(call.url, {
        method: request.method,
        headers: call.headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (cause) {
      if (call.signal?.aborted) throw this.cancelled(call, `after ${Date.now() - started} ms ${which}`);
      const error = controller.signal.aborted
        ? new TimeoutError(`No answer within ${call.timeoutMs} ms: ${call.label}.`, { cause })
        : new ConnectionError(`No answer: ${call.label} (${describe(cause)}).`, { cause });
      log.info(`${call.label}: no answer after ${Date.now() - started} ms, ${error.name} ${which}`);
      throw error;
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', cancel);
    }
    const elapsed = Date.now() - started;
    const body = parseJson(text);
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const etag = response.headers.get('etag') ?? undefined;
    if (response.status >= 200 && response.status < 300) {
      log.info(`${call.label}: ${response.status} in ${elapsed} ms, request ${requestId ?? 'unnamed'} ${which}`);
      return { data: withRequestId<T>(body, requestId, etag), status: response.status, headers: response.headers, requestId };
    }
    if (response.status === 304) {
      // What If-None-Match asked to be told: the representation held is current. Neither an error nor worth a retry.
      log.info(`${call.label}: 304 Not Modified in ${elapsed} ms, request ${requestId ?? 'unnamed'} ${which}`);
      return { data: NOT_MODIFIED as WithRequestId<T>, status: 304, headers: response.headers, requestId };
    }
    const error = errorOfAnswer(response.status, body, response.headers.get('retry-after'), requestId ?? null, etag ?? null);
    const status = [response.status, error.code].filter(Boolean).join(' ');
    log.info(`${call.label}: ${status} in ${elapsed} ms, request ${error.requestId ?? 'unnamed'} ${which}`);
    throw error;
  }

  /** Milliseconds to wait before the attempt after `attempt`, or undefined when `error` is final. */
  private delayBeforeRetry(request: ApiRequest, call: Call, attempt: number, error: PetStoreError): number | undefined {
    if (attempt >= call.attempts || !isRetryable(error, request)) return undefined;
    const next = `attempt ${attempt + 1} of ${call.attempts}`;
    if (error.retryAfter !== undefined) {
      const { maxRetryAfterMs } = this.options;
      if (error.retryAfter * 1000 > maxRetryAfterMs) {
        this.options.log.info(
          `${call.label}: not waiting the ${error.retryAfter} s Retry-After asks, over maxRetryAfterMs (${maxRetryAfterMs} ms): ${error.name} thrown`,
        );
        return undefined;
      }
      this.options.log.info(`${call.label}: waiting ${error.retryAfter} s, as Retry-After asks, before ${next}`);
      return error.retryAfter * 1000;
    }
    // 0.5 s, 1 s, 2 s, … up to 8 s, less up to half at random, so that clients failed together do not retry together.
    const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS) * (1 - Math.random() / 2);
    this.options.log.info(`${call.label}: waiting ${(backoff / 1000).toFixed(2)} s before ${next}`);
    return backoff;
  }

  /** Waits `ms`, unless the call's signal cancels it first. */
  private sleep(ms: number, call: Call): Promise<void> {
    return new Promise((wake, fail) => {
      const cancel = () => {
        clearTimeout(timer);
        fail(this.cancelled(call, 'while waiting to retry'));
      };
      const timer = setTimeout(() => {
        call.signal?.removeEventListener('abort', cancel);
        wake();
      }, ms);
      if (call.signal?.aborted) cancel();
      else call.signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  private cancelled(call: Call, when: string): AbortError {
    this.options.log.info(`${call.label}: cancelled ${when}`);
    return new AbortError(`Cancelled: ${call.label}.`, { cause: call.signal?.reason });
  }
}

export function checkedMaxRetries(maxRetries: number): number {
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new Error(`maxRetries must be a whole number of 0 or more (got ${maxRetries}).`);
  return maxRetries;
}

export function checkedTimeoutMs(timeoutMs: number): number {
  if (!(timeoutMs > 0)) throw new Error(`timeoutMs must be more than 0 (got ${timeoutMs}).`);
  return timeoutMs;
}

/** `headers` with `extra` over them; a name given in another case replaces the header rather than doubling it. */
export function withHeaders(headers: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>>): Record<string, string> {
  const merged = { ...headers };
  for (const [name, value] of Object.entries(extra)) {
    for (const existing of Object.keys(merged)) if (existing.toLowerCase() === name.toLowerCase()) delete merged[existing];
    merged[name] = value;
  }
  return merged;
}

function isRetryable(error: PetStoreError, request: ApiRequest): boolean {
  // Sent twice, a POST or a PATCH may happen twice (or find itself refused by what the first did), unless the service knows its key.
  if ((request.method === 'POST' || request.method === 'PATCH') && request.idempotencyKey === undefined) return false;
  if (error.status === undefined) return true;
  if (error.status === 409) return error.code === 'IDEMPOTENCY_KEY_IN_USE';
  return [429, 502, 503, 504].includes(error.status);
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
