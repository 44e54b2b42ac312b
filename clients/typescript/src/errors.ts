import type { components } from './openapi.js';

/** Every code the service answers errors with, as its document lists them. */
export type ErrorCode = components['schemas']['Error']['code'];

/** What an error answer said, when one came. */
export interface ErrorDetails {
  readonly status?: number;
  readonly code?: ErrorCode;
  readonly requestId?: string;
  readonly retryAfter?: number;
  readonly cause?: unknown;
}

/**
 * Every error this client throws. `status`, `code` and `requestId` are the service's (undefined when
 * no answer came); quote `requestId` to support. `retryAfter` is the seconds the service asked to
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
}

/** 401: no API key, an unknown or revoked one (API_KEY_INVALID), or an expired one (API_KEY_EXPIRED). */
export class AuthenticationError extends PetStoreError {
  override readonly name = 'AuthenticationError';
}

/** 403: the API key does not hold the scope the operation needs (INSUFFICIENT_SCOPE). */
export class PermissionDeniedError extends PetStoreError {
  override readonly name = 'PermissionDeniedError';
}

/** 404: no such pet or order (PET_NOT_FOUND, ORDER_NOT_FOUND). */
export class NotFoundError extends PetStoreError {
  override readonly name = 'NotFoundError';
}

/** 409: a create with the same Idempotency-Key is still being carried out (retried by the client). */
export class ConflictError extends PetStoreError {
  override readonly name = 'ConflictError';
}

/** 422: the Idempotency-Key was used with another body (IDEMPOTENCY_KEY_REUSED). */
export class UnprocessableEntityError extends PetStoreError {
  override readonly name = 'UnprocessableEntityError';
}

/** 429: over the API key's rate limit (retried by the client after Retry-After). */
export class RateLimitError extends PetStoreError {
  override readonly name = 'RateLimitError';
}

/** 500: the service failed unexpectedly; requestId lets support find it. */
export class InternalServerError extends PetStoreError {
  override readonly name = 'InternalServerError';
}

/** 503 (and a gateway's 502 or 504): the service or its database cannot answer now (retried by the client). */
export class ServiceUnavailableError extends PetStoreError {
  override readonly name = 'ServiceUnavailableError';
}

/** No answer came: the connection failed or was cut. A create may have been carried out; the client retries it with its Idempotency-Key. */
export class ConnectionError extends PetStoreError {
  override readonly name: string = 'ConnectionError';
}

/** No answer came within `timeoutMs`. */
export class TimeoutError extends ConnectionError {
  override readonly name = 'TimeoutError';
}

const BY_STATUS: Readonly<Record<number, new (message: string, details: ErrorDetails) => PetStoreError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
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
): PetStoreError {
  const error = (typeof body === 'object' && body !== null ? body : {}) as Partial<components['schemas']['Error']>;
  const retryAfter = retryAfterHeader !== null && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  const details: ErrorDetails = {
    status,
    code: error.code,
    requestId: error.requestId ?? requestIdHeader ?? undefined,
    retryAfter,
  };
  const message = typeof error.message === 'string' ? error.message : `The service answered ${status}.`;
  const ErrorClass = BY_STATUS[status] ?? PetStoreError;
  return new ErrorClass(message, details);
}
