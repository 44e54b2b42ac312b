// Written by `npm run openapi` from openapi.json (the Error schema's x-codes-by-status): do not edit.

/** The codes an error answer of each HTTP status carries, as the document lists them. */
export const ERROR_CODES_BY_STATUS = {
  400: ['VALIDATION_FAILED', 'MALFORMED_JSON', 'MALFORMED_REQUEST', 'UNSUPPORTED_MEDIA_TYPE'],
  401: ['API_KEY_MISSING', 'API_KEY_INVALID', 'API_KEY_EXPIRED'],
  403: ['INSUFFICIENT_SCOPE'],
  404: ['PET_NOT_FOUND', 'ORDER_NOT_FOUND', 'WEBHOOK_ENDPOINT_NOT_FOUND', 'EVENT_NOT_FOUND', 'ROUTE_NOT_FOUND'],
  405: ['METHOD_NOT_ALLOWED'],
  408: ['REQUEST_TIMEOUT'],
  409: ['IDEMPOTENCY_KEY_IN_USE'],
  413: ['PAYLOAD_TOO_LARGE'],
  417: ['EXPECTATION_FAILED'],
  422: ['IDEMPOTENCY_KEY_REUSED'],
  429: ['RATE_LIMITED'],
  431: ['HEADERS_TOO_LARGE'],
  500: ['INTERNAL_ERROR'],
  503: ['SERVICE_UNAVAILABLE'],
} as const;
