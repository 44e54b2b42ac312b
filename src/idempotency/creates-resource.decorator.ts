import { applyDecorators, type CanActivate, type ExecutionContext, HttpCode, Injectable, UseGuards } from '@nestjs/common';
import { ApiHeader, type HeadersObject } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { errorResponses } from '../docs/api-error-responses.decorator.js';
import type { AnswerWriter } from '../server/api-express-adapter.js';
import { absoluteUrl } from '../server/request-origin.js';
import { MERGE_PATCH_TYPES, readJsonBody } from '../validation/json-body.guard.js';
import { idempotentRequest } from './idempotency-key.js';
import { CREATED_STATUS, type IdempotentRequest } from './idempotency.repository.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's Idempotency-Key, for the service to create once with (IdempotencyRepository.createOnce). */
    idempotency?: IdempotentRequest;
  }
}

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

/**
 * A POST that creates a member of the collection it is sent to from a JSON body: 201, `Location`,
 * and `Idempotency-Key` support. The service creates through IdempotencyRepository.createOnce.
 */
export function CreatesResource(): MethodDecorator {
  return applyDecorators(HttpCode(CREATED_STATUS), UseGuards(CreateRequestGuard), ...idempotencyKeyDocument('creating'));
}

/**
 * A PATCH (of a JSON Merge Patch, or JSON) or a POST that changes an existing resource, with
 * `Idempotency-Key` support as a create has: the service changes through
 * IdempotencyRepository.changeOnce, and a replay answers `Idempotent-Replayed: true`.
 */
export function ChangesOnce({ takesBody = true }: { takesBody?: boolean } = {}): MethodDecorator {
  return applyDecorators(UseGuards(new ChangeRequestGuard(takesBody)), ...idempotencyKeyDocument('changing'));
}

/**
 * Admits a create once what it needs has been read, in the order its errors are answered, all
 * before anything is created: the JSON body (after the global guards: a request without a valid
 * key is refused unread), the collection's absolute URL (a Host that cannot form it is a 400), and
 * the Idempotency-Key. Then the answer gets its `Location`, and `Idempotent-Replayed` when it was
 * the stored response to an earlier request (a replay gets the same Location as a fresh one).
 */
@Injectable()
class CreateRequestGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    await readJsonBody(request, response);
    const collection = absoluteUrl(request, request.path.replace(/\/$/, ''));
    request.idempotency = idempotentRequest(request);
    request.answerWriter = new CreatedResource(collection, request.idempotency);
    return true;
  }
}

/**
 * Admits a change once its body (a Merge Patch or JSON, or none) and its Idempotency-Key have been
 * read. A change that takes no body (cancel) still reads one sent, which must be JSON, but its
 * retries are the same request whatever body they carry.
 */
class ChangeRequestGuard implements CanActivate {
  constructor(private readonly takesBody: boolean) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    await readJsonBody(request, response, MERGE_PATCH_TYPES);
    request.idempotency = idempotentRequest(request, { takesBody: this.takesBody });
    request.answerWriter = new ChangedResource(request.idempotency);
    return true;
  }
}

class ChangedResource implements AnswerWriter {
  constructor(private readonly idempotency: IdempotentRequest | undefined) {}

  writeAnswer(response: Response, changed: unknown): unknown {
    if (this.idempotency?.replayed) response.setHeader('Idempotent-Replayed', 'true');
    return changed;
  }
}

class CreatedResource implements AnswerWriter {
  constructor(
    private readonly collection: string,
    private readonly idempotency: IdempotentRequest | undefined,
  ) {}

  writeAnswer(response: Response, created: { id: number }): unknown {
    response.setHeader('Location', `${this.collection}/${created.id}`);
    if (this.idempotency?.replayed) response.setHeader('Idempotent-Replayed', 'true');
    return created;
  }
}
