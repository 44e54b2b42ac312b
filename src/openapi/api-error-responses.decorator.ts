import { applyDecorators } from '@nestjs/common';
import { ApiResponse, type HeadersObject } from '@nestjs/swagger';
import type { ErrorBody, ErrorCode } from '../errors/api-exception.js';
import { ErrorDto } from '../errors/error.dto.js';

/**
 * Why an operation answers with a code, in a sentence, and, where the code's messages depend on
 * the operation (VALIDATION_FAILED names its fields), a message this operation really sends; the
 * document shows them under the code's status.
 */
export type ErrorReasons = Partial<Record<Exclude<ErrorCode, 'VALIDATION_FAILED'>, string | ReasonWithExample>> & {
  readonly VALIDATION_FAILED?: ReasonWithExample;
};

interface ReasonWithExample {
  readonly reason: string;
  readonly example: string;
}

const RETRY_AFTER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
};

/** Each code's status and a message it comes with: the example the document shows for the code. */
const EXAMPLES: Record<ErrorCode, Omit<ErrorBody, 'code'>> = {
  // Each operation that answers it gives a message of its own (ErrorReasons).
  VALIDATION_FAILED: { status: 400, message: '' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  MALFORMED_REQUEST: { status: 400, message: 'The request is not valid HTTP/1.1.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 400, message: 'A request body must be sent with Content-Type: application/json.' },
  API_KEY_MISSING: { status: 401, message: 'An API key is required: send it as Authorization: Bearer <API_KEY>.' },
  API_KEY_INVALID: { status: 401, message: 'The API key is not valid.' },
  API_KEY_EXPIRED: {
    status: 401,
    message: 'The API key expired at 2027-03-31T23:59:59Z; use the key that replaced it, or ask for a new one.',
  },
  INSUFFICIENT_SCOPE: { status: 403, message: 'This API key does not hold the scope pets:write, which this operation needs.' },
  PET_NOT_FOUND: { status: 404, message: 'No pet has id 42.' },
  ORDER_NOT_FOUND: { status: 404, message: 'No order has id 42.' },
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, message: 'No webhook endpoint has id "we_3q8kF0aZ1x2Yb7Lm".' },
  EVENT_NOT_FOUND: { status: 404, message: 'No event has id "evt_2b7Vq0kQm9XcRz1L8hNw".' },
  REQUEST_NOT_FOUND: { status: 404, message: 'No request of this API key has id "4f1c2d9e-0b7a-4c55-9e1f-3a2b6c8d0e17".' },
  REQUEST_LOG_DISABLED: { status: 404, message: 'This service keeps no request log: its operator turned it off.' },
  SANDBOX_NOT_FOUND: { status: 404, message: 'No sandbox has id "sbx_Q3v8kF0aZ1x2Yb7LmN4pRw".' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No route matches GET /v1/pet.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'DELETE is not allowed on /v1/pets; allowed: GET, POST.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time.' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: 'A request with this Idempotency-Key is still being processed; retry in a moment.' },
  INVALID_TRANSITION: { status: 409, message: 'The pet 42 cannot move from sold to available: sold is final: it moves no more.' },
  PET_NOT_AVAILABLE: { status: 409, message: 'Pet 42 is pending, not available: it cannot be ordered.' },
  PET_HAS_OPEN_ORDER: {
    status: 409,
    message: 'Pet 42 is held by order 7 (placed): its status moves with that order (PATCH or cancel the order).',
  },
  PET_HAS_ORDERS: { status: 409, message: 'Pet 42 is named by orders, which keep it: it cannot be deleted.' },
  SANDBOX_LIMIT_REACHED: {
    status: 409,
    message: 'This service allows 25 sandboxes at once, and 25 are in use: delete one (or let one expire) first.',
  },
  PRECONDITION_FAILED: {
    status: 412,
    message:
      'The pet 42 changed since the representation If-Match names; nothing was changed. Read it again (its ETag is "3x8Qv0Kp2sT7mW1aZyB4cD") and decide anew.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than 128 KiB.' },
  EXPECTATION_FAILED: { status: 417, message: 'The service cannot meet the expectation "bogus"; it knows only 100-continue.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This Idempotency-Key was used with a different request; use a new key for a new request.',
  },
  RATE_LIMITED: { status: 429, message: 'Too many requests for this API key; retry in 12 s.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request line and headers are larger than the server accepts (16 KiB).' },
  INTERNAL_ERROR: { status: 500, message: 'An unexpected error occurred.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The database cannot be reached; retry shortly.' },
};

/** The codes each status carries, in the order of ERROR_CODES: the Error schema's `x-codes-by-status`. */
export function errorCodesByStatus(): Record<string, ErrorCode[]> {
  const byStatus: Record<string, ErrorCode[]> = {};
  for (const [code, { status }] of Object.entries(EXAMPLES) as [ErrorCode, { status: number }][]) (byStatus[status] ??= []).push(code);
  return byStatus;
}

/** The headers every response of a status carries, beside those the whole document adds (openapi.ts). */
const HEADERS_BY_STATUS: Readonly<Record<number, HeadersObject>> = {
  401: {
    'WWW-Authenticate': {
      description: 'Bearer realm="petstore", with error="invalid_token" when a key was sent.',
      schema: { type: 'string' },
    },
  },
  403: {
    'WWW-Authenticate': {
      description: 'Bearer realm="petstore", error="insufficient_scope", scope="<the scope needed>" (RFC 6750).',
      schema: { type: 'string' },
    },
  },
  409: { 'Retry-After': { ...RETRY_AFTER['Retry-After'], description: 'With IDEMPOTENCY_KEY_IN_USE: seconds to wait before retrying.' } },
  412: {
    ETag: { description: 'The entity tag of the current representation.', schema: { type: 'string', example: '"3x8Qv0Kp2sT7mW1aZyB4cD"' } },
  },
  429: RETRY_AFTER,
  503: RETRY_AFTER,
};

/** The errors every keyed operation can give: it checks a key and its scopes, counts it, and reads the database. */
const EVERY_KEYED_OPERATION: ErrorReasons = {
  API_KEY_MISSING: 'No API key was sent.',
  API_KEY_INVALID: 'The API key is unknown or revoked.',
  API_KEY_EXPIRED: 'The API key is past its expiry, or past the overlap of a roll.',
  INSUFFICIENT_SCOPE: 'The API key does not hold the scope this operation needs (`x-required-scopes`).',
  RATE_LIMITED:
    'The API key is over its rate limit, or (a sandbox key) all sandboxes together are over their shared budget; ' +
    'retry after `Retry-After`.',
  INTERNAL_ERROR: 'An unexpected error; nothing of it is disclosed.',
  SERVICE_UNAVAILABLE:
    'The database did not answer in time or refused; retry after `Retry-After`. A create may have taken effect: ' +
    'retry it with an Idempotency-Key (the same one, if it had one) so that it happens at most once.',
};

/**
 * Documents the Error responses of a protected operation: those of the given codes, each with why
 * it happens here, and those every keyed operation can give. Each status shows one example per code.
 */
export function ApiErrorResponses(reasons: ErrorReasons): MethodDecorator {
  // An operation that refuses for a scope of its own beyond `x-required-scopes` says when, after the common reason.
  const own = reasons.INSUFFICIENT_SCOPE;
  const scope =
    own === undefined ? {} : { INSUFFICIENT_SCOPE: `${EVERY_KEYED_OPERATION.INSUFFICIENT_SCOPE as string} Or: ${own as string}` };
  return applyDecorators(...errorResponses({ ...reasons, ...EVERY_KEYED_OPERATION, ...scope }));
}

/** One documented response per status of the given codes, with the reasons and an example per code. */
export function errorResponses(reasons: ErrorReasons): MethodDecorator[] {
  const byStatus = new Map<number, { code: ErrorCode; reason: string; message: string }[]>();
  for (const [code, given] of Object.entries(reasons) as [ErrorCode, string | ReasonWithExample][]) {
    const { status, message } = EXAMPLES[code];
    const [reason, example] = typeof given === 'string' ? [given, message] : [given.reason, given.example];
    byStatus.set(status, [...(byStatus.get(status) ?? []), { code, reason, message: example }]);
  }
  return [...byStatus].map(([status, codes]) =>
    ApiResponse({
      status,
      description: codes.map(({ code, reason }) => `${reason} (${code})`).join(' '),
      type: ErrorDto,
      headers: HEADERS_BY_STATUS[status],
      examples: Object.fromEntries(codes.map(({ code, reason, message }) => [code, { summary: reason, value: { code, message, status } }])),
    }),
  );
}
