import { ERROR_CODES_BY_STATUS } from './error-codes.js';
import type { components } from './openapi.js';

/** Every code the service answers errors with, as its document lists them. */
export type ErrorCode = components['schemas']['Error']['code'];

/** The codes an error answer of `status` carries, as the document lists them (none for a status it never answers). */
export type ErrorCodeOf<Status extends number> = Status extends keyof typeof ERROR_CODES_BY_STATUS
  ? (typeof ERROR_CODES_BY_STATUS)[Status][number]
  : never;

/** What an error answer said, when one came. */
export interface ErrorDetails {
  readonly status?: number;
  readonly code?: ErrorCode;
  readonly requestId?: string;
  readonly retryAfter?: number;
  /** The ETag of the representation as it stands now, which a 412 PRECONDITION_FAILED carries. */
  readonly currentEtag?: string;
  readonly cause?: unknown;
}

/**
 * Every error this client throws. `status`, `code` and `requestId` are the service's (undefined when
 * no answer came); quote `requestId` to support, or find the call in the request log:
 * `await petstore.requests.get(error.requestId, { waitMs: 2_000 })`. Each subclass types `status` as its own and `code`
 * as the codes that status carries (undefined when the answer was not the service's Error, say a
 * proxy's page), so `if (error instanceof NotFoundError)` narrows both. `retryAfter` is the seconds the service asked to
 * wait, when it said (429, 503, 409 while a create with the same Idempotency-Key runs).
 */
export class PetStoreError extends Error {
  override readonly name: string = 'PetStoreError';
  readonly status: number | undefined;
  readonly code: ErrorCode | undefined;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
    this.retryAfter = details.retryAfter;
  }
}

/** 400: the request is not valid (VALIDATION_FAILED and its kin); the message names what. */
export class BadRequestError extends PetStoreError {
  override readonly name = 'BadRequestError';
  declare readonly status: 400;
  declare readonly code: ErrorCodeOf<400> | undefined;
}

/** 401: no API key, an unknown or revoked one (API_KEY_INVALID), or an expired one (API_KEY_EXPIRED). */
export class AuthenticationError extends PetStoreError {
  override readonly name = 'AuthenticationError';
  declare readonly status: 401;
  declare readonly code: ErrorCodeOf<401> | undefined;
}

/** 403: the API key does not hold the scope the operation needs (INSUFFICIENT_SCOPE). */
export class PermissionDeniedError extends PetStoreError {
  override readonly name = 'PermissionDeniedError';
  declare readonly status: 403;
  declare readonly code: ErrorCodeOf<403> | undefined;
}

/** 404: no such pet, order, webhook endpoint, event or logged request (PET_NOT_FOUND, ORDER_NOT_FOUND, …); a pet deleted is not found. */
export class NotFoundError extends PetStoreError {
  override readonly name = 'NotFoundError';
  declare readonly status: 404;
  declare readonly code: ErrorCodeOf<404> | undefined;
}

/**
 * 409: the change does not fit where the pet or order stands: a status move it cannot make
 * (INVALID_TRANSITION: sold, delivered and cancelled are final), an order for a pet that is not
 * available (PET_NOT_AVAILABLE), a pet's status changed while an open order holds it
 * (PET_HAS_OPEN_ORDER), a pet deleted that orders name (PET_HAS_ORDERS); the message says which
 * moves remain. Never retried, but for IDEMPOTENCY_KEY_IN_USE: a request with the same
 * Idempotency-Key still being carried out, retried by the client after its Retry-After.
 */
export class ConflictError extends PetStoreError {
  override readonly name = 'ConflictError';
  declare readonly status: 409;
  declare readonly code: ErrorCodeOf<409> | undefined;
}

/**
 * 412: the `ifMatch` given names a representation that is no longer current: the pet or order
 * changed since you read it, and nothing was changed now (PRECONDITION_FAILED). `currentEtag` is
 * its ETag as it stands; read it again, decide anew, and send that. Never retried.
 */
