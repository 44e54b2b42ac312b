import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorDto } from './error.dto.js';

type ErrorStatus = 400 | 404 | 413;

/**
 * Documents the Error responses of a protected operation: the given ones, described per operation,
 * plus the 401, 429 and 500 that every protected operation can give.
 */
export function ApiErrorResponses(responses: Partial<Record<ErrorStatus, string>>): MethodDecorator {
  return applyDecorators(
    ...Object.entries(responses).map(([status, description]) =>
      ApiResponse({ status: Number(status), description, type: ErrorDto }),
    ),
    ApiResponse({
      status: 401,
      description: 'The API key is missing (API_KEY_MISSING) or not valid (API_KEY_INVALID).',
      type: ErrorDto,
      headers: {
        'WWW-Authenticate': { description: 'Bearer realm="petstore", with error="invalid_token" when a key was sent.', schema: { type: 'string' } },
      },
    }),
    ApiResponse({
      status: 429,
      description: 'Over the rate limit of the API key (RATE_LIMITED); retry after `Retry-After`.',
      type: ErrorDto,
      headers: {
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
        'RateLimit-Policy': { description: 'IETF httpapi draft: `"per-key";q=LIMIT;w=60`.', schema: { type: 'string' } },
        RateLimit: { description: 'IETF httpapi draft: `"per-key";r=REMAINING;t=SECONDS`.', schema: { type: 'string' } },
      },
    }),
    ApiResponse({ status: 500, description: 'Unexpected error (INTERNAL_ERROR); nothing of it is disclosed.', type: ErrorDto }),
  );
}
