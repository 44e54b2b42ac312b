import { applyDecorators, type CanActivate, type ExecutionContext, HttpCode, HttpStatus, UseGuards } from '@nestjs/common';
import { ApiHeader, type HeadersObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { errorResponses } from '../openapi/api-error-responses.decorator.js';
import { absoluteUrl } from '../http/request-origin.js';
import { MERGE_PATCH_TYPES, readJsonBody } from '../http/json-body.js';
import { ValidationFailedException } from '../errors/api-exception.js';

/** The headers of a 201 from a CreatesResource operation, for its ApiCreatedResponse. */
export const CREATED_HEADERS: HeadersObject = {
  Location: { description: 'The absolute URL of the created resource.', schema: { type: 'string', format: 'uri' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The headers of a 200 from a ChangesOnce operation, for its ApiOkResponse. */
export const REPLAYED_HEADER: HeadersObject = { 'Idempotent-Replayed': CREATED_HEADERS['Idempotent-Replayed'] };

/** The Idempotency-Key header and the errors it brings, as the document shows them for `what` ("creating", "changing"). */
function idempotencyKeyDocument(what: string): MethodDecorator[] {
  return [
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the request safe to retry: the first response is stored for 24 hours (per API key) and a ' +
        `retry with the same body gets it back, with \`Idempotent-Replayed: true\`, ${what} nothing. ` +
        '1 to 255 printable ASCII characters, bare or as a quoted string (`"…"`, RFC 8941): a key of your own for each ' +
        'request that must take effect once, such as `order-4711-approve`.',
      // The same rule as parseIdempotencyKey: a bare key, or a quoted one, of 1 to 255 characters.
      // No example: tools send it (Swagger UI fills it in), and every write would share one key.
      schema: { type: 'string', minLength: 1, maxLength: 257, pattern: '^(?!".*"$)[ -~]{1,255}$|^"[ -~]{1,255}"$' },
    }),
    ...errorResponses({
      IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still in flight; retry after `Retry-After`.',
      IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used with a different body.',
    }),
  ];
}

/** The preconditions on entity tags (RFC 9110 §13.1.1, §13.1.2) that a create refuses (CreateRequestGuard). */
const CONDITIONAL_HEADERS = ['If-Match', 'If-None-Match'] as const;

/**
 * A POST that creates a member of the collection it is sent to from a JSON body: 201, with
 * `Location` (the handler answers Created), and `Idempotency-Key` support (its IdempotencyKey parameter).
 */
export function CreatesResource(): MethodDecorator {
  return applyDecorators(
    HttpCode(HttpStatus.CREATED),
    UseGuards(new CreateRequestGuard()),
    ...idempotencyKeyDocument('creating'),
    ...CONDITIONAL_HEADERS.map((name) =>
      ApiHeader({
        name,
        required: false,
        description:
          `Not taken by a create: a new resource has no entity tag to name yet. Sent, it is refused (\`400 VALIDATION_FAILED\`, ` +
          'naming it) and nothing is created; `Idempotency-Key` is what makes a create safe to retry.',
        schema: { type: 'string' },
      }),
    ),
  );
}

/**
 * A PATCH (of a JSON Merge Patch, or JSON) or a POST that changes an existing resource, with
 * `Idempotency-Key` support as a create has (its IdempotencyKey parameter); a replay answers
 * `Idempotent-Replayed: true` (the handler answers Changed).
 */
export function ChangesOnce(): MethodDecorator {
  return applyDecorators(UseGuards(new ChangeRequestGuard()), ...idempotencyKeyDocument('changing'));
}

/**
 * Admits a create once what it needs has been read, in the order its errors are answered, all
 * before anything is created: the JSON body (after the global guards: a request without a valid
 * key is refused unread), and the collection's absolute URL, which its Location will name (a Host
 * that cannot form it is a 400).
 */
class CreateRequestGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    refusePreconditions(request);
    await readJsonBody(request, response);
    absoluteUrl(request, request.path);
    return true;
  }
}

/**
 * A create's preconditions are refused, not evaluated: a POST's target is the collection (RFC 9110
 * §9.3.3), whose representation is a page no client means by them, so `If-None-Match: *` would always
 * fail and `If-Match: *` always pass though the client meant "only if it does not exist yet" or "only
 * if it does"; a 400 naming the header (as issue 56 allows) tells it so, and creates nothing.
 */
function refusePreconditions(request: Request): void {
  for (const name of CONDITIONAL_HEADERS)
    if (request.headers[name.toLowerCase()] !== undefined)
      throw new ValidationFailedException(
        `${name} is not taken by a create: the new resource has no entity tag yet, and nothing was created. Send it on a read or a ` +
          'change of an existing resource; retry a create safely with an Idempotency-Key.',
      );
}

/** Admits a change once its body (a Merge Patch or JSON, or none) has been read. */
class ChangeRequestGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    await readJsonBody(request, response, MERGE_PATCH_TYPES);
    return true;
  }
}