export class PreconditionFailedError extends PetStoreError {
  override readonly name = 'PreconditionFailedError';
  declare readonly status: 412;
  declare readonly code: ErrorCodeOf<412> | undefined;
  /** The ETag of the pet or order as it stands now (the answer's ETag header), when the answer had one. */
  readonly currentEtag: string | undefined;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details);
    this.currentEtag = details.currentEtag;
  }
}

/** 422: the Idempotency-Key was used with another body (IDEMPOTENCY_KEY_REUSED). */
export class UnprocessableEntityError extends PetStoreError {
  override readonly name = 'UnprocessableEntityError';
  declare readonly status: 422;
  declare readonly code: ErrorCodeOf<422> | undefined;
}

/** 429: over the API key's rate limit (retried by the client after Retry-After). */
export class RateLimitError extends PetStoreError {
  override readonly name = 'RateLimitError';
  declare readonly status: 429;
  declare readonly code: ErrorCodeOf<429> | undefined;
}

/** 500: the service failed unexpectedly; requestId lets support find it. */
export class InternalServerError extends PetStoreError {
  override readonly name = 'InternalServerError';
  declare readonly status: 500;
  declare readonly code: ErrorCodeOf<500> | undefined;
}

/** 503 (and a gateway's 502 or 504): the service or its database cannot answer now (retried by the client). */
export class ServiceUnavailableError extends PetStoreError {
  override readonly name = 'ServiceUnavailableError';
  declare readonly status: 502 | 503 | 504;
  declare readonly code: ErrorCodeOf<502 | 503 | 504> | undefined;
}

/** No answer came: the connection failed or was cut. A create may have been carried out; the client retries it with its Idempotency-Key. */
export class ConnectionError extends PetStoreError {
  override readonly name: string = 'ConnectionError';
  declare readonly status: undefined;
  declare readonly code: undefined;
  declare readonly requestId: undefined;
}

/** No answer came within `timeoutMs`. */
export class TimeoutError extends ConnectionError {
  override readonly name = 'TimeoutError';
}

/**
 * The call's `signal` cancelled it: nothing more is sent and no retry follows, though an attempt
 * already sent may have been carried out. `cause` is the signal's reason. Named as fetch names its
 * own, so that `error.name === 'AbortError'` checks keep working.
 */
export class AbortError extends PetStoreError {
  override readonly name = 'AbortError';
  declare readonly status: undefined;
  declare readonly code: undefined;
  declare readonly requestId: undefined;
}

const BY_STATUS: Readonly<Record<number, new (message: string, details: ErrorDetails) => PetStoreError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  500: InternalServerError,
  502: ServiceUnavailableError,
  503: ServiceUnavailableError,
  504: ServiceUnavailableError,
};

/** The error for an answer of `status` whose body is the service's Error (or, from a proxy, anything). */
export function errorOfAnswer(
  status: number,
  body: unknown,
  retryAfterHeader: string | null,
  requestIdHeader: string | null,
  etagHeader: string | null = null,
): PetStoreError {
  const error = (typeof body === 'object' && body !== null ? body : {}) as Partial<components['schemas']['Error']>;
  const retryAfter = retryAfterHeader !== null && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  const details: ErrorDetails = {
    status,
    code: isCodeOf(status, error.code) ? error.code : undefined,
    requestId: error.requestId ?? requestIdHeader ?? undefined,
    retryAfter,
    currentEtag: etagHeader ?? undefined,
  };
  const message = typeof error.message === 'string' ? error.message : `The service answered ${status}.`;
  const ErrorClass = BY_STATUS[status] ?? PetStoreError;
  return new ErrorClass(message, details);
}

/** Whether `code` is one the document lists for `status`: a code it does not (a proxy's body, a newer service's) is left out. */
function isCodeOf(status: number, code: unknown): code is ErrorCode {
  const codes: readonly string[] | undefined = ERROR_CODES_BY_STATUS[status as keyof typeof ERROR_CODES_BY_STATUS];
  return codes !== undefined && codes.includes(code as string);
}
