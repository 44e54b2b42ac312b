import { HttpStatus } from '@nestjs/common';

/** Every error code the API answers with; the document lists them on the Error schema. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'MALFORMED_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'API_KEY_EXPIRED',
  'INSUFFICIENT_SCOPE',
  'PET_NOT_FOUND',
  'ORDER_NOT_FOUND',
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'EVENT_NOT_FOUND',
  'REQUEST_NOT_FOUND',
  'REQUEST_LOG_DISABLED',
  'SANDBOX_NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'IDEMPOTENCY_KEY_IN_USE',
  'INVALID_TRANSITION',
  'PET_NOT_AVAILABLE',
  'PET_HAS_OPEN_ORDER',
  'PET_HAS_ORDERS',
  'SANDBOX_LIMIT_REACHED',
  'PRECONDITION_FAILED',
  'EXPECTATION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  /** The request's id, as in its X-Request-Id: what support asks for, kept by logs that keep only bodies. */
  requestId?: string;
}

/**
 * An error the API answers deliberately: the filter renders it as `{code, message, status,
 * requestId}` with its headers. Domain errors subclass it so that code reads like the contract. This file is a
 * leaf: every folder uses it, and it imports nothing of ours. No class here
 * reuses a name @nestjs/common exports (its PayloadTooLargeException and the like answer in
 * Nest's own shape, not ours), so an import can never pick the wrong one.
 */
export class ApiException extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** When the message tells of another resource: what a key that may not read it is told instead. */
    readonly discretion?: Discretion,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The message for a caller that holds `scopes` (none known: the discreet one, when there is one). */
  messageFor(scopes: ReadonlySet<string> | undefined): string {
    return this.discretion && !scopes?.has(this.discretion.scope) ? this.discretion.message : this.message;
  }

  /** The body to answer with, `{code, message, status, requestId}`, for a caller that holds `scopes`. */
  toBody(requestId: string, scopes?: ReadonlySet<string>): ErrorBody {
    return { code: this.code, message: this.messageFor(scopes), status: this.status, requestId };
  }
}

/**
 * A refusal whose reason lies in another resource (the pet an order asks for, the order holding a
 * pet) says it only to a key that may read that resource (`scope`); any other key is told `message`,
 * that the request cannot proceed, and nothing of the other resource's state.
 */
export interface Discretion {
  readonly scope: string;
  readonly message: string;
}

export class ValidationFailedException extends ApiException {
  constructor(message: string) {
    super(HttpStatus.BAD_REQUEST, 'VALIDATION_FAILED', message);
  }
}

export class MalformedJsonException extends ApiException {
  constructor(detail = 'The request body is not valid JSON.') {
    super(HttpStatus.BAD_REQUEST, 'MALFORMED_JSON', detail);
  }
}

export class BodyNotJsonException extends ApiException {
  constructor(detail = 'A request body must be sent with Content-Type: application/json.', headers: Record<string, string> = {}) {
    super(HttpStatus.BAD_REQUEST, 'UNSUPPORTED_MEDIA_TYPE', detail, headers);
  }
}

export class BodyTooLargeException extends ApiException {
  constructor(limitBytes: number) {
    super(HttpStatus.PAYLOAD_TOO_LARGE, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${limitBytes / 1024} KiB.`);
  }
}

export class RouteNotFoundException extends ApiException {
  constructor(method: string, path: string) {
    super(HttpStatus.NOT_FOUND, 'ROUTE_NOT_FOUND', `No route matches ${method} ${path}.`);
  }
}

export class MethodNotOnRouteException extends ApiException {
  constructor(method: string, path: string, allowed: readonly string[], headers: Record<string, string> = {}) {
    super(HttpStatus.METHOD_NOT_ALLOWED, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`, {
      Allow: allowed.join(', '),
      ...headers,
    });
  }
}

/** A request Node's HTTP parser could not read (a bad request line, header or length), or a target the service does not serve. */
export class MalformedRequestException extends ApiException {
  constructor(message = 'The request is not valid HTTP/1.1.') {
    super(HttpStatus.BAD_REQUEST, 'MALFORMED_REQUEST', message);
  }
}

export class RequestTooSlowException extends ApiException {
  constructor() {
    super(HttpStatus.REQUEST_TIMEOUT, 'REQUEST_TIMEOUT', 'The request did not arrive in time.');
  }
}

/** An `Expect` header other than `100-continue` (RFC 9110 §10.1.1). */
export class ExpectationFailedException extends ApiException {
  constructor(expectation: string) {
    super(
      HttpStatus.EXPECTATION_FAILED,
      'EXPECTATION_FAILED',
      `The service cannot meet the expectation ${JSON.stringify(expectation.slice(0, 64))}; it knows only 100-continue.`,
    );
  }
}

export class HeadersTooLargeException extends ApiException {
  constructor() {
    super(
      431, // Request Header Fields Too Large (RFC 6585); HttpStatus has no member for it
      'HEADERS_TOO_LARGE',
      'The request line and headers are larger than the server accepts (16 KiB).',
    );
  }
}

/** A request that reached an instance after it began to stop: refused before any work, so a retry is safe. */
export class ServiceStoppingException extends ApiException {
  constructor() {
    super(HttpStatus.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', 'This instance is stopping and did not process the request; retry it.', {
      'Retry-After': '1',
      Connection: 'close',
    });
  }
}

/**
 * A status move the resource does not allow from where it stands; the message names the moves it
 * allows (`subject` is "pet 3" or "order 7").
 */
export class InvalidTransitionException extends ApiException {
  constructor(subject: string, from: string, to: string, allowed: readonly string[], how = '') {
    const moves = allowed.length === 0 ? `${from} is final: it moves no more` : `from ${from} it moves to ${allowed.join(' or ')}`;
    super(HttpStatus.CONFLICT, 'INVALID_TRANSITION', `The ${subject} cannot move from ${from} to ${to}: ${moves}${how}.`);
  }
}

/** A change to a field of what is final (a delivered or cancelled order): its record is closed. */
export class FinalStateException extends ApiException {
  constructor(subject: string, status: string, field: string) {
    super(HttpStatus.CONFLICT, 'INVALID_TRANSITION', `The ${subject} is ${status}, which is final: its ${field} changes no more.`);
  }
}

/**
 * A precondition of the request failed (RFC 9110 §13.1.1, §13.1.2): an `If-Match` that names no
 * current representation, or, on a change, an `If-None-Match` that names the current one (or `*`,
 * which any current one matches). Nothing changed; the current ETag is given. `subject`: "pet 3",
 * "order 7", or the representation of a read ("page").
 */
export class PreconditionFailedException extends ApiException {
  constructor(subject: string, currentTag: string, header: 'If-Match' | 'If-None-Match' = 'If-Match', change = true) {
    const what =
      header === 'If-Match'
        ? `The ${subject} changed since the representation If-Match names`
        : `The ${subject} is a representation If-None-Match names (\`*\` names any)`;
    const outcome = change ? '; nothing was changed. Read it again (its ETag is ' : '. Its ETag is now ';
    const next = change ? ') and decide anew.' : '.';
    super(HttpStatus.PRECONDITION_FAILED, 'PRECONDITION_FAILED', `${what}${outcome}${currentTag}${next}`, { ETag: currentTag });
  }
}

export class InternalErrorException extends ApiException {
  constructor() {
    super(HttpStatus.INTERNAL_SERVER_ERROR, 'INTERNAL_ERROR', 'An unexpected error occurred.');
  }
}
