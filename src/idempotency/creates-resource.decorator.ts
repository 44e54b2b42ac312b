import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  HttpCode,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { ApiHeader, type HeadersObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';
import { errorResponses } from '../docs/api-error-responses.decorator.js';
import { JsonBodyInterceptor } from '../validation/json-body.interceptor.js';
import { absoluteUrl } from '../server/request-origin.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { CREATED_STATUS } from './idempotency.repository.js';

/** The headers of a 201 from a CreatesResource operation, for its ApiCreatedResponse. */
export const CREATED_HEADERS: HeadersObject = {
  Location: { description: 'The absolute URL of the created resource.', schema: { type: 'string', format: 'uri' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * A POST that creates a member of the collection it is sent to from a JSON body: 201, `Location`,
 * and `Idempotency-Key` support. The service creates through IdempotencyRepository.createOnce.
 */
export function CreatesResource(): MethodDecorator {
  return applyDecorators(
    HttpCode(CREATED_STATUS),
    // The body first (after the guards: a request without a valid key is refused unread); Location
    // outside idempotency, so that a replayed response gets it exactly like a fresh one.
    UseInterceptors(JsonBodyInterceptor, LocationHeader, IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the request safe to retry: the first response is stored for 24 hours (per API key) and a ' +
        'retry with the same body gets it back, with `Idempotent-Replayed: true`, creating nothing. ' +
        '1 to 255 printable ASCII characters, bare or as a quoted string (`"…"`, RFC 8941).',
      // The same rule as parseIdempotencyKey: a bare key, or a quoted one, of 1 to 255 characters.
      schema: { type: 'string', minLength: 1, maxLength: 257, pattern: '^(?!".*"$)[ -~]{1,255}$|^"[ -~]{1,255}"$' },
    }),
    ...errorResponses({
      IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still in flight; retry after `Retry-After`.',
      IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used with a different body.',
    }),
  );
}

@Injectable()
class LocationHeader implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    // Before anything is created: a Host that cannot form the URL is a 400 that changes nothing.
    const collection = absoluteUrl(request, request.path.replace(/\/$/, ''));
    return next.handle().pipe(
      map((created: { id: number }) => {
        response.location(`${collection}/${created.id}`);
        return created;
      }),
    );
  }
}
