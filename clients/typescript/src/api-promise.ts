/** The headers of an answer, read by name whatever their case (a fetch `Headers`). */
export interface AnswerHeaders {
  get(name: string): string | null;
}

/** What the API answered a call: its status and headers, beside the result the call itself gives. */
export interface RawResponse<T> {
  /** The result, as awaiting the call gives it. */
  readonly data: T;
  readonly status: number;
  /** X-Request-Id, ETag, RateLimit, Location and Idempotent-Replayed on a create or a replayed change, Deprecation and Sunset, … */
  readonly headers: AnswerHeaders;
  /** The answer's X-Request-Id: quote it to support. */
  readonly requestId: string | undefined;
}

/**
 * A result object with the X-Request-Id of its answer as `_request_id`. The property is not
 * enumerable, so the result's JSON, spread and keys stay the API's; arrays and numbers carry none
 * (a page has its own, `withResponse()` has every call's). A type that names `_request_id` itself
 * (PetAnswer, OrderAnswer, Page) is that type, so that an editor shows its name.
 */
export type WithRequestId<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? '_request_id' extends keyof T
      ? T
      : T & { readonly _request_id?: string }
    : T;

/**
 * `T` with the answer's `ETag` as `_etag`, not enumerable, as `_request_id`. PetAnswer and
 * OrderAnswer are the pets and orders the calls answer, with both.
 */
export type WithEtag<T> = T & { readonly _etag?: string };

/**
 * What a conditional read (`ifNoneMatch`) answers when the representation you hold is still
 * current: the service said `304 Not Modified`, with no body. Compare with `===`; one value for the
 * whole process (a registered symbol), whether the SDK was loaded by `import` or `require`.
 * `withResponse()` still has the answer's status (304), headers and request id.
 */
export const NOT_MODIFIED: unique symbol = Symbol.for('@petstore/client.NOT_MODIFIED');
export type NotModified = typeof NOT_MODIFIED;

/** Gives a parsed answer body its `_request_id` and, when the answer had one, its `_etag`; neither enumerable. */
export function withRequestId<T>(body: unknown, requestId: string | undefined, etag?: string): WithRequestId<T> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    Object.defineProperty(body, '_request_id', { value: requestId, enumerable: false });
    if (etag !== undefined) Object.defineProperty(body, '_etag', { value: etag, enumerable: false });
  }
  return body as WithRequestId<T>;
}

/**
 * A call on its way: awaited, its result; `withResponse()`, the whole answer (status, headers,
 * request id) with it. The request is sent when the method is called, as an async method's is.
 */
export class ApiPromise<T> implements Promise<WithRequestId<T>> {
  readonly [Symbol.toStringTag] = 'ApiPromise';

  constructor(private readonly answer: Promise<RawResponse<WithRequestId<T>>>) {}

  /** The answer's status, headers and request id, with the result as `data`. */
  withResponse(): Promise<RawResponse<WithRequestId<T>>> {
    return this.answer;
  }

  then<Fulfilled = WithRequestId<T>, Rejected = never>(
    onFulfilled?: ((result: WithRequestId<T>) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.result().then(onFulfilled, onRejected);
  }

  catch<Rejected = never>(
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<WithRequestId<T> | Rejected> {
    return this.result().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<WithRequestId<T>> {
    return this.result().finally(onFinally);
  }

  /** Made when asked for, so that a caller who only reads withResponse() leaves no rejection unhandled. */
  private result(): Promise<WithRequestId<T>> {
    return this.answer.then(({ data }) => data);
  }
}
